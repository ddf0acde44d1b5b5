// A task instance's `meta`: where replication starts when there is no checkpoint yet.
#pragma once

#include <cstdint>
#include <string>

namespace syncscope::config {

// Where replication starts when there is no checkpoint (`meta`).
struct BinlogStart {
    static constexpr uint32_t kFirstEventPosition = 4;  // just after the binlog file's magic header

    std::string binlogName;
    uint32_t binlogPos = kFirstEventPosition;
    std::string binlogGtid;

    bool operator==(const BinlogStart&) const = default;
};

}  // namespace syncscope::config
