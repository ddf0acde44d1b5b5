// What shard merge's optimistic mode weighs a shard's DDL against (optimistic_shard_ddl.h), read on the
// downstream: the merged table's columns and indexes, and the column a DDL's definition would make (made on
// a temporary table of the session, so the server itself says what "INT" or "DEC(9,2)" becomes).
#pragma once

#include <optional>
#include <string>

#include "engine/common/table_name.h"
#include "engine/task/optimistic_shard_ddl.h"

namespace sql {
class Connection;
}

namespace syncscope::task {

class MergedTableReader {
public:
    // `probeSchema` holds the temporary probe table (the task's meta schema, which exists).
    MergedTableReader(sql::Connection& connection, std::string probeSchema);

    // Throws sql::SQLException when the server cannot be read; an absent table has no columns.
    MergedTable read(const TableName& target);
    // nullopt when the server refuses the definition.
    std::optional<MergedColumn> probe(const std::string& definition);

private:
    sql::Connection& connection_;
    std::string probeSchema_;
};

}  // namespace syncscope::task
