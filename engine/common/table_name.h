// A table's name as the DBA writes it: database (schema) and table. One type for every part: the schema
// tracker and the apply layer (upstream tables and routed downstream targets), the filters (where an empty
// table name stands for the schema itself, as in DM) and the checkpoint's table points.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace syncscope {

struct TableName {
    std::string schema;
    std::string table;

    // "schema.table" for messages; unquoted, because messages are read by people, not servers.
    std::string text() const { return table.empty() ? schema : schema + "." + table; }
    bool isSchemaOnly() const { return table.empty(); }
    bool operator==(const TableName&) const = default;
    auto operator<=>(const TableName&) const = default;

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
            if (c == '`') {
                text += '`';
            }
        }
        text += '`';
        return text;
    }
};

struct TableNameHash {
    size_t operator()(const TableName& name) const noexcept {
        size_t h = std::hash<std::string>{}(name.schema);
        // A separator that cannot occur in both halves the same way keeps ("a.b","c") apart from ("a","b.c").
        constexpr size_t kMix = 0x9e3779b97f4a7c15ULL;
        return h ^ (std::hash<std::string>{}(name.table) + kMix + (h << 6) + (h >> 2));
    }
};

}  // namespace syncscope
