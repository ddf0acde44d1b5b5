#include "engine/task/stop_point_check.h"

#include <spdlog/spdlog.h>

#include "engine/common/local_time.h"

namespace syncscope::task {

namespace {

bool opensGroup(const binlog::Event& event) {
    if (event.as<binlog::MariaDbGtidEvent>() != nullptr || event.as<binlog::MySqlGtidEvent>() != nullptr) {
        return true;
    }
    const auto* query = event.as<binlog::QueryEvent>();
    return query != nullptr && query->kind == binlog::QueryEvent::Kind::Begin;
}

}  // namespace

StopPointCheck::StopPointCheck(std::shared_ptr<StopPointHolder> holder, std::string taskName)
    : holder_(std::move(holder)), taskName_(std::move(taskName)) {}

bool StopPointCheck::stopsBefore(const binlog::Event& event, const std::string& file, bool inGroup) {
    if (!holder_ || inGroup || !opensGroup(event)) {
        return false;
    }
    auto point = holder_->get();
    if (!point) {
        return false;
    }
    binlog::BinlogPosition start;
    std::string name = event.file.empty() ? file : std::string(event.file);
    if (binlog::BinlogPosition::isBinlogFileName(name)) {
        start = binlog::BinlogPosition(name, event.pos);
    }
    if (!point->reachedBefore(start, event.header.timestamp)) {
        return false;
    }
    reached_ = point->describe() + " (before the next transaction, at " + start.toString() + ", " +
               formatLocalTime(event.header.timestamp) + ")";
    spdlog::info("task {}: reached {}", taskName_, reached_);
    return true;
}

void StopPointCheck::groupEnded(const binlog::Location& end) {
    if (!holder_ || reached()) {
        return;
    }
    auto point = holder_->get();
    if (point && point->reachedAfter(end)) {
        reached_ = point->describe() + " (at the end of the transaction ending at " + end.toString() + ")";
        spdlog::info("task {}: reached {}", taskName_, reached_);
    }
}

}  // namespace syncscope::task
