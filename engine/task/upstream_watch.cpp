#include "engine/task/upstream_watch.h"

#include <memory>

#include "engine/source/upstream_connection.h"

namespace syncscope::task {

namespace {

// The watch's own connection gives up sooner than the stream's: a slow upstream shows as an error in the
// status rather than a stale position.
ServerSettings withWatchTimeouts(ServerSettings upstream) {
    constexpr int kWatchTimeoutSeconds = 5;
    upstream.connectTimeoutSeconds = kWatchTimeoutSeconds;
    upstream.readTimeoutSeconds = kWatchTimeoutSeconds;
    return upstream;
}

}  // namespace

UpstreamWatch::UpstreamWatch(ServerSettings upstream) : upstream_(withWatchTimeouts(std::move(upstream))) {}

UpstreamWatch::~UpstreamWatch() = default;

UpstreamState UpstreamWatch::latest() const {
    std::lock_guard lock(mutex_);
    return state_;
}

void UpstreamWatch::pollOnce() {
    UpstreamState fresh;
    fresh.polledAt = std::chrono::system_clock::now();
    try {
        if (!connection_) {
            connection_ = std::make_unique<source::UpstreamConnection>(upstream_);
        }
        source::UpstreamConnection& connection = *connection_;
        auto master = connection.query("SHOW MASTER STATUS");
        if (!master.empty() && master.front().size() >= 2 && master.front()[0] && master.front()[1]) {
            fresh.position = binlog::BinlogPosition(*master.front()[0], std::stoull(*master.front()[1]));
        }
        try {
            fresh.gtid = connection.queryValue("SELECT @@GLOBAL.gtid_binlog_pos").value_or("");
        } catch (const source::UpstreamError&) {
            fresh.gtid = connection.queryValue("SELECT @@GLOBAL.gtid_executed").value_or("");  // MySQL
        }
        for (const auto& row : connection.query("SHOW BINARY LOGS")) {
            if (row.size() >= 2 && row[0] && row[1]) {
                fresh.files.push_back({*row[0], std::stoull(*row[1])});
            }
        }
        fresh.axis = binlog::PositionAxis(fresh.files);
    } catch (const std::exception& e) {
        connection_.reset();  // reconnect on the next poll
        std::lock_guard lock(mutex_);
        // Keep the last good figures; say why they are not fresh.
        state_.error = e.what();
        state_.polledAt = fresh.polledAt;
        return;
    }
    std::lock_guard lock(mutex_);
    state_ = std::move(fresh);
}

}  // namespace syncscope::task
