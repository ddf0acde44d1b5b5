#include "engine/binlog/mysql_gtid_set.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "engine/binlog/binlog_position.h"
#include "engine/binlog/position_text.h"

namespace syncscope::binlog {

namespace {

constexpr size_t kUuidHexDigits = 32;
constexpr size_t kDashPositions[] = {8, 13, 18, 23};  // in the 36-character form
constexpr size_t kUuidTextLength = 36;

// The lower-case 8-4-4-4-12 form of a UUID given with or without dashes; nullopt when it is not one.
std::optional<std::string> normaliseUuid(std::string_view uuid) {
    std::string hex;
    if (uuid.size() == kUuidTextLength) {
        for (size_t i = 0; i < uuid.size(); ++i) {
            bool dashExpected =
                std::find(std::begin(kDashPositions), std::end(kDashPositions), i) != std::end(kDashPositions);
            if (dashExpected != (uuid[i] == '-')) {
                return std::nullopt;
            }
            if (!dashExpected) {
                hex += uuid[i];
            }
        }
    } else if (uuid.size() == kUuidHexDigits) {
        hex = uuid;
    } else {
        return std::nullopt;
    }
    std::string out;
    for (size_t i = 0; i < hex.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(hex[i]);
        if (std::isxdigit(c) == 0) {
            return std::nullopt;
        }
        out += static_cast<char>(std::tolower(c));
        if (std::find(std::begin(kDashPositions), std::end(kDashPositions), out.size()) != std::end(kDashPositions)) {
            out += '-';
        }
    }
    return out;
}

std::string requireUuid(std::string_view uuid) {
    auto normal = normaliseUuid(uuid);
    if (!normal) {
        throw PositionError("MySQL GTID: server UUID " + text::quoted(uuid) +
                            " is not a UUID (expected e.g. '3e11fa47-71ca-11e1-9e33-c80aa9429562')");
    }
    return *normal;
}

void checkInterval(std::string_view uuid, GtidRange interval) {
    if (interval.first == 0) {
        throw PositionError("MySQL GTID: transaction numbers of " + std::string(uuid) + " start at 1, not 0");
    }
    if (interval.last < interval.first) {
        throw PositionError("MySQL GTID: interval " + std::to_string(interval.first) + "-" +
                            std::to_string(interval.last) + " of " + std::string(uuid) + " ends before it starts");
    }
}

// Inserts and merges so that intervals stay sorted, disjoint and not touching.
void insertInterval(std::vector<GtidRange>& intervals, GtidRange added) {
    std::vector<GtidRange> merged;
    merged.reserve(intervals.size() + 1);
    bool placed = false;
    for (const GtidRange& current : intervals) {
        if (current.last != UINT64_MAX && current.last + 1 < added.first) {
            merged.push_back(current);
        } else if (added.last != UINT64_MAX && added.last + 1 < current.first) {
            if (!placed) {
                merged.push_back(added);
                placed = true;
            }
            merged.push_back(current);
        } else {
            added.first = std::min(added.first, current.first);
            added.last = std::max(added.last, current.last);
        }
    }
    if (!placed) {
        merged.push_back(added);
    }
    intervals = std::move(merged);
}

// `from` minus `removed`; both normalised.
std::vector<GtidRange> subtractIntervals(const std::vector<GtidRange>& from, const std::vector<GtidRange>& removed) {
    std::vector<GtidRange> out;
    for (GtidRange piece : from) {
        bool gone = false;
        for (const GtidRange& cut : removed) {
            if (cut.last < piece.first || cut.first > piece.last) {
                continue;
            }
            if (cut.first > piece.first) {
                out.push_back({piece.first, cut.first - 1});
            }
            if (cut.last >= piece.last) {
                gone = true;
                break;
            }
            piece.first = cut.last + 1;
        }
        if (!gone) {
            out.push_back(piece);
        }
    }
    return out;
}

bool intervalsContain(const std::vector<GtidRange>& outer, const std::vector<GtidRange>& inner) {
    auto it = outer.begin();
    for (const GtidRange& wanted : inner) {
        while (it != outer.end() && it->last < wanted.first) {
            ++it;
        }
        if (it == outer.end() || it->first > wanted.first || it->last < wanted.last) {
            return false;
        }
    }
    return true;
}

GtidRange parseInterval(std::string_view set, std::string_view uuid, std::string_view part) {
    size_t dash = part.find('-');
    auto first = text::parseNumber<uint64_t>(part.substr(0, dash));
    auto last = dash == std::string_view::npos ? first : text::parseNumber<uint64_t>(part.substr(dash + 1));
    if (!first || !last) {
        bool looksLikeTag = !part.empty() && (std::isalpha(static_cast<unsigned char>(part[0])) != 0 || part[0] == '_');
        if (looksLikeTag) {
            throw PositionError("MySQL GTID set " + text::quoted(set) + ": " + text::quoted(part) + " after " +
                                std::string(uuid) + " is a tag; tagged GTIDs are not supported");
        }
        throw PositionError("MySQL GTID set " + text::quoted(set) + ": interval " + text::quoted(part) + " of " +
                            std::string(uuid) + " is not N or N-M");
    }
    return GtidRange{*first, *last};
}

}  // namespace

GtidSet GtidSet::parse(std::string_view input) {
    GtidSet set;
    std::string_view rest = text::trim(input);
    if (rest.empty()) {
        return set;
    }
    while (true) {
        size_t comma = rest.find(',');
        std::string_view item = text::trim(rest.substr(0, comma));
        if (item.empty()) {
            throw PositionError("MySQL GTID set " + text::quoted(input) + " has an empty item between commas");
        }
        size_t colon = item.find(':');
        if (colon == std::string_view::npos) {
            throw PositionError("MySQL GTID set " + text::quoted(input) + ": " + text::quoted(item) +
                                " has no ':' (expected UUID:N-M)");
        }
        std::string_view rawUuid = text::trim(item.substr(0, colon));
        auto uuid = normaliseUuid(rawUuid);
        if (!uuid) {
            throw PositionError("MySQL GTID set " + text::quoted(input) + ": " + text::quoted(rawUuid) +
                                " is not a server UUID");
        }
        std::string_view intervals = item.substr(colon + 1);
        while (true) {
            size_t next = intervals.find(':');
            std::string_view part = text::trim(intervals.substr(0, next));
            GtidRange interval = parseInterval(input, *uuid, part);
            try {
                checkInterval(*uuid, interval);
            } catch (const PositionError& e) {
                throw PositionError("MySQL GTID set " + text::quoted(input) + ": " + e.what());
            }
            insertInterval(set.bySource_[*uuid], interval);
            if (next == std::string_view::npos) {
                break;
            }
            intervals = intervals.substr(next + 1);
        }
        if (comma == std::string_view::npos) {
            break;
        }
        rest = rest.substr(comma + 1);
    }
    return set;
}

void GtidSet::add(std::string_view uuid, uint64_t transaction) {
    add(uuid, GtidRange{transaction, transaction});
}

void GtidSet::add(std::string_view uuid, GtidRange interval) {
    std::string normal = requireUuid(uuid);
    checkInterval(normal, interval);
    insertInterval(bySource_[normal], interval);
}

uint64_t GtidSet::transactionCount() const {
    uint64_t count = 0;
    for (const auto& [uuid, intervals] : bySource_) {
        for (const GtidRange& interval : intervals) {
            count += interval.last - interval.first + 1;
        }
    }
    return count;
}

std::string GtidSet::toString() const {
    std::string out;
    for (const auto& [uuid, intervals] : bySource_) {
        if (!out.empty()) {
            out += ',';
        }
        out += uuid;
        for (const GtidRange& interval : intervals) {
            out += ':' + std::to_string(interval.first);
            if (interval.last != interval.first) {
                out += '-' + std::to_string(interval.last);
            }
        }
    }
    return out;
}

GtidSet GtidSet::unionWith(const GtidSet& other) const {
    GtidSet out = *this;
    for (const auto& [uuid, intervals] : other.bySource_) {
        for (const GtidRange& interval : intervals) {
            insertInterval(out.bySource_[uuid], interval);
        }
    }
    return out;
}

GtidSet GtidSet::subtract(const GtidSet& other) const {
    GtidSet out;
    for (const auto& [uuid, intervals] : bySource_) {
        auto removed = other.bySource_.find(uuid);
        auto left = removed == other.bySource_.end() ? intervals : subtractIntervals(intervals, removed->second);
        if (!left.empty()) {
            out.bySource_[uuid] = std::move(left);
        }
    }
    return out;
}

bool GtidSet::contains(const GtidSet& other) const {
    for (const auto& [uuid, intervals] : other.bySource_) {
        auto mine = bySource_.find(uuid);
        if (mine == bySource_.end() || !intervalsContain(mine->second, intervals)) {
            return false;
        }
    }
    return true;
}

bool GtidSet::contains(std::string_view uuid, uint64_t transaction) const {
    auto normal = normaliseUuid(uuid);
    if (!normal) {
        return false;
    }
    auto mine = bySource_.find(*normal);
    return mine != bySource_.end() && intervalsContain(mine->second, {GtidRange{transaction, transaction}});
}

PositionOrder GtidSet::compare(const GtidSet& other) const {
    bool holdsOther = contains(other);
    bool heldByOther = other.contains(*this);
    if (holdsOther && heldByOther) {
        return PositionOrder::Same;
    }
    if (holdsOther) {
        return PositionOrder::After;
    }
    return heldByOther ? PositionOrder::Before : PositionOrder::Incomparable;
}

}  // namespace syncscope::binlog
