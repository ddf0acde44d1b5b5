#include "engine/task/prepared_xa_store.h"

#include <algorithm>

namespace syncscope::task {

size_t PreparedXaStore::waitingChanges() const {
    size_t changes = reading_.changes.size();
    for (const auto& [key, branch] : branches_) {
        changes += branch.changes.size();
    }
    return changes;
}

void PreparedXaStore::readingTouches(const checkpoint::TableName& table) {
    if (std::find(reading_.tables.begin(), reading_.tables.end(), table) == reading_.tables.end()) {
        reading_.tables.push_back(table);
    }
}

void PreparedXaStore::discardReading() {
    reading_.changes.clear();
    reading_.tables.clear();
}

size_t PreparedXaStore::prepareReading(const std::string& branch, uint64_t groupSeq,
                                       const binlog::BinlogPosition& start, const binlog::Location& trackerGlobal) {
    if (reading_.changes.empty()) {
        discardReading();
        return 0;
    }
    PreparedBranch prepared = takeReading();
    prepared.groupSeq = groupSeq;
    prepared.prepareStart = start;
    prepared.globalBefore = globalBefore(trackerGlobal);
    size_t rows = prepared.changes.size();
    prepare(branch, std::move(prepared));
    return rows;
}

PreparedBranch PreparedXaStore::takeReading() {
    PreparedBranch taken = std::move(reading_);
    reading_ = {};
    return taken;
}

std::optional<binlog::BinlogPosition> PreparedXaStore::oldestStart() const {
    if (byAge_.empty()) {
        return std::nullopt;
    }
    return branches_.at(byAge_.begin()->second).prepareStart;
}

binlog::Location PreparedXaStore::globalBefore(const binlog::Location& trackerGlobal) const {
    return holding() ? heldGlobal_ : trackerGlobal;
}

void PreparedXaStore::prepare(const std::string& branch, PreparedBranch prepared) {
    if (auto existing = branches_.find(branch); existing != branches_.end()) {
        byAge_.erase(existing->second.groupSeq);  // the same xid prepared again: the newer one counts
    }
    prepared.tablesBefore = heldTables_;
    byAge_[prepared.groupSeq] = branch;
    branches_[branch] = std::move(prepared);
}

HeldPointsRelease PreparedXaStore::groupEnded(const binlog::Location& end, TablePoints tables) {
    if (!holding()) {
        return HeldPointsRelease{end, std::move(tables)};
    }
    heldGlobal_ = end;
    for (auto& [table, location] : tables) {
        heldTables_[table] = std::move(location);
    }
    return {};
}

std::optional<PreparedBranch> PreparedXaStore::resolve(const std::string& branch, HeldPointsRelease& release) {
    release = {};
    auto it = branches_.find(branch);
    if (it == branches_.end()) {
        return std::nullopt;
    }
    bool wasOldest = byAge_.begin()->first == it->second.groupSeq;
    PreparedBranch resolved = std::move(it->second);
    byAge_.erase(resolved.groupSeq);
    branches_.erase(it);
    if (!wasOldest) {
        return resolved;
    }
    if (byAge_.empty()) {
        // Nothing older waits: every point kept aside may be taken.
        release.global = heldGlobal_;
        release.tables = std::move(heldTables_);
        heldTables_.clear();
        heldGlobal_ = {};
    } else {
        const PreparedBranch& next = branches_.at(byAge_.begin()->second);
        release.global = next.globalBefore;
        release.tables = next.tablesBefore;
    }
    return resolved;
}

}  // namespace syncscope::task
