// A MariaDB GTID position (@@gtid_binlog_pos, @@gtid_slave_pos): the last GTID of each replication
// domain, at most one per domain ("0-1-5,1-2-7").
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "engine/binlog/mariadb_gtid.h"
#include "engine/binlog/position_order.h"

namespace syncscope::binlog {

class GtidPosition {
public:
    GtidPosition() = default;

    // Comma-separated GTIDs, spaces and newlines allowed around them; "" is the empty position.
    // Two GTIDs of one domain are an error (PositionError), as MariaDB refuses them too.
    static GtidPosition parse(std::string_view text);

    // The position after `gtid` was applied: it replaces the GTID of its domain.
    void update(const Gtid& gtid);

    std::optional<Gtid> forDomain(uint32_t domainId) const;
    const std::map<uint32_t, Gtid>& byDomain() const { return byDomain_; }
    bool isEmpty() const { return byDomain_.empty(); }

    // Sorted by domain: "0-1-5,1-2-7"; "" when empty. parse(toString()) == *this.
    std::string toString() const;

    // Compared domain by domain on the sequence number. A domain that only one side has counts as
    // "nothing seen yet" on the other side. Before/After when every domain agrees (or is equal),
    // Same when all are equal, Incomparable when domains disagree (one ahead here, behind there) or
    // when one domain has the same sequence from two different servers (diverged histories).
    PositionOrder compare(const GtidPosition& other) const;
    // True when compare(other) is Same or After.
    bool contains(const GtidPosition& other) const;

    bool operator==(const GtidPosition& other) const = default;

private:
    std::map<uint32_t, Gtid> byDomain_;
};

}  // namespace syncscope::binlog
