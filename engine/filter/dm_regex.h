// A regular expression as DM writes them (Go's regexp syntax, which RE2 implements): the `~` entries
// of a block-allow list and the sql-pattern of an event filter. RE2 runs in linear time without
// recursion, so a pattern like `.*` over a megabyte of CREATE TABLE text cannot blow the stack.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace syncscope::filter {

class DmRegex {
public:
    // Throws FilterError with RE2's explanation when the pattern does not compile.
    DmRegex(const std::string& pattern, bool caseSensitive);

    // True when the pattern matches anywhere in the text (Go's MatchString; anchor with ^ and $).
    bool search(std::string_view text) const;
    // The first capturing group of a match anywhere in the text; nullopt when it does not match.
    std::optional<std::string> firstGroup(std::string_view text) const;
    // How many capturing groups the pattern has.
    int groupCount() const;

    const std::string& pattern() const { return pattern_; }

    // The compile error for a pattern ("" when it compiles), for config loaders.
    static std::string problemWith(const std::string& pattern);

private:
    std::string pattern_;
    std::shared_ptr<const re2::RE2> compiled_;
};

}  // namespace syncscope::filter
