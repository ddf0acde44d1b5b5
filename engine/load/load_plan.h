// What a snapshot load copies: the tables (upstream name, routed target, copied columns, the key the
// rows are cut by) and the chunks, each a key range that is loaded in one downstream transaction
// together with its row in the loader checkpoint.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/binlog/location.h"
#include "engine/filter/table_name.h"

namespace syncscope::load {

using filter::TableName;

// Key values of one row as SQL literals (42, 'text', X'0a'), in key column order.
using KeyBound = std::vector<std::string>;

struct LoadTable {
    TableName upstream;
    TableName target;
    std::vector<std::string> columns;     // copied columns in upstream order; generated columns left out
    std::vector<std::string> keyColumns;  // primary key or a NOT NULL unique key; empty: one stream
    bool integerKey = false;              // one integer key column: chunks by MIN/MAX arithmetic
    uint64_t estimatedRows = 0;           // information_schema.TABLES (InnoDB's estimate)
    uint64_t estimatedBytes = 0;
};

struct LoadChunk {
    std::string name;  // DM's `filename` column: "schema.table.00003"
    TableName upstream;
    TableName target;
    std::vector<std::string> keyColumns;
    std::optional<KeyBound> lower;  // inclusive; none: from the first row
    std::optional<KeyBound> upper;  // exclusive; none: to the last row
    uint64_t estimatedRows = 0;
    uint64_t estimatedBytes = 0;

    bool done = false;
    uint64_t rowsDone = 0;
    uint64_t bytesDone = 0;
    binlog::Location loadedAt;  // the snapshot point the chunk's rows were read at

    bool operator==(const LoadChunk&) const = default;
};

// The WHERE condition that selects exactly the chunk's key range ("1" for the whole table): every
// row falls in exactly one chunk of a table, whatever was inserted after the plan was made.
std::string chunkCondition(const LoadChunk& chunk);

}  // namespace syncscope::load
