// One MariaDB GTID: replication domain, originating server and sequence number ("0-1-5").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace syncscope::binlog {

struct Gtid {
    uint32_t domainId = 0;
    uint32_t serverId = 0;
    uint64_t sequence = 0;

    // "domain-server-sequence", e.g. "0-1-5". Throws PositionError naming the text.
    static Gtid parse(std::string_view text);
    std::string toString() const;
    bool operator==(const Gtid& other) const = default;
};

}  // namespace syncscope::binlog
