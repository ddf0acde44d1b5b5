// A MySQL GTID set (@@gtid_executed): per source server UUID, the transaction numbers as intervals
// ("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5:7-9,uuid2:3"). Always kept normalised: UUIDs in lower
// case and sorted, intervals sorted, merged when they touch or overlap.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/binlog/position_order.h"

namespace syncscope::binlog {

// Transaction numbers first..last, both included (MySQL's "1-5"; "7" is 7..7). Named apart from the
// decoder's GtidInterval (event.h), which stores the end exclusive as the binlog does.
struct GtidRange {
    uint64_t first = 0;
    uint64_t last = 0;
    bool operator==(const GtidRange& other) const = default;
};

class GtidSet {
public:
    GtidSet() = default;

    // MySQL's text form; whitespace and newlines are allowed around items, "" is the empty set.
    // A bad UUID, a zero or reversed interval or stray text throws PositionError naming the text.
    // Tagged GTIDs (MySQL 8.3 "uuid:tag:1-5") are refused as unsupported.
    static GtidSet parse(std::string_view text);

    // Adds one transaction ("uuid:n"), e.g. after a GTID event. Throws PositionError on a bad UUID or n == 0.
    void add(std::string_view uuid, uint64_t transaction);
    void add(std::string_view uuid, GtidRange interval);

    bool isEmpty() const { return bySource_.empty(); }
    // How many transactions the set holds (for "N transactions" in a skip window).
    uint64_t transactionCount() const;
    const std::map<std::string, std::vector<GtidRange>>& bySource() const { return bySource_; }

    // Normalised text: "uuid:1-5:7-9,uuid2:3"; "" when empty. parse(toString()) == *this.
    std::string toString() const;

    GtidSet unionWith(const GtidSet& other) const;
    // The transactions of this set that `other` lacks.
    GtidSet subtract(const GtidSet& other) const;
    bool contains(const GtidSet& other) const;
    bool contains(std::string_view uuid, uint64_t transaction) const;

    // By containment: Same when equal, Before when `other` holds this set and more, After the other
    // way round, Incomparable when each holds a transaction the other lacks.
    PositionOrder compare(const GtidSet& other) const;

    bool operator==(const GtidSet& other) const = default;

private:
    std::map<std::string, std::vector<GtidRange>> bySource_;  // key: lower-case UUID
};

}  // namespace syncscope::binlog
