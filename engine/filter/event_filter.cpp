#include "engine/filter/event_filter.h"

#include <algorithm>

#include "engine/filter/event_type.h"
#include "engine/filter/filter_error.h"
#include "engine/filter/name_case.h"

namespace syncscope::filter {

EventFilter::EventFilter(const std::vector<EventFilterRule>& rules, bool caseSensitive)
    : caseSensitive_(caseSensitive) {
    std::vector<CompiledRule> schemaLevel;
    std::vector<CompiledRule> tableLevel;
    for (const auto& rule : rules) {
        const std::string where = "filter rule '" + rule.name + "': ";
        if (rule.schemaPattern.empty())
            throw FilterError(where + "schema-pattern is empty");
        for (const auto& event : rule.events) {
            if (!canonicalEventName(event))
                throw FilterError(where + "unknown event '" + event + "'");
        }
        for (const auto& other : rules) {
            if (&other == &rule)
                break;
            if (foldNameCase(other.schemaPattern, caseSensitive) == foldNameCase(rule.schemaPattern, caseSensitive) &&
                foldNameCase(other.tablePattern, caseSensitive) == foldNameCase(rule.tablePattern, caseSensitive)) {
                throw FilterError(where + "same schema-pattern and table-pattern as rule '" + other.name +
                                  "'; DM would silently keep only the first of them: merge the two");
            }
        }
        try {
            CompiledRule compiled{rule,
                                  NamePattern(foldNameCase(rule.schemaPattern, caseSensitive)),
                                  NamePattern(foldNameCase(rule.tablePattern, caseSensitive)),
                                  {}};
            for (auto& event : compiled.rule.events)
                event = *canonicalEventName(event);
            if (!rule.sqlPatterns.empty()) {
                // DM joins the patterns into one case-insensitive alternation.
                std::string joined;
                for (const auto& pattern : rule.sqlPatterns) {
                    if (!joined.empty())
                        joined += '|';
                    joined += pattern;
                }
                compiled.sqlPatterns.emplace_back(joined, false);
            }
            (rule.tablePattern.empty() ? schemaLevel : tableLevel).push_back(std::move(compiled));
        } catch (const FilterError& error) {
            throw FilterError(where + error.what());
        }
    }
    rules_ = std::move(schemaLevel);
    for (auto& rule : tableLevel)
        rules_.push_back(std::move(rule));
}

bool EventFilter::listsEvent(const EventFilterRule& rule, std::string_view eventName, bool isDdl, bool isDml,
                             bool isIncompatible) {
    // DM's matchEvent: the first entry that speaks about the event decides.
    for (const auto& listed : rule.events) {
        if (listed == "all")
            return true;
        if (listed == "none")
            return false;
        if (isDdl) {
            if (listed == "all ddl")
                return true;
            if (listed == "none ddl")
                return false;
        }
        if (isDml) {
            if (listed == "all dml")
                return true;
            if (listed == "none dml")
                return false;
        }
        if (isIncompatible && listed == "incompatible ddl changes")
            return true;
        if (listed == eventName)
            return true;
    }
    return false;
}

EventFilter::Decision EventFilter::decide(const TableName& table, std::string_view eventName,
                                          std::string_view sql) const {
    bool isDdl = false, isDml = false, isIncompatible = false;
    std::string canonical;
    if (!eventName.empty()) {
        auto name = canonicalEventName(eventName);
        auto eventClass = name ? eventClassOf(*name) : std::nullopt;
        if (!eventClass || *eventClass == EventClass::Group) {
            throw FilterError("event filter: '" + std::string(eventName) + "' is not the name of one event kind");
        }
        canonical = *name;
        isDml = *eventClass == EventClass::Dml;
        isIncompatible = *eventClass == EventClass::IncompatibleDdl;
        isDdl = *eventClass == EventClass::Ddl || isIncompatible;
    }
    const std::string schema = foldNameCase(table.schema, caseSensitive_);
    const std::string name = foldNameCase(table.table, caseSensitive_);

    for (const auto& compiled : rules_) {
        if (!compiled.schema.matches(schema))
            continue;
        if (!compiled.rule.tablePattern.empty() && !compiled.table.matches(name))
            continue;
        const FilterAction action = compiled.rule.action;
        if (!canonical.empty()) {
            if (listsEvent(compiled.rule, canonical, isDdl, isDml, isIncompatible)) {
                if (action != FilterAction::Do)
                    return {action, compiled.rule.name};
            } else if (action == FilterAction::Do) {
                return {FilterAction::Ignore, compiled.rule.name};
            }
        }
        if (!sql.empty() && !compiled.sqlPatterns.empty()) {
            if (compiled.sqlPatterns.front().search(sql)) {
                if (action != FilterAction::Do)
                    return {action, compiled.rule.name};
            } else if (action == FilterAction::Do) {
                return {FilterAction::Ignore, compiled.rule.name};
            }
        }
    }
    return {FilterAction::Do, {}};
}

}  // namespace syncscope::filter
