#include "engine/task/upstream_watch.h"

#include <memory>

#include "engine/common/thread_priority.h"
#include "engine/source/upstream_connection.h"

namespace syncscope::task {

UpstreamWatch::UpstreamWatch(ServerSettings upstream) : upstream_(std::move(upstream)) {
    constexpr int kWatchTimeoutSeconds = 5;
    upstream_.connectTimeoutSeconds = kWatchTimeoutSeconds;
    upstream_.readTimeoutSeconds = kWatchTimeoutSeconds;
    thread_ = std::thread(&UpstreamWatch::loop, this);
}

UpstreamWatch::~UpstreamWatch() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

UpstreamState UpstreamWatch::latest() const {
    std::lock_guard lock(mutex_);
    return state_;
}

void UpstreamWatch::loop() {
    applyEngineThreadPriority();
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        lock.unlock();
        pollOnce();
        lock.lock();
        wake_.wait_for(lock, kPollInterval, [this] { return stopping_; });
    }
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
