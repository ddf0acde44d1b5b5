// Decodes WRITE/UPDATE/DELETE rows events (v0, v1, v2, MariaDB compressed) and MySQL's
// PARTIAL_UPDATE_ROWS into before/after images of typed values, using the table map the event names.
#pragma once

#include <string>
#include <unordered_map>

#include "engine/binlog/byte_reader.h"
#include "engine/binlog/event.h"
#include "engine/binlog/value_decoder.h"

namespace syncscope::binlog {

class RowsEventDecoder {
public:
    using TableMaps = std::unordered_map<uint64_t, TableMapPtr>;

    // True for every type code this decoder reads.
    static bool handles(EventType type);

    // Throws TruncatedError or EventFormatError (the caller adds file and offset).
    RowsEvent decode(ByteReader& body, EventType type, const FormatDescriptionEvent& fde, const TableMaps& tables);

    // The same into `event`, whose vectors keep their capacity (an event recycled from an earlier one
    // allocates nothing when the new one is no larger). With TextStorage::Borrow, text and bytes values
    // point into `body`'s bytes (values of a compressed event are still copied).
    void decodeInto(ByteReader& body, EventType type, const FormatDescriptionEvent& fde, const TableMaps& tables,
                    RowsEvent& event, TextStorage storage = TextStorage::Copy);

private:
    void decodeImage(ByteReader& rows, RowsEvent& event, const std::vector<bool>& present, size_t presentCount,
                     bool afterImage, TextStorage storage);
    std::string inflated_;  // decompressed rows of a MariaDB compressed event, reused
};

}  // namespace syncscope::binlog
