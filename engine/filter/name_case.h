// Case folding of schema and table names for rules that are not case-sensitive (DM's default):
// rules and names are both lower-cased before they are compared.
#pragma once

#include <string>
#include <string_view>

namespace syncscope::filter {

// ASCII lower-casing: MySQL folds identifier case per character set, but for the ASCII names
// that rules almost always use this is the same, and it never changes the bytes of non-ASCII names.
inline std::string foldNameCase(std::string_view name, bool caseSensitive) {
    std::string folded(name);
    if (!caseSensitive) {
        for (char& c : folded) {
            if (c >= 'A' && c <= 'Z')
                c = static_cast<char>(c - 'A' + 'a');
        }
    }
    return folded;
}

}  // namespace syncscope::filter
