// Identifiers in SQL text: every name is quoted with backticks (a backtick inside doubled), so any
// table or column name works: quotes, spaces, reserved words, unicode.
#pragma once

#include <string>
#include <string_view>

#include "engine/schema/table_name.h"

namespace syncscope::apply {

// `name`, with ` doubled.
std::string quoteName(std::string_view name);
void appendQuotedName(std::string& out, std::string_view name);
// `schema`.`table`
std::string quoteTable(const schema::TableName& table);

// A name that may be spliced into SQL without quotes (a session variable, a charset, a collation):
// letters, digits and _ only, and not empty.
bool isPlainSqlName(std::string_view name);

}  // namespace syncscope::apply
