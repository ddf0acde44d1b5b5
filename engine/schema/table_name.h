// A table's name as the DBA writes it: database (schema) and table. Used as a map key by the schema
// tracker and the apply layer, both for upstream tables and for routed downstream targets.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace syncscope::schema {

struct TableName {
    std::string schema;
    std::string table;

    // "schema.table" for messages; unquoted, because messages are read by people, not servers.
    std::string text() const { return schema + "." + table; }
    bool operator==(const TableName&) const = default;
    auto operator<=>(const TableName&) const = default;
};

struct TableNameHash {
    size_t operator()(const TableName& name) const noexcept {
        size_t h = std::hash<std::string>{}(name.schema);
        // A separator that cannot occur in both halves the same way keeps ("a.b","c") apart from ("a","b.c").
        constexpr size_t kMix = 0x9e3779b97f4a7c15ULL;
        return h ^ (std::hash<std::string>{}(name.table) + kMix + (h << 6) + (h >> 2));
    }
};

}  // namespace syncscope::schema
