#include "engine/task/shard_ddl_locks.h"

#include <algorithm>
#include <cctype>

#include <spdlog/spdlog.h>

#include "engine/task/audit_log.h"

namespace syncscope::task {

std::string comparableDdl(const std::string& sql) {
    std::string out;
    out.reserve(sql.size());
    char quote = 0;
    bool space = false;
    for (char c : sql) {
        if (quote != 0) {
            out += c;
            if (c == quote) {
                quote = 0;
            }
            continue;
        }
        if (std::isspace(static_cast<unsigned char>(c)) != 0) {
            space = !out.empty();
            continue;
        }
        if (space) {
            out += ' ';
            space = false;
        }
        if (c == '\'' || c == '"' || c == '`') {
            quote = c;
        }
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    while (!out.empty() && out.back() == ';') {
        out.pop_back();
    }
    return out;
}

std::vector<ShardLockStatus> shardLockStatus(const std::vector<ShardLockView>& locks) {
    auto seconds = [](std::chrono::system_clock::time_point at) {
        return static_cast<int64_t>(std::chrono::duration_cast<std::chrono::seconds>(at.time_since_epoch()).count());
    };
    std::vector<ShardLockStatus> out;
    for (const ShardLockView& lock : locks) {
        ShardLockStatus status;
        status.target = lock.target;
        status.ddls = lock.ddls;
        status.since = seconds(lock.since);
        status.ranDownstream = lock.executed;
        for (const ShardArrival& arrival : lock.arrived) {
            status.arrived.push_back(
                {arrival.shard.sourceId, arrival.shard.table, arrival.position, seconds(arrival.since)});
        }
        for (const ShardTable& shard : lock.waitingFor) {
            status.waitingFor.push_back({shard.sourceId, shard.table, {}, 0});
        }
        out.push_back(std::move(status));
    }
    return out;
}

const ShardLockStatus* lockHoldingSource(const std::vector<ShardLockStatus>& locks, const std::string& sourceId) {
    for (const ShardLockStatus& lock : locks) {
        for (const ShardLockStatus::Shard& shard : lock.ranDownstream ? lock.waitingFor : lock.arrived) {
            if (sourceId.empty() || shard.sourceId == sourceId) {
                return &lock;
            }
        }
    }
    return nullptr;
}

namespace {

std::string listed(const std::vector<std::string>& ddls) {
    std::string text;
    for (const std::string& ddl : ddls) {
        text += (text.empty() ? "" : "; ") + ddl;
    }
    return text;
}

bool sameDdls(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    if (a.size() != b.size()) {
        return false;
    }
    for (size_t i = 0; i < a.size(); ++i) {
        if (comparableDdl(a[i]) != comparableDdl(b[i])) {
            return false;
        }
    }
    return true;
}

}  // namespace

ShardDdlLocks::ShardDdlLocks(std::string taskName, std::vector<ShardGroup> groups,
                             std::shared_ptr<ShardLockLedger> ledger)
    : taskName_(std::move(taskName)), groups_(std::move(groups)), ledger_(std::move(ledger)) {
    if (!ledger_) {
        return;
    }
    for (ExecutedShardLock& kept : ledger_->load()) {
        Lock lock;
        lock.target = kept.target;
        lock.ddls = std::move(kept.ddls);
        lock.arrivals = std::move(kept.arrivals);
        for (ShardArrival& arrival : lock.arrivals) {
            arrival.at = {};  // read by an earlier process: handed out once read again
        }
        lock.passedBy.assign(lock.arrivals.size(), false);
        lock.since = lock.arrivals.empty() ? std::chrono::system_clock::now() : lock.arrivals.front().since;
        lock.executed = true;
        spdlog::info("task {}: the shard DDL lock on {} ran downstream before this start ({}); {} arrivals to pass",
                     taskName_, lock.target.text(), listed(lock.ddls), lock.arrivals.size());
        locks_.push_back(std::move(lock));
    }
}

std::optional<TableName> ShardDdlLocks::targetOf(const std::string& sourceId, const TableName& table) const {
    for (const ShardGroup& group : groups_) {
        for (const ShardTable& member : group.members) {
            if (member.sourceId == sourceId && member.table == table) {
                return group.target;
            }
        }
    }
    return std::nullopt;
}

const ShardGroup* ShardDdlLocks::groupOf(const TableName& target) const {
    for (const ShardGroup& group : groups_) {
        if (group.target == target) {
            return &group;
        }
    }
    return nullptr;
}

ShardDdlLocks::Lock* ShardDdlLocks::lockOf(const TableName& target) {
    for (Lock& lock : locks_) {
        if (!lock.executed && lock.target == target) {
            return &lock;
        }
    }
    return nullptr;
}

const ShardDdlLocks::Lock* ShardDdlLocks::lockOf(const TableName& target) const {
    return const_cast<ShardDdlLocks*>(this)->lockOf(target);
}

std::vector<ShardTable> ShardDdlLocks::missing(const Lock& lock) const {
    std::vector<ShardTable> absent;
    if (const ShardGroup* group = groupOf(lock.target)) {
        for (const ShardTable& member : group->members) {
            bool arrived = std::any_of(lock.arrivals.begin(), lock.arrivals.end(),
                                       [&](const ShardArrival& arrival) { return arrival.shard == member; });
            if (!arrived) {
                absent.push_back(member);
            }
        }
    }
    return absent;
}

ShardDdlLocks::Verdict ShardDdlLocks::arrive(const ShardTable& shard, const TableName& target,
                                             const std::vector<std::string>& ddls, const binlog::Location& at) {
    std::unique_lock guard(mutex_);
    const std::string position = at.toString();
    // Read again after it ran (a kill, or a re-sync that began before this source passed it).
    for (Lock& lock : locks_) {
        if (!lock.executed || lock.target != target) {
            continue;
        }
        for (size_t i = 0; i < lock.arrivals.size(); ++i) {
            // A shard table the DBA's unlock ran without is passed over at whatever point it reads the DDLs.
            const bool unlockedWithout = lock.arrivals[i].position.empty() && sameDdls(lock.ddls, ddls);
            if (lock.arrivals[i].shard == shard && (lock.arrivals[i].position == position || unlockedWithout)) {
                lock.arrivals[i].position = position;
                lock.arrivals[i].at = at;  // passed by its source once the table point past it is persisted
                version_.fetch_add(1, std::memory_order_acq_rel);
                return {Verdict::Kind::Done, "ran downstream when every shard table had read it"};
            }
        }
    }
    Lock* lock = lockOf(target);
    if (lock == nullptr) {
        Lock opened;
        opened.target = target;
        opened.ddls = ddls;
        opened.since = std::chrono::system_clock::now();
        locks_.push_back(std::move(opened));
        lock = &locks_.back();
        spdlog::info("task {}: shard DDL lock on {} opened by {} at {}: {}", taskName_, target.text(), shard.text(),
                     position, listed(ddls));
    } else if (!sameDdls(lock->ddls, ddls)) {
        std::string first = lock->arrivals.empty()
                                ? std::string("the lock")
                                : lock->arrivals.front().shard.text() + " at " + lock->arrivals.front().position;
        return {Verdict::Kind::Conflict, "shard DDLs differ for " + target.text() + ": " + shard.text() + " at " +
                                             position + " read '" + listed(ddls) + "' but " + first + " read '" +
                                             listed(lock->ddls) +
                                             "'; every shard table must read the same DDLs in the same order"};
    }
    auto same = std::find_if(lock->arrivals.begin(), lock->arrivals.end(),
                             [&](const ShardArrival& arrival) { return arrival.shard == shard; });
    if (same == lock->arrivals.end()) {
        lock->arrivals.push_back({shard, position, std::chrono::system_clock::now(), at});
        lock->passedBy.push_back(false);
    } else {
        same->position = position;  // read again after a restart of its source
        same->at = at;
    }
    std::vector<ShardTable> absent = missing(*lock);
    if (absent.empty()) {
        return {Verdict::Kind::Execute, "every shard table of " + target.text() + " has read it"};
    }
    std::string names;
    for (const ShardTable& table : absent) {
        names += (names.empty() ? "" : ", ") + table.text();
    }
    if (ledger_) {
        // Written outside the lock: the other sources' arrivals and the status never wait for the downstream.
        const ShardLockView waiting{lock->target, lock->ddls, lock->arrivals, absent, lock->since, false};
        guard.unlock();
        try {
            ledger_->keepWaiting(waiting);
        } catch (const std::exception& e) {
            // Only the DBA's view without an engine misses it: a restart reads the arrivals again.
            spdlog::warn("task {}: the waiting shard DDL lock on {} is not kept beside the checkpoint: {}", taskName_,
                         target.text(), e.what());
        }
    }
    return {Verdict::Kind::Wait, "waiting for " + names};
}

void ShardDdlLocks::executed(const TableName& target) {
    ExecutedShardLock kept;
    {
        std::lock_guard guard(mutex_);
        Lock* lock = lockOf(target);
        if (lock == nullptr) {
            return;
        }
        if (lock->forced) {
            // The shard tables waited for pass the DDLs over when they read them (at a point not known yet).
            for (const ShardTable& absent : missing(*lock)) {
                lock->arrivals.push_back({absent, "", std::chrono::system_clock::now(), {}});
                lock->passedBy.push_back(false);
            }
        }
        kept = {lock->target, lock->ddls, lock->arrivals};
    }
    // Kept before any source passes it: after a kill, an arrival read again is passed over, not run again.
    if (ledger_) {
        ledger_->record(kept);
    }
    std::lock_guard guard(mutex_);
    if (Lock* lock = lockOf(target)) {
        lock->executed = true;
        spdlog::info("task {}: shard DDL lock on {} ran downstream: {}", taskName_, target.text(), listed(lock->ddls));
    }
    version_.fetch_add(1, std::memory_order_acq_rel);
}

void ShardDdlLocks::passed(const ShardTable& shard, const std::string& position) {
    std::lock_guard guard(mutex_);
    for (Lock& lock : locks_) {
        if (!lock.executed) {
            continue;
        }
        bool changed = false;
        for (size_t i = 0; i < lock.arrivals.size(); ++i) {
            if (lock.arrivals[i].shard == shard && lock.arrivals[i].position == position && !lock.passedBy[i]) {
                lock.passedBy[i] = true;
                changed = true;
            }
        }
        if (changed) {
            forgetIfAllPassed(lock);
        }
    }
    std::erase_if(locks_, [](const Lock& lock) { return lock.executed && lock.arrivals.empty(); });
    version_.fetch_add(1, std::memory_order_acq_rel);
}

void ShardDdlLocks::forgetIfAllPassed(Lock& lock) {
    if (std::find(lock.passedBy.begin(), lock.passedBy.end(), false) != lock.passedBy.end()) {
        return;
    }
    if (ledger_) {
        try {
            ledger_->remove({lock.target, lock.ddls, lock.arrivals});
        } catch (const std::exception& e) {
            // Kept rows only make a later read of the same arrivals pass them over: they are removed next time.
            spdlog::warn("task {}: the ran shard DDL lock on {} stays in the ledger: {}", taskName_, lock.target.text(),
                         e.what());
            return;
        }
    }
    spdlog::info("task {}: shard DDL lock on {} passed by every shard table", taskName_, lock.target.text());
    lock.arrivals.clear();
}

CommandResult ShardDdlLocks::unlock(const std::string& targetText, bool preview) {
    const size_t dot = targetText.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == targetText.size()) {
        return {false, "unlock: target '" + targetText +
                           "' is not a merged table named as schema.table (GET /api/v1/shard-locks lists them)"};
    }
    const TableName target{targetText.substr(0, dot), targetText.substr(dot + 1)};
    std::unique_lock guard(mutex_);
    Lock* lock = lockOf(target);
    if (lock == nullptr || lock->forced) {
        std::string known;
        for (const Lock& other : locks_) {
            if (!other.executed && !other.forced) {
                known += (known.empty() ? "" : ", ") + other.target.text();
            }
        }
        return {false, "no shard DDL lock on " + target.text() + " waits" +
                           (known.empty() ? std::string(" (none waits)") : " (waiting: " + known + ")") +
                           "; nothing was changed"};
    }
    std::string absent;
    for (const ShardTable& table : missing(*lock)) {
        absent += (absent.empty() ? "" : ", ") + table.text();
    }
    const ShardArrival& owner = lock->arrivals.front();
    std::string what = "unlock the shard DDL lock on " + target.text() + ": source " + owner.shard.sourceId +
                       " runs '" + listed(lock->ddls) + "' on " + target.text() + " now, without " + absent +
                       "; the shard tables that read it re-sync, and " + absent +
                       " pass the DDLs over when they read them. Until then their rows are written in their old "
                       "shape into the changed table (they fail if it no longer fits, e.g. a column dropped)";
    if (preview) {
        return {true, what};
    }
    AuditEntry entry;
    entry.action = "shard-unlock";
    entry.task = taskName_;
    entry.sourceId = owner.shard.sourceId;
    entry.positionBefore = owner.position;
    entry.details = {{"target", target.text()}, {"ddls", lock->ddls}, {"waited_for", absent}, {"what", what}};
    guard.unlock();
    try {
        AuditLog(auditPath_).append(entry);  // written and synced before it takes effect
    } catch (const std::exception& e) {
        return {false, std::string("the audit log cannot be written, so the unlock was not done: ") + e.what()};
    }
    guard.lock();
    lock = lockOf(target);
    if (lock == nullptr) {
        return {false, "the shard DDL lock on " + target.text() + " ran meanwhile; nothing was changed"};
    }
    lock->forced = true;
    spdlog::warn("task {}: the DBA's {}", taskName_, what);
    version_.fetch_add(1, std::memory_order_acq_rel);
    return {true, what};
}

std::optional<ShardDdlLocks::Forced> ShardDdlLocks::takeForced(const std::string& sourceId) {
    std::lock_guard guard(mutex_);
    for (Lock& lock : locks_) {
        if (lock.forced && !lock.executed && !lock.arrivals.empty() &&
            lock.arrivals.front().shard.sourceId == sourceId) {
            return Forced{lock.target, lock.ddls, lock.arrivals.front().at};
        }
    }
    return std::nullopt;
}

std::vector<ShardArrival> ShardDdlLocks::executedArrivalsOf(const std::string& sourceId) const {
    std::lock_guard guard(mutex_);
    std::vector<ShardArrival> arrivals;
    for (const Lock& lock : locks_) {
        if (!lock.executed) {
            continue;
        }
        for (size_t i = 0; i < lock.arrivals.size(); ++i) {
            if (lock.arrivals[i].shard.sourceId == sourceId && !lock.passedBy[i] && !lock.arrivals[i].at.isEmpty()) {
                arrivals.push_back(lock.arrivals[i]);
            }
        }
    }
    return arrivals;
}

std::vector<ShardLockView> ShardDdlLocks::view() const {
    std::lock_guard guard(mutex_);
    std::vector<ShardLockView> views;
    for (const Lock& lock : locks_) {
        ShardLockView view{lock.target, lock.ddls, lock.arrivals, {}, lock.since, lock.executed};
        if (lock.executed) {
            for (size_t i = 0; i < lock.arrivals.size(); ++i) {
                if (!lock.passedBy[i]) {
                    view.waitingFor.push_back(lock.arrivals[i].shard);  // its re-sync
                }
            }
        } else {
            view.waitingFor = missing(lock);
        }
        views.push_back(std::move(view));
    }
    return views;
}

}  // namespace syncscope::task
