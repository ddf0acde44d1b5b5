#include "tests/ui/support/simulated_task.h"

#include <algorithm>
#include <cstdio>

namespace syncscope::test {

namespace {
constexpr uint64_t kStartAxis = SimulatedTask::kFileSize + 1000;
constexpr uint64_t kUpstreamHeadStart = 2 * SimulatedTask::kFileSize + 200000;
constexpr uint64_t kTableSpacing = 997;

std::string fileName(int number) {
    char name[32];
    std::snprintf(name, sizeof(name), "mysql-bin.%06d", number);
    return name;
}
}  // namespace

SimulatedTask::SimulatedTask(int tableCount)
    : upstream_(kUpstreamHeadStart),
      read_(kStartAxis),
      applied_(kStartAxis),
      globalMemory_(kStartAxis),
      globalPersisted_(kStartAxis),
      exitSafe_(kStartAxis) {
    for (int i = 0; i < tableCount; ++i) {
        TableState table;
        table.schema = i % 2 ? "shop" : "billing";
        table.table = "t" + std::to_string(i);
        table.inMemory = kStartAxis - kTableSpacing * uint64_t(i + 1);
        table.persisted = table.inMemory;
        tables_.push_back(table);
    }
    std::lock_guard lock(mutex_);
    publish();
}

uint64_t SimulatedTask::axisOf(int fileNumber, uint64_t pos) {
    return uint64_t(fileNumber - 1) * kFileSize + pos;
}

task::PointView SimulatedTask::point(uint64_t axis) const {
    task::PointView view;
    const uint64_t fileIndex = std::min<uint64_t>(axis / kFileSize, kFullFiles);
    view.file = fileName(int(fileIndex) + 1);
    view.pos = axis - fileIndex * kFileSize;
    view.gtid = "0-1-" + std::to_string(axis / 100);
    view.axis = axis;
    return view;
}

void SimulatedTask::publish() {
    auto snapshot = std::make_shared<task::StatusSnapshot>();
    snapshot->sequence = ++sequence_;
    snapshot->takenAt = task::Clock::now();
    snapshot->taskName = "orders-to-dw";
    snapshot->sourceId = "mariadb-01";
    snapshot->stage = stage_;
    snapshot->stageReason = reason_;
    snapshot->upstream = point(upstream_);
    snapshot->read = point(read_);
    snapshot->applied = point(applied_);
    snapshot->globalInMemory = point(globalMemory_);
    snapshot->globalPersisted = point(globalPersisted_);
    snapshot->onlineChanges = onlineChanges_;
    snapshot->shardLocks = shardLocks_;
    snapshot->shardColumns = shardColumns_;
    snapshot->exitSafe = point(exitSafe_);
    for (uint64_t i = 0; i < kFullFiles; ++i) {
        snapshot->upstreamFiles.push_back({fileName(int(i) + 1), kFileSize});
    }
    snapshot->upstreamFiles.push_back({fileName(int(kFullFiles) + 1), upstream_ - kFullFiles * kFileSize});
    for (const auto& table : tables_) {
        task::TablePointView view;
        view.schema = table.schema;
        view.table = table.table;
        view.inMemory = point(table.inMemory);
        view.persisted = point(table.persisted);
        view.bytesFromGlobal = int64_t(table.persisted) - int64_t(globalPersisted_);
        view.aheadOfGlobal = table.persisted > globalPersisted_;
        view.eventsFromGlobal = view.aheadOfGlobal ? table.eventsAhead : 0;
        view.rowsApplied = table.rows;
        view.lastChange = snapshot->takenAt;
        snapshot->tables.push_back(std::move(view));
    }
    snapshot->rowsApplied = rowsApplied_;
    snapshot->recentRowsPerSecond = stage_ == task::Stage::Running ? rowsPerSecond_ : 0;
    snapshot->totalRowsPerSecond = rowsPerSecond_ / 2;
    snapshot->lagSeconds = stage_ == task::Stage::Running ? double(read_ - applied_) / 1e5 + 0.4 : 0;
    snapshot->safeMode = applied_ < exitSafe_;
    snapshot->failedEvent = failed_;
    snapshot->load = load_;
    if (failed_) {
        snapshot->lastError = failed_->errorMessage;
    }
    current_ = std::move(snapshot);
}

std::shared_ptr<const task::StatusSnapshot> SimulatedTask::status() const {
    std::lock_guard lock(mutex_);
    return current_;
}

std::vector<task::Notice> SimulatedTask::drainNotices(size_t maxCount) {
    std::lock_guard lock(mutex_);
    std::vector<task::Notice> drained;
    while (!notices_.empty() && drained.size() < maxCount) {
        drained.push_back(notices_.front());
        notices_.pop_front();
    }
    return drained;
}

void SimulatedTask::setStage(task::Stage stage, const std::string& reason, bool isError) {
    stage_ = stage;
    reason_ = reason;
    notices_.push_back({task::Clock::now(), stage, reason, isError});
    publish();
}

task::CommandResult SimulatedTask::refuse(const char* command) const {
    return {false, std::string(command) + " is not possible while the task is " + task::stageName(stage_)};
}

task::CommandResult SimulatedTask::start() {
    std::lock_guard lock(mutex_);
    if (stage_ != task::Stage::New && stage_ != task::Stage::Stopped) {
        return refuse("start");
    }
    read_ = applied_ = globalMemory_ = globalPersisted_;  // a start reads again from the persisted point
    setStage(task::Stage::Running, "started by the DBA");
    return {true, "started"};
}

task::CommandResult SimulatedTask::pause() {
    std::lock_guard lock(mutex_);
    if (stage_ != task::Stage::Running) {
        return refuse("pause");
    }
    setStage(task::Stage::Paused, "paused by the DBA");
    return {true, "paused"};
}

task::CommandResult SimulatedTask::resume() {
    std::lock_guard lock(mutex_);
    if (stage_ == task::Stage::Paused) {
        setStage(task::Stage::Running, "resumed by the DBA");
        return {true, "resumed"};
    }
    if (stage_ != task::Stage::Error) {
        return refuse("resume");
    }
    if (!causeFixed_) {
        setStage(task::Stage::Error, "retry failed: " + failed_->errorMessage, true);
        return {true, "retried; the event failed again"};
    }
    failed_.reset();
    causeFixed_ = false;
    ++rowsApplied_;
    setStage(task::Stage::Running, "the failed event applied on retry");
    return {true, "retried; the event applied"};
}

task::CommandResult SimulatedTask::stop() {
    std::lock_guard lock(mutex_);
    if (stage_ == task::Stage::Stopped || stage_ == task::Stage::New) {
        return refuse("stop");
    }
    globalPersisted_ = globalMemory_;
    setStage(task::Stage::Stopped, "stopped by the DBA");
    return {true, "stopped"};
}

task::CommandResult SimulatedTask::skipFailedEvent(const task::SkipEvidence& /*evidence*/) {
    std::lock_guard lock(mutex_);
    if (stage_ != task::Stage::Error || !failed_) {
        return {false, "there is no failed event to skip"};
    }
    ++skips_;
    failed_.reset();
    setStage(task::Stage::Running, "the failed event was skipped by the DBA (audited)");
    return {true, "skipped"};
}

task::CommandResult SimulatedTask::resumeFrom(const task::ResumeTarget& target) {
    std::lock_guard lock(mutex_);
    if (stage_ != task::Stage::Paused && stage_ != task::Stage::Error && stage_ != task::Stage::Stopped) {
        return refuse("resume-from");
    }
    resumeFromCalls_.push_back(target);
    failed_.reset();
    setStage(task::Stage::Running, "resumed from " + target.file + ":" + std::to_string(target.pos));
    return {true, "resumed from the chosen point"};
}

void SimulatedTask::advance(uint64_t bytes, uint64_t rows) {
    std::lock_guard lock(mutex_);
    upstream_ += bytes;
    if (stage_ == task::Stage::Running) {
        read_ = std::min(upstream_, read_ + bytes);
        applied_ = std::max(applied_, read_ > bytes / 4 ? read_ - bytes / 4 : read_);
        globalMemory_ = applied_;
        rowsApplied_ += rows;
        rowsPerSecond_ = double(rows) * 10;
        for (size_t i = 0; i < tables_.size(); ++i) {
            auto& table = tables_[i];
            table.inMemory = std::max(table.inMemory, applied_ - std::min<uint64_t>(applied_, kTableSpacing * i));
            table.rows += rows / tables_.size() + (i == 0 ? rows % tables_.size() : 0);
        }
    }
    publish();
}

void SimulatedTask::flush() {
    std::lock_guard lock(mutex_);
    globalPersisted_ = globalMemory_;
    for (auto& table : tables_) {
        table.persisted = std::max(table.persisted, std::min(table.inMemory, globalPersisted_));
    }
    publish();
}

void SimulatedTask::fail(task::FailedEvent event) {
    std::lock_guard lock(mutex_);
    event.position = point(applied_ + 1);
    failed_ = std::move(event);
    causeFixed_ = false;
    setStage(task::Stage::Error, "Error " + std::to_string(failed_->errorCode) + ": " + failed_->errorMessage, true);
}

void SimulatedTask::fixCause() {
    std::lock_guard lock(mutex_);
    causeFixed_ = true;
}

void SimulatedTask::putTableAhead(int table, uint64_t bytes, uint64_t events) {
    std::lock_guard lock(mutex_);
    auto& state = tables_.at(size_t(table));
    state.persisted = globalPersisted_ + bytes;
    state.inMemory = std::max(state.inMemory, state.persisted);
    state.eventsAhead = events;
    publish();
}

void SimulatedTask::setOnlineChanges(std::vector<task::OnlineChangeView> changes) {
    std::lock_guard lock(mutex_);
    onlineChanges_ = std::move(changes);
    publish();
}

void SimulatedTask::setShardLocks(std::vector<task::ShardLockStatus> locks) {
    std::lock_guard lock(mutex_);
    shardLocks_ = std::move(locks);
    publish();
}

void SimulatedTask::setShardColumns(std::vector<task::ShardColumnStatus> columns) {
    std::lock_guard lock(mutex_);
    shardColumns_ = std::move(columns);
    publish();
}

void SimulatedTask::renameTable(int table, std::string schema, std::string name) {
    std::lock_guard lock(mutex_);
    auto& state = tables_.at(size_t(table));
    state.schema = std::move(schema);
    state.table = std::move(name);
    publish();
}

void SimulatedTask::setLoad(std::optional<load::LoadProgressView> load) {
    std::lock_guard lock(mutex_);
    load_ = std::move(load);
    publish();
}

task::Stage SimulatedTask::stage() const {
    std::lock_guard lock(mutex_);
    return stage_;
}

std::vector<task::ResumeTarget> SimulatedTask::resumeFromCalls() const {
    std::lock_guard lock(mutex_);
    return resumeFromCalls_;
}

int SimulatedTask::skips() const {
    std::lock_guard lock(mutex_);
    return skips_;
}

task::FailedEvent SimulatedTask::missingColumnEvent() {
    task::FailedEvent event;
    event.schema = "shop";
    event.table = "orders";
    event.operation = "insert";
    event.columns = {"id", "customer_id", "amount", "note"};
    event.after.push_back({{std::string("1042"), std::string("77"), std::string("19.90"), std::nullopt}});
    event.sql = "INSERT INTO `shop`.`orders` (`id`,`customer_id`,`amount`,`note`) VALUES (1042,77,19.90,NULL)";
    event.errorCode = 1054;
    event.errorMessage = "Unknown column 'note' in 'field list'";
    event.errorClass = "needs the DBA";
    event.hint =
        "The downstream table lacks column `note`: ALTER TABLE `shop`.`orders` ADD COLUMN `note` "
        "VARCHAR(255) NULL;";
    return event;
}

}  // namespace syncscope::test
