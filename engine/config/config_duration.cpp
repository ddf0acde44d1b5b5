#include "engine/config/config_duration.h"

#include <array>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace syncscope::config {

namespace {

using Units = std::array<std::pair<std::string_view, double>, 7>;

// Longest spellings first, so that "ms" is not read as "m" followed by junk.
constexpr Units kUnits = {
    {{"ns", 1.0}, {"us", 1e3}, {"\xC2\xB5s", 1e3}, {"ms", 1e6}, {"s", 1e9}, {"m", 60e9}, {"h", 3600e9}}};

}  // namespace

std::chrono::nanoseconds parseGoDuration(std::string_view text) {
    const std::string original(text);
    if (text.empty())
        throw std::invalid_argument("an empty duration; write it like \"60s\"");
    bool negative = false;
    if (text.front() == '-' || text.front() == '+') {
        negative = text.front() == '-';
        text.remove_prefix(1);
    }
    if (text == "0")
        return std::chrono::nanoseconds(0);
    if (text.empty())
        throw std::invalid_argument("'" + original + "' is not a duration; write it like \"60s\"");
    double total = 0;
    while (!text.empty()) {
        size_t digits = 0;
        bool sawDigit = false;
        while (digits < text.size() && ((text[digits] >= '0' && text[digits] <= '9') || text[digits] == '.')) {
            sawDigit = sawDigit || text[digits] != '.';
            ++digits;
        }
        if (!sawDigit) {
            throw std::invalid_argument("'" + original + "' is not a duration: a number must come before each unit");
        }
        double number = 0;
        try {
            number = std::stod(std::string(text.substr(0, digits)));
        } catch (const std::exception&) {
            throw std::invalid_argument("'" + original + "' is not a duration: bad number");
        }
        text.remove_prefix(digits);
        bool matched = false;
        for (const auto& [unit, nanos] : kUnits) {
            if (text.substr(0, unit.size()) == unit) {
                const bool longerUnitFollows = unit == "m" && text.size() > 1 && text[1] == 's';
                if (longerUnitFollows)
                    continue;
                total += number * nanos;
                text.remove_prefix(unit.size());
                matched = true;
                break;
            }
        }
        if (!matched) {
            throw std::invalid_argument("'" + original + "' is not a duration: a unit (ns, us, ms, s, m, h) " +
                                        "must follow each number, as in \"60s\"");
        }
    }
    const double limit = static_cast<double>(std::chrono::nanoseconds::max().count());
    if (total > limit)
        throw std::invalid_argument("'" + original + "' is too long a duration");
    const auto nanos = static_cast<std::chrono::nanoseconds::rep>(std::llround(total));
    return std::chrono::nanoseconds(negative ? -nanos : nanos);
}

std::string formatGoDuration(std::chrono::nanoseconds duration) {
    using namespace std::chrono;
    if (duration.count() % duration_cast<nanoseconds>(seconds(1)).count() == 0) {
        return std::to_string(duration_cast<seconds>(duration).count()) + "s";
    }
    if (duration.count() % duration_cast<nanoseconds>(milliseconds(1)).count() == 0) {
        return std::to_string(duration_cast<milliseconds>(duration).count()) + "ms";
    }
    return std::to_string(duration.count()) + "ns";
}

}  // namespace syncscope::config
