#include "engine/filter/name_matcher.h"

#include "engine/filter/filter_error.h"
#include "engine/filter/name_case.h"

namespace syncscope::filter {

NameMatcher::NameMatcher(const std::string& entry, bool caseSensitive) {
    if (entry.empty())
        throw FilterError("an empty name matches nothing");
    if (entry.front() == kRegexPrefix) {
        regex_.emplace(entry.substr(1), caseSensitive);
    } else {
        wildcard_.emplace(foldNameCase(entry, caseSensitive));
    }
}

bool NameMatcher::matches(std::string_view name) const {
    return regex_ ? regex_->search(name) : wildcard_->matches(name);
}

std::string NameMatcher::problemWith(const std::string& entry) {
    try {
        NameMatcher matcher(entry, true);
    } catch (const FilterError& error) {
        return error.what();
    }
    return {};
}

}  // namespace syncscope::filter
