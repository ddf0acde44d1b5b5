// The clauses of one table's DDL as shard merge's optimistic mode weighs them (optimistic_shard_ddl.h):
// ALTER TABLE split at its top-level commas, CREATE INDEX and DROP INDEX as one clause each. Each clause
// keeps its own text, so that the clauses still to run can be put back into one ALTER TABLE. What is not
// one of the kinds below (a rename, a primary key, a partition, a table option ...) is Other.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace syncscope::task {

struct AlterClause {
    enum class Kind { AddColumn, DropColumn, ModifyColumn, AddIndex, DropIndex, Other };
    Kind kind = Kind::Other;
    std::string name;        // the column's or index's name ("" for an unnamed ADD INDEX)
    std::string definition;  // AddColumn, ModifyColumn: the column's type and attributes, without FIRST/AFTER
    std::vector<std::string> indexColumns;  // AddIndex: the indexed columns, in order
    bool unique = false;                    // AddIndex: UNIQUE
    std::string text;                       // the clause as written
};

struct AlterClauses {
    // "ALTER TABLE `db`.`t`" for ALTER TABLE (the statement up to its first clause); "" for CREATE/DROP INDEX,
    // which are one clause and run as written.
    std::string head;
    std::vector<AlterClause> clauses;

    // The statement with only these clauses (indexes into `clauses`); the statement itself for CREATE or
    // DROP INDEX.
    std::string withOnly(const std::vector<size_t>& kept, std::string_view statement) const;
};

// Splits `sql` (an ALTER TABLE, CREATE [UNIQUE] INDEX or DROP INDEX of one table); nullopt-like empty
// clauses when it is none of them or cannot be read.
AlterClauses splitAlterClauses(std::string_view sql);

}  // namespace syncscope::task
