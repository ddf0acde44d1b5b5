// Decodes WRITE/UPDATE/DELETE rows events (v0, v1, v2, MariaDB compressed) and MySQL's
// PARTIAL_UPDATE_ROWS into before/after images of typed values, using the table map the event names.
#pragma once

#include <string>
#include <unordered_map>

#include "engine/binlog/byte_reader.h"
#include "engine/binlog/event.h"

namespace syncscope::binlog {

class RowsEventDecoder {
public:
    using TableMaps = std::unordered_map<uint64_t, TableMapPtr>;

    // True for every type code this decoder reads.
    static bool handles(EventType type);

    // Throws TruncatedError or EventFormatError (the caller adds file and offset).
    RowsEvent decode(ByteReader& body, EventType type, const FormatDescriptionEvent& fde, const TableMaps& tables);

private:
    void decodeImage(ByteReader& rows, RowsEvent& event, const std::vector<bool>& present, size_t presentCount,
                     bool afterImage);
    std::string inflated_;  // decompressed rows of a MariaDB compressed event, reused
};

}  // namespace syncscope::binlog
