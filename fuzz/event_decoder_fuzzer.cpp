// libFuzzer target over EventDecoder. Input: one selector byte, then binlog events back to back
// (each as long as its event_size field says; the last one takes what is left).
// Selector bits 0-1 pick the FORMAT_DESCRIPTION decoded first (MariaDB 10.11 CRC32, MariaDB no
// checksum, MySQL 8.0 CRC32, MySQL 5.6 no checksum); bit 2 turns CRC verification off so that
// mutations reach the body decoders; bit 3 decodes as `decode` and `bench decode` do (text borrowed
// from the event's bytes, which are a fresh copy freed after each event, and rows events recycled).
// Every event must decode or throw DecodeError; anything else (another exception, a crash, a
// sanitizer report) is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "engine/binlog/decode_error.h"
#include "engine/binlog/event_decoder.h"
#include "tests/engine/binlog/events/event_bytes.h"

namespace {

constexpr uint8_t kFlavorMask = 0x03;
constexpr uint8_t kNoVerifyBit = 0x04;
constexpr uint8_t kStreamingBit = 0x08;
constexpr size_t kEventSizeOffset = 9;

struct Flavor {
    std::string_view version;
    bool crc;
};
constexpr Flavor kFlavors[] = {
    {"10.11.6-MariaDB-log", true}, {"10.11.6-MariaDB-log", false}, {"8.0.36", true}, {"5.6.35-log", false}};

void decodeOrRefuse(syncscope::binlog::EventDecoder& decoder, std::string_view bytes, uint64_t pos,
                    std::vector<syncscope::binlog::Event>& events, bool streaming) {
    try {
        decoder.recycle(events);
        // Streaming: the bytes live only while this event is handled, as a source's read buffer.
        const std::string copy = streaming ? std::string(bytes) : std::string();
        decoder.decodeInto(syncscope::binlog::RawEvent{streaming ? copy : bytes, "fuzz-bin.000001", pos}, events);
        for (const auto& event : events) {
            if (const auto* rows = event.as<syncscope::binlog::RowsEvent>()) {
                // Render every value: the text form must work for whatever decoded.
                for (size_t r = 0; r < rows->rowCount(); ++r) {
                    for (const auto& image : {rows->before(r), rows->after(r)}) {
                        for (size_t c = 0; c < image.size(); ++c) {
                            (void)image[c].toText(rows->table->columns[c]);
                        }
                    }
                }
            }
        }
        if (streaming) {
            decoder.recycle(events);  // the views die with `copy`
        }
    } catch (const syncscope::binlog::DecodeError&) {
        // refused with file and offset: the expected outcome for bad bytes
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1) {
        return 0;
    }
    const uint8_t selector = data[0];
    const Flavor& flavor = kFlavors[selector & kFlavorMask];
    syncscope::binlog::EventDecoder decoder;
    decoder.setVerifyChecksums((selector & kNoVerifyBit) == 0);
    const bool streaming = (selector & kStreamingBit) != 0;
    if (streaming) {
        decoder.setRowTextStorage(syncscope::binlog::TextStorage::Borrow);
    }
    std::vector<syncscope::binlog::Event> events;
    const std::string fde = syncscope::test::makeFormatDescription(flavor.version, flavor.crc);
    decoder.decode(syncscope::binlog::RawEvent{fde, "fuzz-bin.000001", 4});

    std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
    uint64_t pos = 4 + fde.size();
    while (!rest.empty()) {
        size_t length = rest.size();
        if (rest.size() >= syncscope::binlog::kEventHeaderSize) {
            uint32_t declared = 0;
            for (size_t i = 0; i < 4; ++i) {
                declared |= static_cast<uint32_t>(static_cast<uint8_t>(rest[kEventSizeOffset + i])) << (8 * i);
            }
            if (declared >= syncscope::binlog::kEventHeaderSize && declared <= rest.size()) {
                length = declared;
            }
        }
        decodeOrRefuse(decoder, rest.substr(0, length), pos, events, streaming);
        pos += length;
        rest.remove_prefix(length);
    }
    return 0;
}
