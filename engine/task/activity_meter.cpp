#include "engine/task/activity_meter.h"

namespace syncscope::task {

namespace {

double seconds(Clock::duration d) {
    return std::chrono::duration<double>(d).count();
}

}  // namespace

ActivityMeter::Rates ActivityMeter::rates(uint64_t rowsApplied, bool running, Clock::time_point now) {
    if (running && !firstRun_) {
        firstRun_ = std::make_pair(now, rowsApplied);
    }
    if (!running) {
        samples_.clear();  // paused or stopped: nothing is applied now (not the last window's rate fading out)
    }
    samples_.emplace_back(now, rowsApplied);
    while (samples_.size() > 1 && now - samples_.front().first > kRecentWindow) {
        samples_.pop_front();
    }
    Rates rates;
    const auto& [oldestTime, oldestRows] = samples_.front();
    if (double span = seconds(now - oldestTime); running && span > 0 && rowsApplied >= oldestRows) {
        rates.recent = static_cast<double>(rowsApplied - oldestRows) / span;
    }
    if (firstRun_) {
        if (double span = seconds(now - firstRun_->first); span > 0 && rowsApplied >= firstRun_->second) {
            rates.total = static_cast<double>(rowsApplied - firstRun_->second) / span;
        }
    }
    return rates;
}

std::optional<Clock::time_point> ActivityMeter::lastChange(const checkpoint::TableName& table, uint64_t rowsApplied,
                                                           Clock::time_point now) {
    // First seen with rows applied (they came since the last sample): that is a change too.
    auto [it, inserted] = tables_.try_emplace(
        table, TableActivity{rowsApplied, rowsApplied > 0 ? std::optional<Clock::time_point>(now) : std::nullopt});
    if (!inserted && it->second.rows != rowsApplied) {
        it->second.rows = rowsApplied;
        it->second.changedAt = now;
    }
    return it->second.changedAt;
}

}  // namespace syncscope::task
