// What a QUERY event's SQL is, as far as replication cares: its kind, DM's event name for the filters,
// and every table it touches (with the byte range of each name in the SQL, for rewriting on a route).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "engine/filter/table_name.h"

namespace syncscope::filter {

enum class StatementKind {
    CreateDatabase,
    DropDatabase,
    AlterDatabase,
    CreateTable,
    DropTable,
    TruncateTable,
    RenameTable,
    AlterTable,
    CreateIndex,
    DropIndex,
    TransactionControl,  // BEGIN, COMMIT, ROLLBACK, XA ...: transaction boundaries, not DDL
    NotReplicated,       // DM's built-in skip list: accounts, FLUSH, views, triggers, routines, events ...
    StatementDml,        // INSERT/UPDATE/DELETE as SQL text: the upstream is not logging in ROW format
    Unsupported,         // a known statement this engine cannot replicate (e.g. sequences); tables are known
    Unclassified,        // not understood: the engine reports it as an error rather than guess
};

enum class TableRole {
    Changed,     // the table (or, with an empty table name, the schema) the statement creates, alters, drops
    RenamedTo,   // the new name of a rename (follows the Changed reference it renames)
    CopiedFrom,  // CREATE TABLE ... LIKE source
    Referenced,  // FOREIGN KEY ... REFERENCES parent
};

struct TableReference {
    TableName name;  // the schema filled from the default database when the SQL did not name one
    TableRole role = TableRole::Changed;
    size_t begin = 0;  // byte range of the (possibly qualified) name in the SQL
    size_t end = 0;
};

struct ClassifiedStatement {
    StatementKind kind = StatementKind::Unclassified;
    std::string filterEvent;  // DM's event name ("alter table" ...) for DDL kinds; "" otherwise
    std::vector<TableReference> tables;
    std::string note;  // why, for NotReplicated, StatementDml, Unsupported and Unclassified

    bool isDdl() const { return !filterEvent.empty(); }

    // The tables in the given role, in statement order.
    std::vector<TableName> tablesIn(TableRole role) const {
        std::vector<TableName> names;
        for (const auto& reference : tables) {
            if (reference.role == role)
                names.push_back(reference.name);
        }
        return names;
    }
};

}  // namespace syncscope::filter
