// Decodes only what finding a place in a binlog needs: every event's common header (time, type, size,
// end position) and the bodies of the few events that open or close a transaction or configure the
// decoding (FORMAT_DESCRIPTION, GTID, query, XA). Rows and table maps, most of a binlog's bytes, keep
// an empty body: a search by time or a boundary check never decodes a row.
#pragma once

#include <string_view>
#include <vector>

#include "engine/binlog/event.h"
#include "engine/binlog/event_decoder.h"
#include "engine/binlog/raw_event.h"

namespace syncscope::browse {

class BoundaryEventDecoder {
public:
    // Whether an event of this type code is decoded whole (an unknown code is, so that it is refused
    // as the full decoder refuses it).
    static bool needsBody(uint8_t typeCode);

    // Appends the event of `raw` (whole bytes): decoded whole when needsBody(), else its header only.
    void decodeInto(const binlog::RawEvent& raw, std::vector<binlog::Event>& out);
    // Appends an event known by its common header alone (`header` holds at least its 19 bytes), for a
    // reader that does not read the body. Throws binlog::DecodeError for a size no event can have.
    static void appendHeaderOnly(std::string_view header, std::string_view file, uint64_t pos,
                                 std::vector<binlog::Event>& out);
    // The event size in a common header (at least 19 bytes).
    static uint32_t eventSizeOf(std::string_view header);

    binlog::EventDecoder& decoder() { return decoder_; }

private:
    binlog::EventDecoder decoder_;
};

}  // namespace syncscope::browse
