// The differential test's random schema: a few tables of the shapes real users have (integer, text and
// composite primary keys, nullable unique keys, no key at all, _ci collations, generated columns, a
// parent and child with ON DELETE CASCADE, MyISAM), kept as a model that the workload generator reads
// (and that ALTER and CREATE ... SELECT steps change).
#pragma once

#include <string>
#include <vector>

#include "tests/integration/differential/fuzz_features.h"
#include "tests/integration/differential/fuzz_random.h"

namespace syncscope::differential {

enum class ValueKind { Int, Text };

struct ColumnSpec {
    std::string name;
    ValueKind kind = ValueKind::Int;
    std::string sqlType;  // "INT", "VARCHAR(16)"
    bool nullable = true;
    std::string generatedAs;  // "(a * 2) STORED"; empty for a written column
    bool generated() const { return !generatedAs.empty(); }
};

struct TableSpec {
    std::string name;
    std::vector<ColumnSpec> columns;
    std::vector<std::string> primaryKey;  // empty: no primary key
    std::vector<std::string> uniqueKey;   // one secondary UNIQUE index; empty: none
    std::string engine = "InnoDB";
    std::string collation;      // table default collation; empty: the server's
    std::string parentTable;    // the column pid references parentTable(id) ON DELETE CASCADE
    bool caseVariants = false;  // text values come in case and accent variants ('ab', 'AB', 'áb')

    const ColumnSpec* column(const std::string& name) const;
    bool isKeyColumn(const std::string& name) const;
    std::vector<const ColumnSpec*> writableColumns() const;
    std::string createSql() const;
};

// Value domains are small, so that keys collide, rows are handed over and equal rows exist.
constexpr int kKeyDomain = 24;
constexpr int kValueDomain = 50;
constexpr int kTextDomain = 12;

std::vector<TableSpec> generateSchema(FuzzRandom& random, const FeatureSet& features);

// A literal for `column` of `table`; keys come from the small key domain, NULL only where allowed.
std::string randomValue(FuzzRandom& random, const TableSpec& table, const ColumnSpec& column);

}  // namespace syncscope::differential
