#include "engine/browse/start_point.h"

#include <charconv>

#include "engine/binlog/location.h"
#include "engine/browse/browse_time.h"

namespace syncscope::browse {

namespace {

std::optional<uint64_t> number(std::string_view text) {
    uint64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

// A MySQL GTID set starts with a server UUID (36 characters, 8-4-4-4-12).
bool startsWithUuid(std::string_view text) {
    constexpr size_t kUuidLength = 36;
    return text.size() >= kUuidLength && text[8] == '-' && text[13] == '-' && text[18] == '-' && text[23] == '-';
}

// "YYYY-MM-DD..." : meant as a time, even when it is not a real one.
bool looksLikeDate(std::string_view text) {
    constexpr size_t kDateLength = 10;
    if (text.size() < kDateLength) {
        return false;
    }
    for (size_t i = 0; i < kDateLength; ++i) {
        bool dash = i == 4 || i == 7;
        if (dash ? text[i] != '-' : (text[i] < '0' || text[i] > '9')) {
            return false;
        }
    }
    return true;
}

}  // namespace

StartPoint parseStartPoint(const std::string& text) {
    StartPoint point;
    point.text = text;
    if (text.empty()) {
        return point;
    }
    if (auto time = parseLocalTime(text)) {
        point.kind = StartPoint::Kind::Time;
        point.time = *time;
        return point;
    }
    if (looksLikeDate(text)) {
        throw BrowseError("'" + text + "' is not a real time: give 'YYYY-MM-DD HH:MM:SS' (local time)");
    }
    if (auto offset = number(text)) {
        point.kind = StartPoint::Kind::Position;
        point.position.offset = *offset;
        return point;
    }
    size_t colon = text.rfind(':');
    bool hasSpace = text.find_first_of(" \t") != std::string::npos;
    if (colon != std::string::npos && colon > 0 && !startsWithUuid(text) && !hasSpace) {
        if (auto offset = number(std::string_view(text).substr(colon + 1))) {
            point.kind = StartPoint::Kind::Position;
            point.position = {text.substr(0, colon), *offset};
            return point;
        }
    }
    try {
        auto flavor = binlog::detectGtidFlavor(text);
        if (flavor == binlog::GtidFlavor::MariaDB) {
            binlog::GtidPosition::parse(text);
        } else if (flavor == binlog::GtidFlavor::MySQL) {
            binlog::GtidSet::parse(text);
        }
        if (flavor != binlog::GtidFlavor::None) {
            point.kind = StartPoint::Kind::Gtid;
            point.gtid = text;
            return point;
        }
    } catch (const binlog::PositionError&) {
        // falls through to the message naming every accepted form
    }
    throw BrowseError("'" + text +
                      "' is not a start point: give FILE:POS, POS, a GTID position (0-1-5 or uuid:1-5) or a "
                      "time 'YYYY-MM-DD HH:MM:SS'");
}

}  // namespace syncscope::browse
