// What an event filter rule does with the events it matches: DM's Do, Ignore and Error.
#pragma once

#include <optional>
#include <string_view>

namespace syncscope::filter {

enum class FilterAction {
    Do,      // replicate (a Do rule also ignores the events of its tables that it does not list)
    Ignore,  // skip the event
    Error,   // stop the task with an error naming the event
};

inline std::string_view actionName(FilterAction action) {
    switch (action) {
        case FilterAction::Do:
            return "Do";
        case FilterAction::Ignore:
            return "Ignore";
        case FilterAction::Error:
            return "Error";
    }
    return "Do";
}

// DM spells them Do, Ignore, Error; any letter case is accepted here.
inline std::optional<FilterAction> parseFilterAction(std::string_view text) {
    auto equalsFolded = [&](std::string_view word) {
        if (text.size() != word.size())
            return false;
        for (size_t i = 0; i < text.size(); ++i) {
            char a = text[i], b = word[i];
            if (a >= 'A' && a <= 'Z')
                a = static_cast<char>(a - 'A' + 'a');
            if (b >= 'A' && b <= 'Z')
                b = static_cast<char>(b - 'A' + 'a');
            if (a != b)
                return false;
        }
        return true;
    };
    for (auto action : {FilterAction::Do, FilterAction::Ignore, FilterAction::Error}) {
        if (equalsFolded(actionName(action)))
            return action;
    }
    return std::nullopt;
}

}  // namespace syncscope::filter
