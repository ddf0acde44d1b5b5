// Small parsing pieces shared by the position, GTID and GTID-set parsers (not part of the public API).
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace syncscope::binlog::text {

inline std::string_view trim(std::string_view text) {
    constexpr std::string_view kSpace = " \t\r\n";
    size_t first = text.find_first_not_of(kSpace);
    if (first == std::string_view::npos) {
        return {};
    }
    size_t last = text.find_last_not_of(kSpace);
    return text.substr(first, last - first + 1);
}

// A whole decimal number without sign or spaces; nullopt on anything else or overflow.
template <typename T>
std::optional<T> parseNumber(std::string_view text) {
    if (text.empty()) {
        return std::nullopt;
    }
    T value{};
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

inline std::string quoted(std::string_view text) {
    return "'" + std::string(text) + "'";
}

}  // namespace syncscope::binlog::text
