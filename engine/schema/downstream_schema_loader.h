// Reads a table's structure from the downstream's information_schema, for tables whose binlog events
// carry no column names (binlog_row_metadata=MINIMAL) and for the unique keys a table map never has.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/common/error.h"
#include "engine/schema/cascade_family.h"
#include "engine/schema/table_schema.h"

namespace sql {
class Connection;
}

namespace syncscope::schema {

class SchemaError : public Error {
public:
    using Error::Error;
    // From a failed query on the downstream: its error code, so that a lost connection is retried.
    SchemaError(const std::string& message, int serverCode) : Error(message), serverCode_(serverCode) {}
    int serverCode() const { return serverCode_; }

private:
    int serverCode_ = 0;
};

class DownstreamSchemaLoader {
public:
    // The connection stays owned by the caller and must outlive the loader.
    explicit DownstreamSchemaLoader(sql::Connection& connection) : connection_(connection) {}

    // nullopt when the table does not exist downstream; throws SchemaError when the query fails.
    std::optional<TableSchema> load(const TableName& table);

    // The downstream's foreign keys are read once (one query over the whole server) and kept for every
    // later load, until a DDL that may add, drop or move one says they changed.
    void forgetForeignKeys() { foreignKeys_.reset(); }

private:
    const std::vector<ForeignKeyEdge>& foreignKeys();

    sql::Connection& connection_;
    std::optional<std::vector<ForeignKeyEdge>> foreignKeys_;
};

}  // namespace syncscope::schema
