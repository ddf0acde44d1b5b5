// One name in a block-allow list: `~` followed by a regular expression (matched anywhere in the
// name, as DM does: anchor it with ^ and $), or else a wildcard pattern (see NamePattern).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine/filter/dm_regex.h"
#include "engine/filter/name_pattern.h"

namespace syncscope::filter {

class NameMatcher {
public:
    static constexpr char kRegexPrefix = '~';

    // Throws FilterError when the regex or wildcard is not valid. With caseSensitive false the name
    // given to matches() must already be folded (foldNameCase); wildcards are folded here.
    NameMatcher(const std::string& entry, bool caseSensitive);

    bool matches(std::string_view name) const;

    // What is wrong with an entry ("" when it is fine), for config loaders.
    static std::string problemWith(const std::string& entry);

private:
    std::optional<DmRegex> regex_;
    std::optional<NamePattern> wildcard_;
};

}  // namespace syncscope::filter
