#include "engine/checkpoint/checkpoint_tracker.h"

namespace syncscope::checkpoint {

using binlog::Location;
using binlog::PositionOrder;

void CheckpointTracker::reset(const Location& persistedGlobal, const std::vector<TablePoint>& persistedTables,
                              const Location& persistedExitSafe) {
    std::lock_guard lock(mutex_);
    globalInMemory_ = persistedGlobal;
    globalPersisted_ = persistedGlobal;
    exitSafePersisted_ = persistedExitSafe;
    tablesPersisted_.clear();
    for (const TablePoint& point : persistedTables) {
        tablesPersisted_[point.table] = point.location;
    }
    tablesInMemory_ = tablesPersisted_;
}

void CheckpointTracker::advanceGlobal(const Location& location) {
    std::lock_guard lock(mutex_);
    globalInMemory_ = location;
}

void CheckpointTracker::advanceTable(const TableName& table, const Location& location) {
    std::lock_guard lock(mutex_);
    tablesInMemory_[table] = location;
}

void CheckpointTracker::raiseTable(const TableName& table, const Location& location) {
    std::lock_guard lock(mutex_);
    auto [it, inserted] = tablesInMemory_.try_emplace(table, location);
    if (!inserted && location.compare(it->second) == PositionOrder::After) {
        it->second = location;
    }
}

bool CheckpointTracker::coveredByTablePoint(const TableName& table, const Location& location) const {
    std::lock_guard lock(mutex_);
    auto it = tablesPersisted_.find(table);
    if (it == tablesPersisted_.end()) {
        return false;
    }
    PositionOrder order = location.compare(it->second);
    return order == PositionOrder::Before || order == PositionOrder::Same;
}

FlushPlan CheckpointTracker::planFlush(const Location& exitSafePoint) const {
    std::lock_guard lock(mutex_);
    FlushPlan plan;
    plan.globalPoint = globalInMemory_;
    plan.exitSafePoint = exitSafePoint;
    for (const auto& [table, location] : tablesInMemory_) {
        auto persisted = tablesPersisted_.find(table);
        if (persisted == tablesPersisted_.end() || !(persisted->second == location)) {
            plan.tablePoints.push_back({table, location});
        }
    }
    return plan;
}

void CheckpointTracker::markPersisted(const FlushPlan& plan) {
    std::lock_guard lock(mutex_);
    globalPersisted_ = plan.globalPoint;
    exitSafePersisted_ = plan.exitSafePoint;
    for (const TablePoint& point : plan.tablePoints) {
        tablesPersisted_[point.table] = point.location;
    }
}

void CheckpointTracker::markExitSafePersisted(const Location& exitSafePoint) {
    std::lock_guard lock(mutex_);
    exitSafePersisted_ = exitSafePoint;
}

void CheckpointTracker::rollbackToPersisted() {
    std::lock_guard lock(mutex_);
    globalInMemory_ = globalPersisted_;
    tablesInMemory_ = tablesPersisted_;
}

Location CheckpointTracker::globalInMemory() const {
    std::lock_guard lock(mutex_);
    return globalInMemory_;
}

Location CheckpointTracker::globalPersisted() const {
    std::lock_guard lock(mutex_);
    return globalPersisted_;
}

Location CheckpointTracker::exitSafePersisted() const {
    std::lock_guard lock(mutex_);
    return exitSafePersisted_;
}

TrackerView CheckpointTracker::view() const {
    std::lock_guard lock(mutex_);
    TrackerView view;
    view.globalInMemory = globalInMemory_;
    view.globalPersisted = globalPersisted_;
    view.exitSafePersisted = exitSafePersisted_;
    std::map<TableName, TrackerView::Table> tables;
    for (const auto& [table, location] : tablesInMemory_) {
        tables[table].table = table;
        tables[table].inMemory = location;
    }
    for (const auto& [table, location] : tablesPersisted_) {
        tables[table].table = table;
        tables[table].persisted = location;
    }
    for (auto& [name, table] : tables) {
        view.tables.push_back(std::move(table));
    }
    return view;
}

}  // namespace syncscope::checkpoint
