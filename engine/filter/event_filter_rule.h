// One binlog event filter rule as the task file names it (DM's `filters` entry).
#pragma once

#include <string>
#include <vector>

#include "engine/filter/filter_action.h"

namespace syncscope::filter {

struct EventFilterRule {
    std::string name;                      // the rule's key under `filters`
    std::string schemaPattern;             // wildcards * ? [..]
    std::string tablePattern;              // empty: a schema-level rule, matching every table of the schema
    std::vector<std::string> events;       // DM event names, canonical (see canonicalEventName)
    std::vector<std::string> sqlPatterns;  // regexes matched against a QUERY event's SQL
    FilterAction action = FilterAction::Ignore;

    bool operator==(const EventFilterRule&) const = default;
};

}  // namespace syncscope::filter
