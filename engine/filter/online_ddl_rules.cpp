#include "engine/filter/online_ddl_rules.h"

#include "engine/filter/filter_error.h"

namespace syncscope::filter {

namespace {

std::vector<DmRegex> compileAll(const std::vector<std::string>& rules, const char* fallback) {
    std::vector<DmRegex> compiled;
    if (rules.empty()) {
        compiled.emplace_back(fallback, true);
        return compiled;
    }
    for (const std::string& rule : rules) {
        std::string anchoredRule = OnlineDdlRules::anchored(rule);
        if (std::string problem = OnlineDdlRules::problemWith(anchoredRule); !problem.empty()) {
            throw FilterError(problem);
        }
        compiled.emplace_back(anchoredRule, true);
    }
    return compiled;
}

bool endsWith(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::vector<std::string> patternsOf(const std::vector<DmRegex>& rules) {
    std::vector<std::string> patterns;
    for (const DmRegex& rule : rules) {
        patterns.push_back(rule.pattern());
    }
    return patterns;
}

}  // namespace

OnlineDdlRules::OnlineDdlRules() : OnlineDdlRules({}, {}) {}

OnlineDdlRules::OnlineDdlRules(const std::vector<std::string>& shadowRules, const std::vector<std::string>& trashRules)
    : shadow_(compileAll(shadowRules, kDefaultShadowRule)), trash_(compileAll(trashRules, kDefaultTrashRule)) {}

OnlineDdlRole OnlineDdlRules::roleOf(std::string_view table) const {
    for (const DmRegex& rule : shadow_) {
        if (rule.search(table)) {
            return OnlineDdlRole::Shadow;
        }
    }
    for (const DmRegex& rule : trash_) {
        if (rule.search(table)) {
            return OnlineDdlRole::Trash;
        }
    }
    return OnlineDdlRole::Real;
}

std::string OnlineDdlRules::realNameOf(std::string_view table) const {
    for (const auto* rules : {&shadow_, &trash_}) {
        for (const DmRegex& rule : *rules) {
            if (std::optional<std::string> real = rule.firstGroup(table); real && !real->empty()) {
                return *real;
            }
        }
    }
    return std::string(table);
}

std::string OnlineDdlRules::toolOf(std::string_view table) {
    if (endsWith(table, "_new") || endsWith(table, "_old")) {
        return "pt-online-schema-change";
    }
    if (endsWith(table, "_gho") || endsWith(table, "_ghc") || endsWith(table, "_del")) {
        return "gh-ost";
    }
    return "a custom tool";
}

std::string OnlineDdlRules::anchored(const std::string& rule) {
    std::string result = rule;
    if (result.empty() || result.front() != '^') {
        result.insert(result.begin(), '^');
    }
    if (result.back() != '$') {
        result.push_back('$');
    }
    return result;
}

std::string OnlineDdlRules::problemWith(const std::string& rule) {
    if (std::string problem = DmRegex::problemWith(rule); !problem.empty()) {
        return problem;
    }
    int groups = DmRegex(rule, true).groupCount();
    if (groups != 1) {
        return "regular expression '" + rule + "' has " + std::to_string(groups) +
               " capturing groups; it needs exactly one, the real table's name (use (?:...) for the others)";
    }
    return {};
}

std::vector<std::string> OnlineDdlRules::shadowRules() const {
    return patternsOf(shadow_);
}

std::vector<std::string> OnlineDdlRules::trashRules() const {
    return patternsOf(trash_);
}

}  // namespace syncscope::filter
