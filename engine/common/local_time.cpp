#include "engine/common/local_time.h"

#include <array>
#include <cstdio>
#include <ctime>

namespace syncscope {

namespace {

constexpr int kTmBaseYear = 1900;
constexpr int kMaxMonth = 12;
constexpr int kMaxDay = 31;
constexpr int kMaxHour = 23;
constexpr int kMaxMinute = 59;
constexpr int kMaxSecond = 59;

bool readNumber(std::string_view& text, size_t digits, int& value) {
    if (text.size() < digits) {
        return false;
    }
    value = 0;
    for (size_t i = 0; i < digits; ++i) {
        if (text[i] < '0' || text[i] > '9') {
            return false;
        }
        value = value * 10 + (text[i] - '0');
    }
    text.remove_prefix(digits);
    return true;
}

bool readChar(std::string_view& text, char c) {
    if (text.empty() || text.front() != c) {
        return false;
    }
    text.remove_prefix(1);
    return true;
}

}  // namespace

std::optional<uint32_t> parseLocalTime(std::string_view text) {
    constexpr size_t kYearDigits = 4;
    constexpr size_t kFieldDigits = 2;
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (!readNumber(text, kYearDigits, year) || !readChar(text, '-') || !readNumber(text, kFieldDigits, month) ||
        !readChar(text, '-') || !readNumber(text, kFieldDigits, day)) {
        return std::nullopt;
    }
    if (!text.empty()) {
        if ((!readChar(text, ' ') && !readChar(text, 'T')) || !readNumber(text, kFieldDigits, hour) ||
            !readChar(text, ':') || !readNumber(text, kFieldDigits, minute)) {
            return std::nullopt;
        }
        if (!text.empty() && (!readChar(text, ':') || !readNumber(text, kFieldDigits, second))) {
            return std::nullopt;
        }
    }
    if (!text.empty() || month < 1 || month > kMaxMonth || day < 1 || day > kMaxDay || hour > kMaxHour ||
        minute > kMaxMinute || second > kMaxSecond) {
        return std::nullopt;
    }
    std::tm fields{};
    fields.tm_year = year - kTmBaseYear;
    fields.tm_mon = month - 1;
    fields.tm_mday = day;
    fields.tm_hour = hour;
    fields.tm_min = minute;
    fields.tm_sec = second;
    fields.tm_isdst = -1;
    std::tm asGiven = fields;
    std::time_t seconds = std::mktime(&fields);
    // mktime normalises 2026-02-31 into March: such a day does not exist.
    if (seconds < 0 || fields.tm_mday != asGiven.tm_mday || fields.tm_mon != asGiven.tm_mon) {
        return std::nullopt;
    }
    return static_cast<uint32_t>(seconds);
}

std::string formatLocalTime(uint32_t timestamp) {
    std::time_t seconds = timestamp;
    std::tm fields{};
    localtime_r(&seconds, &fields);
    constexpr size_t kTextSize = 32;
    std::array<char, kTextSize> text{};
    std::strftime(text.data(), text.size(), "%Y-%m-%d %H:%M:%S", &fields);
    return text.data();
}

std::string clockText(std::chrono::system_clock::time_point at) {
    std::time_t seconds = std::chrono::system_clock::to_time_t(at);
    std::tm local{};
    localtime_r(&seconds, &local);
    char text[32];
    std::strftime(text, sizeof text, "%H:%M:%S", &local);
    return text;
}

}  // namespace syncscope
