#include "app/cli/option_reader.h"

namespace syncscope::cli {

OptionReader& OptionReader::value(std::string_view name, std::string& into) {
    return value(name, [&into](const std::string& text) { into = text; });
}

OptionReader& OptionReader::value(std::string_view name, Take take) {
    options_.push_back({std::string(name), std::move(take), nullptr, false});
    return *this;
}

OptionReader& OptionReader::repeated(std::string_view name, std::vector<std::string>& into) {
    return value(name, [&into](const std::string& text) { into.push_back(text); });
}

OptionReader& OptionReader::flag(std::string_view name, bool& into, bool given) {
    options_.push_back({std::string(name), nullptr, &into, given});
    return *this;
}

OptionReader& OptionReader::arguments(Take take) {
    arguments_ = std::move(take);
    return *this;
}

OptionReader& OptionReader::argument(std::string& into, std::string tooMany) {
    return arguments([&into, tooMany = std::move(tooMany)](const std::string& text) {
        if (!into.empty()) {
            throw UsageError(tooMany);
        }
        into = text;
    });
}

void OptionReader::read(std::span<char*> args) const {
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string arg = args[i];
        if (arg.empty() || arg[0] != '-') {
            if (!arguments_) {
                throw UsageError("unexpected argument '" + arg + "'");
            }
            arguments_(arg);
            continue;
        }
        const Option* option = nullptr;
        for (const Option& candidate : options_) {
            if (candidate.name == arg) {
                option = &candidate;
            }
        }
        if (option == nullptr) {
            throw UsageError("unknown option '" + arg + "'");
        }
        if (option->flag != nullptr) {
            *option->flag = option->given;
            continue;
        }
        if (i + 1 >= args.size()) {
            throw UsageError(arg + " needs a value");
        }
        option->take(args[++i]);
    }
}

int wholeNumberOption(std::string_view option, const std::string& text) {
    try {
        size_t used = 0;
        int value = std::stoi(text, &used);
        if (used == text.size() && value >= 0) {
            return value;
        }
    } catch (const std::exception&) {
        // not a number: the usage error below
    }
    throw UsageError(std::string(option) + " needs a whole number of 0 or more, not '" + text + "'");
}

}  // namespace syncscope::cli
