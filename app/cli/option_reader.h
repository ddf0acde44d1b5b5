// The command line of one syncscope-cli subcommand, read the same way by every command: `--name VALUE`
// options (once, or repeated), flags and plain arguments, with the same usage errors ("--x needs a value",
// "unknown option '--y'"). A command declares what it takes, then read() walks the arguments once.
#pragma once

#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace syncscope::cli {

// A bad command line: the command prints it with its usage and exits kExitUsage.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class OptionReader {
public:
    using Take = std::function<void(const std::string& value)>;

    // --name VALUE, the last one given wins.
    OptionReader& value(std::string_view name, std::string& into);
    // --name VALUE, handed to `take` (which throws UsageError for a value it cannot use).
    OptionReader& value(std::string_view name, Take take);
    // --name VALUE, as often as given, in order.
    OptionReader& repeated(std::string_view name, std::vector<std::string>& into);
    // --name alone sets `into` to `given`.
    OptionReader& flag(std::string_view name, bool& into, bool given = true);
    // Arguments that are not options, in order; `take` throws UsageError for one too many.
    OptionReader& arguments(Take take);
    // One plain argument (the task file, a target); a second is refused with `tooMany`.
    OptionReader& argument(std::string& into, std::string tooMany);

    // Throws UsageError for an unknown option, an option without its value or an unexpected argument.
    void read(std::span<char*> args) const;

private:
    struct Option {
        std::string name;
        Take take;   // options with a value
        bool* flag;  // flags
        bool given;
    };
    std::vector<Option> options_;
    Take arguments_;
};

// A whole number of 0 or more, for `option`; UsageError naming it otherwise.
int wholeNumberOption(std::string_view option, const std::string& text);

}  // namespace syncscope::cli
