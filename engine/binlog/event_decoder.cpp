#include "engine/binlog/event_decoder.h"

#include "engine/binlog/checksum.h"
#include "engine/binlog/compression.h"
#include "engine/binlog/event_body_decoders.h"

namespace syncscope::binlog {

namespace {

constexpr size_t kTypeOffset = 4;
constexpr size_t kEventSizeOffset = 9;
constexpr size_t kServerVersionOffset = kEventHeaderSize + 2;  // after the binlog version
constexpr size_t kServerVersionLength = 50;

EventHeader readHeader(ByteReader& reader) {
    EventHeader header;
    header.timestamp = reader.u32("timestamp");
    header.type = static_cast<EventType>(reader.u8("event type"));
    header.serverId = reader.u32("server id");
    header.eventSize = reader.u32("event size");
    header.logPos = reader.u32("log position");
    header.flags = reader.u16("flags");
    return header;
}

std::string typeLabel(uint8_t code) {
    const std::string_view name = eventTypeName(static_cast<EventType>(code));
    if (!isKnownEventType(code)) {
        return "event type " + std::to_string(code);
    }
    return std::string(name);
}

uint32_t storedChecksum(std::string_view bytes) {
    ByteReader trailer(bytes.substr(bytes.size() - kChecksumSize));
    return trailer.u32("checksum");
}

// The server sets LOG_EVENT_BINLOG_IN_USE_F in the FDE of an open file after computing the checksum,
// and clears it on close; the checksum covers the event without it.
uint32_t formatDescriptionCrc32(std::string_view covered, uint16_t flags) {
    constexpr uint16_t kBinlogInUseFlag = 0x0001;
    constexpr size_t kFlagsOffset = 17;
    if ((flags & kBinlogInUseFlag) == 0) {
        return binlogCrc32(covered);
    }
    std::string copy(covered);
    copy[kFlagsOffset] = static_cast<char>(static_cast<uint8_t>(copy[kFlagsOffset]) & ~kBinlogInUseFlag);
    return binlogCrc32(copy);
}

}  // namespace

EventDecoder::EventDecoder() : fde_(detail::defaultFormatDescription()) {}

void EventDecoder::reset() {
    fde_ = detail::defaultFormatDescription();
    checksum_ = ChecksumAlgorithm::Off;
    tableMaps_.clear();
    tableMapBodies_.clear();
}

size_t EventDecoder::tableIdSize() const {
    constexpr uint8_t kShortTableIdPostHeader = 6;  // MySQL 5.1.0-5.1.3: 4-byte table id
    constexpr uint8_t kTableMapPostHeader = 8;
    constexpr size_t kShortTableIdSize = 4;
    constexpr size_t kTableIdSize = 6;
    return detail::postHeaderLength(fde_, EventType::TableMap, kTableMapPostHeader) == kShortTableIdPostHeader
               ? kShortTableIdSize
               : kTableIdSize;
}

TableMapPtr EventDecoder::tableMap(uint64_t tableId) const {
    const auto found = tableMaps_.find(tableId);
    return found == tableMaps_.end() ? nullptr : found->second;
}

Event EventDecoder::decode(const RawEvent& raw) {
    return decodeEvent(raw.bytes, raw, false);
}

void EventDecoder::decodeInto(const RawEvent& raw, std::vector<Event>& out) {
    Event& event = out.emplace_back();
    try {
        decodeEventInto(raw.bytes, raw, false, event);
    } catch (...) {
        out.pop_back();
        throw;
    }
    if (auto* payload = std::get_if<TransactionPayloadEvent>(&event.body)) {
        std::vector<Event> inner = std::move(payload->events);
        out.pop_back();
        for (Event& innerEvent : inner) {
            out.push_back(std::move(innerEvent));
        }
    }
}

void EventDecoder::recycle(std::vector<Event>& events) {
    // A few spares cover what one raw event decodes to; a payload's many rows events are not all kept.
    constexpr size_t kMaxSpareRowsEvents = 8;
    for (Event& event : events) {
        if (spareRows_.size() >= kMaxSpareRowsEvents) {
            break;
        }
        if (auto* rows = std::get_if<RowsEvent>(&event.body)) {
            rows->table.reset();
            spareRows_.push_back(std::move(*rows));
        }
    }
    events.clear();
}

// The body of an event: after the common header, without the checksum, which is verified here.
std::string_view EventDecoder::verifiedBody(std::string_view bytes, const RawEvent& raw, const EventHeader& header) {
    const std::string_view file = raw.file;
    if (header.type == EventType::FormatDescription) {
        // An FDE tells its own checksum algorithm: the byte before its last 4 bytes, for servers
        // that write it.
        if (bytes.size() < kServerVersionOffset + kServerVersionLength) {
            throw DecodeError(std::string(file), raw.pos,
                              "FORMAT_DESCRIPTION_EVENT: truncated: " + std::to_string(bytes.size()) +
                                  " bytes, the server version alone ends at " +
                                  std::to_string(kServerVersionOffset + kServerVersionLength));
        }
        std::string_view version = bytes.substr(kServerVersionOffset, kServerVersionLength);
        version = version.substr(0, std::min(version.find('\0'), version.size()));
        if (!serverWritesChecksumAlgorithm(version)) {
            return bytes.substr(kEventHeaderSize);
        }
        if (bytes.size() < kServerVersionOffset + kServerVersionLength + 1 + kChecksumSize) {
            throw DecodeError(std::string(file), raw.pos,
                              "FORMAT_DESCRIPTION_EVENT: truncated before its checksum algorithm");
        }
        const auto algorithm = static_cast<uint8_t>(bytes[bytes.size() - kChecksumSize - 1]);
        const std::string_view covered = bytes.substr(0, bytes.size() - kChecksumSize);
        if (algorithm == static_cast<uint8_t>(ChecksumAlgorithm::Crc32) && verifyChecksums_ &&
            formatDescriptionCrc32(covered, header.flags) != storedChecksum(bytes)) {
            throw DecodeError(std::string(file), raw.pos,
                              "FORMAT_DESCRIPTION_EVENT: CRC32 checksum mismatch (corrupt binlog)");
        }
        return covered.substr(kEventHeaderSize);
    }
    const size_t headerLength = fde_.headerLength;
    size_t end = bytes.size();
    if (checksum_ == ChecksumAlgorithm::Crc32) {
        if (bytes.size() < headerLength + kChecksumSize) {
            throw DecodeError(std::string(file), raw.pos,
                              typeLabel(static_cast<uint8_t>(header.type)) + ": truncated: " +
                                  std::to_string(bytes.size()) + " bytes cannot hold a header and a checksum");
        }
        end -= kChecksumSize;
        if (verifyChecksums_ && binlogCrc32(bytes.substr(0, end)) != storedChecksum(bytes)) {
            throw DecodeError(std::string(file), raw.pos,
                              typeLabel(static_cast<uint8_t>(header.type)) +
                                  ": CRC32 checksum mismatch (corrupt binlog, or binlog_checksum differs "
                                  "from what the FORMAT_DESCRIPTION says)");
        }
    }
    if (end < headerLength) {
        throw DecodeError(std::string(file), raw.pos,
                          typeLabel(static_cast<uint8_t>(header.type)) +
                              ": truncated: " + std::to_string(bytes.size()) + " bytes, the header alone is " +
                              std::to_string(headerLength));
    }
    return bytes.substr(headerLength, end - headerLength);
}

Event EventDecoder::decodeEvent(std::string_view bytes, const RawEvent& raw, bool insidePayload) {
    Event event;
    decodeEventInto(bytes, raw, insidePayload, event);
    return event;
}

void EventDecoder::decodeEventInto(std::string_view bytes, const RawEvent& raw, bool insidePayload, Event& event) {
    event.file = raw.file;
    event.pos = raw.pos;
    event.insidePayload = insidePayload;
    if (bytes.size() < kEventHeaderSize) {
        throw DecodeError(
            std::string(raw.file), raw.pos,
            "truncated event: " + std::to_string(bytes.size()) + " bytes, shorter than the 19-byte common header");
    }
    ByteReader headerReader(bytes.substr(0, kEventHeaderSize));
    event.header = readHeader(headerReader);
    const auto code = static_cast<uint8_t>(bytes[kTypeOffset]);
    if (event.header.eventSize != bytes.size()) {
        throw DecodeError(std::string(raw.file), raw.pos,
                          typeLabel(code) + ": event size field says " + std::to_string(event.header.eventSize) +
                              " bytes, the event has " + std::to_string(bytes.size()));
    }
    event.endPos = event.header.logPos != 0 ? event.header.logPos : raw.pos + bytes.size();

    std::string_view body;
    if (insidePayload) {
        body = bytes.substr(kEventHeaderSize);  // events inside a payload have no checksum
    } else {
        body = verifiedBody(bytes, raw, event.header);
    }
    ByteReader reader(body);
    try {
        decodeBody(reader, event, raw);
    } catch (const DecodeError&) {
        throw;
    } catch (const Error& e) {
        throw DecodeError(std::string(raw.file), raw.pos, typeLabel(code) + ": " + e.what());
    }
}

void EventDecoder::decodeBody(ByteReader& body, Event& event, const RawEvent& raw) {
    const EventType type = event.header.type;
    const auto code = static_cast<uint8_t>(type);
    if (!isKnownEventType(code)) {
        if ((event.header.flags & EventHeader::kIgnorableFlag) != 0) {
            event.body = IgnoredEvent{code};
            return;
        }
        throw EventFormatError("unknown event type " + std::to_string(code) +
                               " (not flagged ignorable, so it cannot be skipped safely)");
    }
    if (RowsEventDecoder::handles(type)) {
        RowsEvent rows;
        if (!spareRows_.empty()) {
            rows = std::move(spareRows_.back());
            spareRows_.pop_back();
        }
        rows_.decodeInto(body, type, fde_, tableMaps_, rows, rowTextStorage_);
        event.body = std::move(rows);
        return;
    }
    switch (type) {
        case EventType::FormatDescription: {
            FormatDescriptionEvent fde = detail::decodeFormatDescription(body);
            fde_ = fde;
            checksum_ = fde.checksum == ChecksumAlgorithm::Crc32 ? ChecksumAlgorithm::Crc32 : ChecksumAlgorithm::Off;
            tableMaps_.clear();
            tableMapBodies_.clear();
            event.body = std::move(fde);
            return;
        }
        case EventType::Query:
            event.body = detail::decodeQuery(body, fde_, false);
            return;
        case EventType::QueryCompressed:
            event.body = detail::decodeQuery(body, fde_, true);
            return;
        case EventType::Rotate:
            event.body = detail::decodeRotate(body, fde_);
            return;
        case EventType::Xid:
            event.body = detail::decodeXid(body);
            return;
        case EventType::Stop:
            event.body = StopEvent{};
            return;
        case EventType::Heartbeat:
            event.body = detail::decodeHeartbeat(body, event.header);
            return;
        case EventType::HeartbeatV2:
            event.body = detail::decodeHeartbeatV2(body);
            return;
        case EventType::Intvar:
            event.body = detail::decodeIntvar(body);
            return;
        case EventType::Rand:
            event.body = detail::decodeRand(body);
            return;
        case EventType::Incident:
            event.body = detail::decodeIncident(body);
            return;
        case EventType::MariaDbGtid:
            event.body = detail::decodeMariaDbGtid(body, event.header);
            return;
        case EventType::GtidList:
            event.body = detail::decodeGtidList(body);
            return;
        case EventType::BinlogCheckpoint:
            event.body = detail::decodeBinlogCheckpoint(body);
            return;
        case EventType::AnnotateRows:
            event.body = detail::decodeAnnotateRows(body);
            return;
        case EventType::Gtid:
            event.body = detail::decodeMySqlGtid(body, false);
            return;
        case EventType::AnonymousGtid:
            event.body = detail::decodeMySqlGtid(body, true);
            return;
        case EventType::PreviousGtids:
            event.body = detail::decodePreviousGtids(body);
            return;
        case EventType::RowsQuery:
            event.body = detail::decodeRowsQuery(body);
            return;
        case EventType::Ignorable:
            event.body = IgnoredEvent{code};
            return;
        case EventType::TableMap: {
            const std::string_view bytes(reinterpret_cast<const char*>(body.current()), body.remaining());
            ByteReader idReader = body;
            const uint64_t tableId = idReader.uintN(tableIdSize(), "table id");
            const auto cached = tableMaps_.find(tableId);
            if (cached != tableMaps_.end() && tableMapBodies_[tableId] == bytes) {
                event.body = TableMapEvent{cached->second};
                return;
            }
            TableMapPtr table = detail::decodeTableMap(body, fde_);
            tableMaps_[table->tableId] = table;
            tableMapBodies_[table->tableId].assign(bytes);
            event.body = TableMapEvent{std::move(table)};
            return;
        }
        case EventType::TransactionPayload:
            if (event.insidePayload) {
                throw EventFormatError("a TRANSACTION_PAYLOAD inside another one");
            }
            event.body = decodePayload(body, event, raw);
            return;
        case EventType::StartEncryption:
            throw EventFormatError(
                "encrypted binlog: not supported, decrypt it first (read it through the server, which sends "
                "decrypted events, or use mariadb-binlog with the server's encryption key plugin)");
        default:
            event.body = OtherEvent{std::string(body.rest())};
            return;
    }
}

TransactionPayloadEvent EventDecoder::decodePayload(ByteReader& body, const Event& payload, const RawEvent& raw) {
    const detail::TransactionPayloadHeader header = detail::decodeTransactionPayloadHeader(body);
    TransactionPayloadEvent result;
    result.compression = header.compression;
    result.payloadSize = header.payloadSize;
    result.uncompressedSize = header.uncompressedSize;
    if (header.compression == TransactionPayloadEvent::Compression::Zstd) {
        decompressZstd(header.payload, header.uncompressedSize, payload_, "transaction payload");
    } else {
        payload_.assign(header.payload);
    }
    // Decoding inner events may not touch payload_ again (a payload cannot nest), so views stay valid.
    ByteReader inner(payload_);
    while (!inner.atEnd()) {
        const size_t offset = inner.offset();
        inner.need(kEventHeaderSize, "inner event header");
        ByteReader sizeReader(inner.current() + kEventSizeOffset, sizeof(uint32_t));
        const uint32_t size = sizeReader.u32("inner event size");
        inner.need(size, "inner event");
        const std::string_view bytes = inner.bytes(size, "inner event");
        try {
            Event event = decodeEvent(bytes, raw, true);
            event.endPos = payload.endPos;
            result.events.push_back(std::move(event));
        } catch (const DecodeError& e) {
            throw EventFormatError("inner event at +" + std::to_string(offset) + " of the payload: " + e.problem());
        }
    }
    return result;
}

}  // namespace syncscope::binlog
