// The GUI's side of a running task. It pulls the engine's status snapshot on a timer (4 to 10 times a
// second), emits it only when it changed, drains notices and log lines in batches, and runs commands
// on a worker thread so that the GUI thread never waits on the engine or the network.
#pragma once

#include <QObject>
#include <QTimer>
#include <chrono>
#include <memory>
#include <vector>

#include "engine/common/log_ring.h"
#include "engine/task/task_control.h"

namespace syncscope::ui {

class EngineAdapter : public QObject {
    Q_OBJECT

public:
    static constexpr int kMinRefreshHz = 4;
    static constexpr int kMaxRefreshHz = 10;
    static constexpr int kDefaultRefreshHz = 8;
    static constexpr size_t kNoticesPerTick = 256;
    static constexpr size_t kLogLinesPerTick = 5000;

    explicit EngineAdapter(QObject* parent = nullptr);
    ~EngineAdapter() override;

    void attachTask(std::shared_ptr<task::TaskControl> task);
    void detachTask();
    bool hasTask() const { return task_ != nullptr; }
    void setLogRing(std::shared_ptr<LogRing> ring);

    // Clamped to [kMinRefreshHz, kMaxRefreshHz].
    void setRefreshRate(int hz);
    int refreshRate() const { return refreshHz_; }
    bool isPolling() const { return timer_.isActive(); }

    std::shared_ptr<const task::StatusSnapshot> lastSnapshot() const { return last_; }
    // GUI-thread time of the last refresh, the views' updates included (the benchmark prints it).
    std::chrono::nanoseconds lastRefreshCost() const { return lastRefreshCost_; }
    int commandsInFlight() const { return commandsInFlight_; }

    void start();
    void pause();
    void resume();
    void stop();
    void skipFailedEvent();
    // The skip with what the DBA was shown (its replay SQL file), kept in the skip's audit entry.
    void skipFailedEventWith(const task::SkipEvidence& evidence);
    void resumeFrom(const task::ResumeTarget& target);
    // The resume-from with the replay SQL of the rows it skips going forward, kept in its audit entry.
    void resumeFromWith(const task::ResumeTarget& target, const task::SkipEvidence& evidence);
    // Pause by itself at FILE:POS, a GTID or a time ("" clears the stop point).
    void stopAt(const QString& point);
    // The DBA's unlock of the waiting shard DDL lock on the merged table TARGET ("schema.table"): its preview
    // comes back as shardUnlockPreviewed; the unlock itself is a command (commandFinished).
    void previewShardUnlock(const QString& target);
    void unlockShardDdl(const QString& target);

public slots:
    // One refresh: status, notices, log lines. The timer calls it; tests call it directly.
    void refreshNow();

signals:
    void snapshotChanged(std::shared_ptr<const task::StatusSnapshot> snapshot);
    void noticesArrived(const std::vector<task::Notice>& notices);
    void logLinesArrived(const std::vector<LogLine>& lines, uint64_t dropped);
    // After every refresh, changed or not: the header's "age of the data" moves on.
    void refreshed();
    void commandStarted(const QString& command);
    void commandFinished(const QString& command, const task::CommandResult& result);
    // What the unlock of the lock on TARGET would do (accepted), or why there is nothing to unlock.
    void shardUnlockPreviewed(const QString& target, const task::CommandResult& preview);

private:
    using Command = std::function<task::CommandResult(task::TaskControl&)>;
    void runCommand(const QString& name, Command command);
    void releaseTask();

    std::shared_ptr<task::TaskControl> task_;
    std::shared_ptr<LogRing> logRing_;
    std::shared_ptr<const task::StatusSnapshot> last_;
    QTimer timer_;
    int refreshHz_ = kDefaultRefreshHz;
    int commandsInFlight_ = 0;
    std::chrono::nanoseconds lastRefreshCost_{0};
};

}  // namespace syncscope::ui

Q_DECLARE_METATYPE(std::shared_ptr<const syncscope::task::StatusSnapshot>)
Q_DECLARE_METATYPE(syncscope::task::CommandResult)
