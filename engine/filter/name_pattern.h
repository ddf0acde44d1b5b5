// A schema or table name pattern in DM's wildcard syntax (its "table selector"): `*` matches any
// run of characters and may only end the pattern, `?` matches exactly one character, `[a-z]` and
// `[!0-9]` match one character in (or not in) a set; every other character matches itself.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace syncscope::filter {

class NamePattern {
public:
    // Throws FilterError when the pattern is not valid (a `*` that is not last, an empty set).
    explicit NamePattern(std::string pattern);

    // True when the whole name matches. `?` and sets consume one UTF-8 character, so `t?` matches `tä`.
    bool matches(std::string_view name) const;

    const std::string& text() const { return text_; }
    bool hasWildcards() const { return hasWildcards_; }

    // The same check the constructor does, as a message ("" when valid), for config loaders.
    static std::string problemWith(std::string_view pattern);

private:
    struct CharRange {
        unsigned char first;
        unsigned char last;
    };
    struct Element {
        enum class Kind { Literal, AnyOne, Set };
        explicit Element(Kind elementKind, char character = 0) : kind(elementKind), literal(character) {}
        Kind kind;
        char literal;
        bool negated = false;
        std::vector<CharRange> ranges;
    };

    bool matchesOne(const Element& element, std::string_view name, size_t& at) const;

    std::string text_;
    std::vector<Element> elements_;
    bool endsWithStar_ = false;
    bool hasWildcards_ = false;
};

}  // namespace syncscope::filter
