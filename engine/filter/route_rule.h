// One table route as the task file names it (DM's `routes` entry).
#pragma once

#include <string>

namespace syncscope::filter {

struct RouteRule {
    std::string name;           // the rule's key under `routes`
    std::string schemaPattern;  // wildcards * ? [..]
    std::string tablePattern;   // empty: a schema-level route (also routes CREATE/DROP DATABASE)
    std::string targetSchema;   // empty: keep the upstream schema name
    std::string targetTable;    // empty: keep the upstream table name

    bool operator==(const RouteRule&) const = default;
};

}  // namespace syncscope::filter
