#include "engine/verify/table_planner.h"

namespace syncscope::verify {

TablePlanner::TablePlanner(ServerSettings upstream, ServerSettings downstream, std::vector<TableNames> tables,
                           PlanFunction plan)
    : upstream_(std::move(upstream)), downstream_(std::move(downstream)), tables_(std::move(tables)), plan_(plan) {}

TablePlanner::~TablePlanner() {
    if (ahead_.valid()) {
        ahead_.wait();
    }
}

std::future<ComparedTable> TablePlanner::planOnOwnSessions(size_t index) {
    return std::async(std::launch::async, [this, index] {
        if (!upstreamSession_ || !downstreamSession_) {
            auto upstream = std::make_unique<ServerSession>("upstream", upstream_);
            auto downstream = std::make_unique<ServerSession>("downstream", downstream_);
            upstreamSession_ = std::move(upstream);
            downstreamSession_ = std::move(downstream);
        }
        return plan_(*upstreamSession_, *downstreamSession_, tables_[index].first, tables_[index].second);
    });
}

std::optional<TablePlanner::Taken> TablePlanner::take() {
    std::lock_guard lock(mutex_);
    if (next_ >= tables_.size()) {
        return std::nullopt;
    }
    Taken taken;
    taken.index = next_;
    taken.plan = ahead_.valid() ? std::move(ahead_) : planOnOwnSessions(next_);
    // One planning at a time on the planning sessions: the next table's starts once this one's has ended.
    taken.plan.wait();
    ++next_;
    if (next_ < tables_.size()) {
        ahead_ = planOnOwnSessions(next_);
    }
    return taken;
}

}  // namespace syncscope::verify
