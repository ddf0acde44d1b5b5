#include "engine/filter/name_pattern.h"

#include "engine/filter/filter_error.h"

namespace syncscope::filter {

namespace {

// Bytes in the UTF-8 sequence that starts with `lead` (1 for ASCII and for stray continuation bytes).
size_t utf8Length(unsigned char lead) {
    if (lead >= 0xF0)
        return 4;
    if (lead >= 0xE0)
        return 3;
    if (lead >= 0xC0)
        return 2;
    return 1;
}

}  // namespace

std::string NamePattern::problemWith(std::string_view pattern) {
    try {
        NamePattern parsed{std::string(pattern)};
    } catch (const FilterError& error) {
        return error.what();
    }
    return {};
}

NamePattern::NamePattern(std::string pattern) : text_(std::move(pattern)) {
    const std::string_view p = text_;
    for (size_t i = 0; i < p.size(); ++i) {
        if (endsWithStar_) {
            throw FilterError("pattern '" + text_ + "': '*' must be the last character (DM's wildcard rule)");
        }
        const char c = p[i];
        if (c == '*') {
            endsWithStar_ = true;
            hasWildcards_ = true;
            continue;
        }
        if (c == '?') {
            elements_.emplace_back(Element::Kind::AnyOne);
            hasWildcards_ = true;
            continue;
        }
        if (c == '[') {
            const size_t close = p.find(']', i + 1);
            if (close != std::string_view::npos) {
                Element set(Element::Kind::Set);
                size_t at = i + 1;
                if (at < close && p[at] == '!') {
                    set.negated = true;
                    ++at;
                }
                while (at < close) {
                    const auto first = static_cast<unsigned char>(p[at]);
                    if (at + 2 < close && p[at + 1] == '-') {
                        const auto last = static_cast<unsigned char>(p[at + 2]);
                        if (last < first) {
                            throw FilterError("pattern '" + text_ + "': range '" + std::string(p.substr(at, 3)) +
                                              "' runs backwards");
                        }
                        set.ranges.push_back({first, last});
                        at += 3;
                    } else {
                        set.ranges.push_back({first, first});
                        ++at;
                    }
                }
                if (set.ranges.empty()) {
                    // DM reads `[!]` as the character '!' itself; `[]` has nothing to match.
                    if (!set.negated)
                        throw FilterError("pattern '" + text_ + "': empty character set '[]'");
                    set.negated = false;
                    set.ranges.push_back({'!', '!'});
                }
                elements_.push_back(std::move(set));
                hasWildcards_ = true;
                i = close;
                continue;
            }
        }
        elements_.emplace_back(Element::Kind::Literal, c);
    }
}

bool NamePattern::matchesOne(const Element& element, std::string_view name, size_t& at) const {
    if (at >= name.size())
        return false;
    const auto c = static_cast<unsigned char>(name[at]);
    switch (element.kind) {
        case Element::Kind::Literal:
            if (name[at] != element.literal)
                return false;
            ++at;
            return true;
        case Element::Kind::AnyOne:
            at += utf8Length(c);
            return at <= name.size();
        case Element::Kind::Set: {
            bool inSet = false;
            for (const CharRange& range : element.ranges) {
                if (range.first <= c && c <= range.last)
                    inSet = true;
            }
            if (inSet == element.negated)
                return false;
            at += utf8Length(c);
            return at <= name.size();
        }
    }
    return false;
}

bool NamePattern::matches(std::string_view name) const {
    size_t at = 0;
    for (const Element& element : elements_) {
        if (!matchesOne(element, name, at))
            return false;
    }
    return endsWithStar_ || at == name.size();
}

}  // namespace syncscope::filter
