#include "engine/apply/quoted_name.h"

#include <algorithm>
#include <cctype>

namespace syncscope::apply {

void appendQuotedName(std::string& out, std::string_view name) {
    out += '`';
    for (char c : name) {
        if (c == '`') {
            out += '`';
        }
        out += c;
    }
    out += '`';
}

std::string quoteName(std::string_view name) {
    std::string out;
    out.reserve(name.size() + 2);
    appendQuotedName(out, name);
    return out;
}

std::string quoteTable(const schema::TableName& table) {
    std::string out;
    appendQuotedName(out, table.schema);
    out += '.';
    appendQuotedName(out, table.table);
    return out;
}

bool isPlainSqlName(std::string_view name) {
    return !name.empty() &&
           std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isalnum(c) != 0 || c == '_'; });
}

}  // namespace syncscope::apply
