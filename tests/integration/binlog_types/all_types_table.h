// A table with a column of every type MariaDB 10.11 can log, and rows that reach each type's edges:
// NULLs, zeros, minimums, maximums, negatives, every fractional precision, multibyte text, compressed
// columns. Used to check decoded binlog values against what SELECT returns.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace syncscope::test {

struct TypedColumn {
    std::string name;
    std::string sqlType;
    std::string selectExpression;  // how SELECT shows it as the decoder renders it (BIT as a number)
};

// A row as column name and SQL literal; columns left out are NULL.
using LiteralRow = std::vector<std::pair<std::string, std::string>>;

const std::vector<TypedColumn>& allTypesColumns();  // the first is the primary key `id`
std::string allTypesCreateTable(const std::string& qualifiedName);
std::vector<LiteralRow> allTypesRows();  // without `id`; the test numbers them

}  // namespace syncscope::test
