// DM's binlog event filter: given an event's table, its DM event name and (for a QUERY event) its SQL,
// decides Do, Ignore or Error, with DM's precedence:
//   - the rules whose schema-pattern and table-pattern match the table are taken, schema-level rules
//     (no table-pattern) first, then table-level rules, each in the order the instance lists them;
//   - for each rule in turn: if it lists the event, Ignore or Error decides at once; if it does not list
//     it, a Do rule decides Ignore (a Do rule is an allow list). Then, for SQL text and a rule with
//     sql-pattern: a matching pattern lets Ignore or Error decide; no match lets a Do rule decide Ignore;
//   - when no rule decided, the event is replicated (Do).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/filter/dm_regex.h"
#include "engine/filter/event_filter_rule.h"
#include "engine/filter/filter_action.h"
#include "engine/filter/name_pattern.h"
#include "engine/filter/table_name.h"

namespace syncscope::filter {

class EventFilter {
public:
    struct Decision {
        FilterAction action = FilterAction::Do;
        std::string ruleName;  // the rule that decided; empty when none did
    };

    // No rules: every event is replicated.
    EventFilter() = default;
    // Throws FilterError naming the rule when a pattern, regex or event name is not valid, or when two
    // rules have the same schema-pattern and table-pattern (DM keeps only the first one, silently).
    EventFilter(const std::vector<EventFilterRule>& rules, bool caseSensitive);

    // eventName: a canonical DM event name ("insert", "alter table"...), or "" when only the SQL is
    // known (then only sql-pattern rules can decide). Throws FilterError for an unknown event name.
    Decision decide(const TableName& table, std::string_view eventName, std::string_view sql = {}) const;

    bool empty() const { return rules_.empty(); }

private:
    struct CompiledRule {
        EventFilterRule rule;
        NamePattern schema;
        NamePattern table;
        std::vector<DmRegex> sqlPatterns;
    };

    static bool listsEvent(const EventFilterRule& rule, std::string_view eventName, bool isDdl, bool isDml,
                           bool isIncompatible);

    bool caseSensitive_ = false;
    std::vector<CompiledRule> rules_;  // schema-level rules first, then table-level rules
};

}  // namespace syncscope::filter
