// A table as the filters see it: schema and table name. An empty table name stands for the schema
// itself (CREATE DATABASE and the like), as in DM.
#pragma once

#include <string>

namespace syncscope::filter {

struct TableName {
    std::string schema;
    std::string table;

    bool isSchemaOnly() const { return table.empty(); }
    bool operator==(const TableName&) const = default;

    // `schema`.`table` (or `schema`), backticks inside names doubled: safe to paste into SQL.
    std::string quoted() const {
        std::string text = quote(schema);
        if (!table.empty()) {
            text += '.';
            text += quote(table);
        }
        return text;
    }

    static std::string quote(const std::string& name) {
        std::string text = "`";
        for (char c : name) {
            text += c;
            if (c == '`')
                text += '`';
        }
        text += '`';
        return text;
    }
};

}  // namespace syncscope::filter
