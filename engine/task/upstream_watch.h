// Keeps the upstream's current position and binlog file list (for the ruler's axis) fresh, polling on
// its own thread and connection so that a slow or dead upstream never delays a status snapshot.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/binlog/binlog_position.h"
#include "engine/binlog/position_axis.h"
#include "engine/common/polling_thread.h"
#include "engine/common/server_settings.h"

namespace syncscope::source {
class UpstreamConnection;
}

namespace syncscope::task {

struct UpstreamState {
    std::optional<binlog::BinlogPosition> position;  // SHOW MASTER STATUS
    std::string gtid;                                // @@gtid_binlog_pos (MariaDB) / @@gtid_executed (MySQL)
    std::vector<binlog::BinlogFileSize> files;       // SHOW BINARY LOGS
    binlog::PositionAxis axis;
    std::string error;  // why the last poll failed; empty when it worked
    std::chrono::system_clock::time_point polledAt{};
};

class UpstreamWatch {
public:
    static constexpr std::chrono::milliseconds kPollInterval{1000};

    explicit UpstreamWatch(ServerSettings upstream);
    ~UpstreamWatch();
    UpstreamWatch(const UpstreamWatch&) = delete;
    UpstreamWatch& operator=(const UpstreamWatch&) = delete;

    UpstreamState latest() const;

private:
    void pollOnce();

    ServerSettings upstream_;
    std::unique_ptr<source::UpstreamConnection> connection_;  // used by the polling thread only
    mutable std::mutex mutex_;                                // guards state_
    UpstreamState state_;
    PollingThread poller_{kPollInterval, [this] { pollOnce(); }};  // last: started after the rest
};

}  // namespace syncscope::task
