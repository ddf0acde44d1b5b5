// Downstream tables tied together by foreign keys with a cascading action (ON DELETE / ON UPDATE CASCADE,
// SET NULL or SET DEFAULT). The binlog does not carry what a cascade changes: the upstream logs the
// parent's DELETE or UPDATE only, and the downstream must cascade itself. That is exact only when the
// family's changes reach the downstream in their binlog order (one causality key for the family) and the
// parent's DELETE or UPDATE runs with foreign_key_checks as the upstream's session had it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/schema/table_name.h"

namespace sql {
class Connection;
}  // namespace sql

namespace syncscope::schema {

// One downstream foreign key, child -> parent, with its actions as information_schema spells them.
struct ForeignKeyEdge {
    TableName child;
    TableName parent;
    std::string name;
    std::string deleteRule = "RESTRICT";
    std::string updateRule = "RESTRICT";

    // CASCADE, SET NULL or SET DEFAULT on delete or update: a change of the parent changes child rows.
    // RESTRICT and NO ACTION change no row (and with foreign_key_checks=0 nothing at all).
    bool cascades() const;
};

struct CascadeFamily {
    // The family's name: the first of its tables in name order ("db.t"); empty when the table has no
    // cascading foreign key, as child or as parent.
    std::string name;
    // A DELETE or UPDATE of this table's rows cascades to a child table downstream.
    bool cascadesToChildren = false;
    // This table's rows are changed by a parent's cascade (it has a cascading foreign key of its own).
    bool changedByParents = false;
};

// The family of `table` among `edges` (every table reachable over cascading foreign keys, either way).
CascadeFamily cascadeFamilyOf(const TableName& table, const std::vector<ForeignKeyEdge>& edges);

// The foreign keys that reference `table`, as "db.child (name, ON DELETE rule)" for messages.
std::vector<std::string> referencingForeignKeysOf(const TableName& table, const std::vector<ForeignKeyEdge>& edges);

// Whether a DDL may add, drop or move a foreign key (REFERENCES, FOREIGN KEY, DROP, RENAME): then every
// table's family may have changed, not only the tables the DDL names.
bool ddlMayChangeCascades(std::string_view sql);

// Every foreign key of the downstream server, in one plain query (not a prepared statement: MariaDB
// 10.11 was seen to crash executing a prepared information_schema.REFERENTIAL_CONSTRAINTS query while
// engines were being killed). Throws sql::SQLException.
std::vector<ForeignKeyEdge> readForeignKeys(sql::Connection& connection);

}  // namespace syncscope::schema
