#include "engine/browse/boundary_event_decoder.h"

#include "engine/binlog/byte_reader.h"
#include "engine/binlog/event_type.h"

namespace syncscope::browse {

namespace {

constexpr size_t kTypeOffset = 4;
constexpr size_t kEventSizeOffset = 9;

}  // namespace

bool BoundaryEventDecoder::needsBody(uint8_t typeCode) {
    using binlog::EventType;
    if (!binlog::isKnownEventType(typeCode)) {
        return true;
    }
    switch (static_cast<EventType>(typeCode)) {
        case EventType::FormatDescription:  // checksums and post-header lengths of what follows
        case EventType::Query:              // BEGIN, COMMIT, DDL, XA
        case EventType::QueryCompressed:
        case EventType::MariaDbGtid:  // the GTID text and the standalone flag
        case EventType::Gtid:
        case EventType::AnonymousGtid:
        case EventType::TransactionPayload:  // a whole compressed transaction (MySQL 8)
        case EventType::StartEncryption:     // refused, as the full decoder refuses it
            return true;
        default:
            return false;
    }
}

uint32_t BoundaryEventDecoder::eventSizeOf(std::string_view header) {
    binlog::ByteReader reader(header.substr(kEventSizeOffset));
    return reader.u32("event size");
}

void BoundaryEventDecoder::appendHeaderOnly(std::string_view header, std::string_view file, uint64_t pos,
                                            std::vector<binlog::Event>& out) {
    if (header.size() < binlog::kEventHeaderSize) {
        throw binlog::DecodeError(
            std::string(file), pos,
            "truncated event: " + std::to_string(header.size()) + " bytes, shorter than the 19-byte common header");
    }
    binlog::ByteReader reader(header.substr(0, binlog::kEventHeaderSize));
    binlog::Event& event = out.emplace_back();
    event.header.timestamp = reader.u32("timestamp");
    event.header.type = static_cast<binlog::EventType>(reader.u8("event type"));
    event.header.serverId = reader.u32("server id");
    event.header.eventSize = reader.u32("event size");
    event.header.logPos = reader.u32("log position");
    event.header.flags = reader.u16("flags");
    if (event.header.eventSize < binlog::kEventHeaderSize) {
        out.pop_back();
        throw binlog::DecodeError(std::string(file), pos,
                                  "event size field says " + std::to_string(event.header.eventSize) +
                                      " bytes, shorter than the 19-byte common header");
    }
    event.file = file;
    event.pos = pos;
    event.endPos = event.header.logPos != 0 ? event.header.logPos : pos + event.header.eventSize;
}

void BoundaryEventDecoder::decodeInto(const binlog::RawEvent& raw, std::vector<binlog::Event>& out) {
    if (raw.bytes.size() > kTypeOffset && !needsBody(static_cast<uint8_t>(raw.bytes[kTypeOffset]))) {
        appendHeaderOnly(raw.bytes, raw.file, raw.pos, out);
        return;
    }
    decoder_.decodeInto(raw, out);
}

}  // namespace syncscope::browse
