#include "engine/binlog/value_text.h"

#include <arpa/inet.h>

#include <charconv>
#include <cmath>
#include <cstdio>

namespace syncscope::binlog {

namespace {

constexpr int kDoubleDigits = 15;  // DBL_DIG: MariaDB switches to exponent notation beyond it
constexpr int kFloatDigits = 6;    // FLT_DIG: MariaDB prints a FLOAT with 6 significant digits
constexpr size_t kInet6Bytes = 16;
constexpr size_t kInet4Bytes = 4;
constexpr size_t kUuidBytes = 16;
constexpr char kHexDigits[] = "0123456789abcdef";

// Significant digits (no leading or trailing zeros) and the decimal point position as dtoa gives
// them: value = 0.DIGITS * 10^decpt.
struct Digits {
    char text[32];
    int length = 0;
    int decpt = 0;
    bool negative = false;
};

// Parses "d.ddde[+-]XX" as printf/to_chars write it.
Digits fromScientific(const char* s, size_t n) {
    Digits d;
    size_t i = 0;
    if (i < n && s[i] == '-') {
        d.negative = true;
        ++i;
    }
    for (; i < n && s[i] != 'e'; ++i) {
        if (s[i] >= '0' && s[i] <= '9' && d.length < static_cast<int>(sizeof(d.text))) {
            d.text[d.length++] = s[i];
        }
    }
    int exponent = 0;
    if (i < n) {  // s[i] == 'e'; the text is not NUL-terminated
        size_t k = i + 1;
        bool negativeExponent = k < n && s[k] == '-';
        if (k < n && (s[k] == '-' || s[k] == '+')) {
            ++k;
        }
        std::from_chars(s + k, s + n, exponent);
        exponent = negativeExponent ? -exponent : exponent;
    }
    d.decpt = exponent + 1;
    while (d.length > 1 && d.text[d.length - 1] == '0') {
        --d.length;
    }
    return d;
}

// my_gcvt's choice between fixed and exponent notation when the field width is not the limit.
void appendDigits(std::string& out, const Digits& d) {
    if (d.length == 1 && d.text[0] == '0') {
        out.push_back('0');
        return;
    }
    if (d.negative) {
        out.push_back('-');
    }
    const bool fixed = d.decpt >= -kDoubleDigits + 1 && (d.decpt <= kDoubleDigits || d.length > d.decpt);
    if (fixed) {
        if (d.decpt <= 0) {
            out += "0.";
            out.append(static_cast<size_t>(-d.decpt), '0');
            out.append(d.text, static_cast<size_t>(d.length));
            return;
        }
        for (int i = 0; i < d.length; ++i) {
            out.push_back(d.text[i]);
            if (i + 1 == d.decpt && i + 1 < d.length) {
                out.push_back('.');
            }
        }
        for (int i = d.length; i < d.decpt; ++i) {
            out.push_back('0');
        }
        return;
    }
    out.push_back(d.text[0]);
    if (d.length > 1) {
        out.push_back('.');
        out.append(d.text + 1, static_cast<size_t>(d.length - 1));
    }
    out.push_back('e');
    out += std::to_string(d.decpt - 1);
}

bool nonFinite(std::string& out, double value) {
    if (std::isnan(value)) {
        out += "nan";
        return true;
    }
    if (std::isinf(value)) {
        out += value < 0 ? "-inf" : "inf";
        return true;
    }
    return false;
}

}  // namespace

void appendDoubleText(std::string& out, double value) {
    if (nonFinite(out, value)) {
        return;
    }
    char buf[64];
    auto result = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::scientific);
    appendDigits(out, fromScientific(buf, static_cast<size_t>(result.ptr - buf)));
}

void appendFloatText(std::string& out, float value) {
    if (nonFinite(out, value)) {
        return;
    }
    char buf[64];
    int n = std::snprintf(buf, sizeof(buf), "%.*e", kFloatDigits - 1, static_cast<double>(value));
    appendDigits(out, fromScientific(buf, n > 0 ? static_cast<size_t>(n) : 0));
}

void appendHex(std::string& out, std::string_view bytes) {
    for (char c : bytes) {
        auto b = static_cast<unsigned char>(c);
        out.push_back(kHexDigits[b >> 4]);
        out.push_back(kHexDigits[b & 0x0F]);
    }
}

void appendInet6Text(std::string& out, std::string_view stored) {
    char buf[INET6_ADDRSTRLEN];
    if (stored.size() != kInet6Bytes || inet_ntop(AF_INET6, stored.data(), buf, sizeof(buf)) == nullptr) {
        appendHex(out, stored);
        return;
    }
    out += buf;
}

void appendInet4Text(std::string& out, std::string_view stored) {
    if (stored.size() != kInet4Bytes) {
        appendHex(out, stored);
        return;
    }
    for (size_t i = 0; i < kInet4Bytes; ++i) {
        if (i > 0) {
            out.push_back('.');
        }
        out += std::to_string(static_cast<unsigned char>(stored[i]));
    }
}

void appendUuidText(std::string& out, std::string_view stored) {
    if (stored.size() != kUuidBytes) {
        appendHex(out, stored);
        return;
    }
    // MariaDB keeps RFC 4122 v1-v5 UUIDs with their segments reversed in the record so that
    // time-based UUIDs sort by time; other UUIDs are stored as written.
    struct Segment {
        size_t memoryPos, recordPos, length;
    };
    static constexpr Segment kSegments[] = {{0, 12, 4}, {4, 10, 2}, {6, 8, 2}, {8, 6, 2}, {10, 0, 6}};
    auto s6 = static_cast<int8_t>(stored[6]);
    auto s8 = static_cast<int8_t>(stored[8]);
    const bool swapped = (s6 & -static_cast<int>(s8) & 0x80) != 0;
    char memory[kUuidBytes];
    if (swapped) {
        for (const Segment& seg : kSegments) {
            for (size_t i = 0; i < seg.length; ++i) {
                memory[seg.memoryPos + i] = stored[seg.recordPos + i];
            }
        }
    } else {
        for (size_t i = 0; i < kUuidBytes; ++i) {
            memory[i] = stored[i];
        }
    }
    for (size_t i = 0; i < kUuidBytes; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) {
            out.push_back('-');
        }
        appendHex(out, std::string_view(memory + i, 1));
    }
}

bool isValidUtf8(std::string_view bytes) {
    size_t i = 0;
    const size_t n = bytes.size();
    while (i < n) {
        auto c = static_cast<unsigned char>(bytes[i]);
        if (c < 0x80) {
            ++i;
            continue;
        }
        size_t extra = 0;
        uint32_t cp = 0;
        if ((c & 0xE0) == 0xC0) {
            extra = 1;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            extra = 2;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            extra = 3;
            cp = c & 0x07;
        } else {
            return false;
        }
        if (i + extra >= n) {
            return false;
        }
        for (size_t k = 1; k <= extra; ++k) {
            auto cc = static_cast<unsigned char>(bytes[i + k]);
            if ((cc & 0xC0) != 0x80) {
                return false;
            }
            cp = (cp << 6) | (cc & 0x3F);
        }
        // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
        if ((extra == 1 && cp < 0x80) || (extra == 2 && cp < 0x800) || (extra == 3 && cp < 0x10000) || cp > 0x10FFFF ||
            (cp >= 0xD800 && cp <= 0xDFFF)) {
            return false;
        }
        i += extra + 1;
    }
    return true;
}

void appendJsonString(std::string& out, std::string_view utf8) {
    out.push_back('"');
    for (char ch : utf8) {
        auto c = static_cast<unsigned char>(ch);
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            case '\b':
                out += "\\b";
                break;
            case '\f':
                out += "\\f";
                break;
            default:
                if (c < 0x20) {
                    out += "\\u00";
                    out.push_back(kHexDigits[c >> 4]);
                    out.push_back(kHexDigits[c & 0x0F]);
                } else {
                    out.push_back(ch);
                }
        }
    }
    out.push_back('"');
}

}  // namespace syncscope::binlog
