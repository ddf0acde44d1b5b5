// A TaskControl for the GUI tests that behaves like the engine's Task seen from outside: the same stage
// machine (New, Running, Paused, Stopped, Error), refusals with reasons, notices, a failed event that
// fails again on retry until its cause is fixed, and positions that only move forward. The tests drive
// its progress by hand so that every snapshot is known. The real engine is wired to the GUI by another
// test later (integration, against the MariaDB pair); this one proves the GUI side.
#pragma once

#include <deque>
#include <mutex>

#include "engine/task/task_control.h"

namespace syncscope::test {

class SimulatedTask : public task::TaskControl {
public:
    static constexpr uint64_t kFileSize = 4 * 1024 * 1024;
    static constexpr uint64_t kFullFiles = 2;

    explicit SimulatedTask(int tableCount = 4);

    std::shared_ptr<const task::StatusSnapshot> status() const override;
    std::vector<task::Notice> drainNotices(size_t maxCount) override;
    task::CommandResult start() override;
    task::CommandResult pause() override;
    task::CommandResult resume() override;
    task::CommandResult stop() override;
    using task::TaskControl::skipFailedEvent;
    task::CommandResult skipFailedEvent(const task::SkipEvidence& evidence) override;
    task::CommandResult resumeFrom(const task::ResumeTarget& target) override;

    // The engine's progress: the upstream grows, and when running the stream reads and applies.
    void advance(uint64_t bytes, uint64_t rows);
    // A checkpoint flush: the persisted points catch up with memory (never past the global point).
    void flush();
    // The task stops on this event (a downstream error that needs the DBA).
    void fail(task::FailedEvent event);
    // The downstream was repaired: the next retry applies the failed event.
    void fixCause();
    // Writes a table point ahead of the persisted global point, as an external writer (DM) would.
    void putTableAhead(int table, uint64_t bytes, uint64_t events);
    // The online schema changes the engine follows (online-ddl), as its status reports them.
    void setOnlineChanges(std::vector<task::OnlineChangeView> changes);
    // The shard DDL locks (shard-mode), as the engine's status reports them.
    void setShardLocks(std::vector<task::ShardLockStatus> locks);
    void setShardColumns(std::vector<task::ShardColumnStatus> columns);
    // Names a table as a scene needs it (the shard tables of a merge, say).
    void renameTable(int table, std::string schema, std::string name);
    // The snapshot load's progress as the engine reports it (a finished load stays in the snapshots).
    void setLoad(std::optional<load::LoadProgressView> load);

    task::Stage stage() const;
    std::vector<task::ResumeTarget> resumeFromCalls() const;
    int skips() const;

    // A failed INSERT on a table whose downstream copy lacks a column.
    static task::FailedEvent missingColumnEvent();
    // The axis position of file:pos in this task's binlog files.
    static uint64_t axisOf(int fileNumber, uint64_t pos);

private:
    struct TableState {
        std::string schema;
        std::string table;
        uint64_t inMemory = 0;
        uint64_t persisted = 0;
        uint64_t eventsAhead = 0;
        uint64_t rows = 0;
    };

    task::CommandResult refuse(const char* command) const;
    void setStage(task::Stage stage, const std::string& reason, bool isError = false);
    void publish();
    task::PointView point(uint64_t axis) const;

    mutable std::mutex mutex_;
    std::shared_ptr<const task::StatusSnapshot> current_;
    std::vector<task::OnlineChangeView> onlineChanges_;
    std::vector<task::ShardLockStatus> shardLocks_;
    std::vector<task::ShardColumnStatus> shardColumns_;
    std::deque<task::Notice> notices_;
    task::Stage stage_ = task::Stage::New;
    std::string reason_ = "not started";
    uint64_t sequence_ = 0;
    uint64_t upstream_;
    uint64_t read_;
    uint64_t applied_;
    uint64_t globalMemory_;
    uint64_t globalPersisted_;
    uint64_t exitSafe_;
    uint64_t rowsApplied_ = 0;
    double rowsPerSecond_ = 0;
    std::vector<TableState> tables_;
    std::optional<task::FailedEvent> failed_;
    std::optional<load::LoadProgressView> load_;
    bool causeFixed_ = false;
    int skips_ = 0;
    std::vector<task::ResumeTarget> resumeFromCalls_;
};

}  // namespace syncscope::test
