#include "ui/engine/engine_adapter.h"

#include <QFutureWatcher>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <utility>

#include "engine/task/evidenced_resume_from.h"
#include "ui/engine/snapshot_release.h"

namespace syncscope::ui {

namespace {
constexpr int kMillisecondsPerSecond = 1000;
}

EngineAdapter::EngineAdapter(QObject* parent) : QObject(parent) {
    qRegisterMetaType<std::shared_ptr<const task::StatusSnapshot>>();
    qRegisterMetaType<task::CommandResult>();
    timer_.setTimerType(Qt::CoarseTimer);
    connect(&timer_, &QTimer::timeout, this, &EngineAdapter::refreshNow);
    setRefreshRate(kDefaultRefreshHz);
}

EngineAdapter::~EngineAdapter() {
    releaseTask();
}

void EngineAdapter::attachTask(std::shared_ptr<task::TaskControl> task) {
    releaseTask();
    task_ = std::move(task);
    last_.reset();
    if (task_) {
        timer_.start();
        refreshNow();
    } else {
        timer_.stop();
    }
}

void EngineAdapter::releaseTask() {
    if (!task_) {
        return;
    }
    // This may be the last reference to the engine's Task, whose destructor stops it and joins its
    // threads (waiting on the network at worst): let it go on a worker thread, never on the GUI thread.
    // The application's thread pool waits for it at exit.
    QThreadPool::globalInstance()->start([task = std::move(task_)]() mutable { task.reset(); });
    task_.reset();
}

void EngineAdapter::detachTask() {
    attachTask(nullptr);
}

void EngineAdapter::setLogRing(std::shared_ptr<LogRing> ring) {
    logRing_ = std::move(ring);
    if (logRing_ && !timer_.isActive()) {
        timer_.start();
    }
}

void EngineAdapter::setRefreshRate(int hz) {
    refreshHz_ = std::clamp(hz, kMinRefreshHz, kMaxRefreshHz);
    timer_.setInterval(kMillisecondsPerSecond / refreshHz_);
}

void EngineAdapter::refreshNow() {
    const auto began = std::chrono::steady_clock::now();
    if (task_) {
        auto snapshot = task_->status();
        if (snapshot && (!last_ || snapshot->sequence != last_->sequence || snapshot.get() != last_.get())) {
            std::shared_ptr<const task::StatusSnapshot> previous = std::exchange(last_, std::move(snapshot));
            emit snapshotChanged(last_);
            // The views have let the previous snapshot go; the last reference is dropped off the GUI thread.
            releaseOffTheGuiThread(std::move(previous));
        }
        auto notices = task_->drainNotices(kNoticesPerTick);
        if (!notices.empty()) {
            emit noticesArrived(notices);
        }
    }
    if (logRing_) {
        LogBatch batch = logRing_->drain(kLogLinesPerTick);
        if (!batch.lines.empty() || batch.dropped > 0) {
            emit logLinesArrived(batch.lines, batch.dropped);
        }
    }
    lastRefreshCost_ = std::chrono::steady_clock::now() - began;
    emit refreshed();
}

void EngineAdapter::start() {
    runCommand(tr("Start"), [](task::TaskControl& task) { return task.start(); });
}

void EngineAdapter::pause() {
    runCommand(tr("Pause"), [](task::TaskControl& task) { return task.pause(); });
}

void EngineAdapter::resume() {
    runCommand(tr("Resume"), [](task::TaskControl& task) { return task.resume(); });
}

void EngineAdapter::stop() {
    runCommand(tr("Stop"), [](task::TaskControl& task) { return task.stop(); });
}

void EngineAdapter::skipFailedEvent() {
    skipFailedEventWith({});
}

void EngineAdapter::skipFailedEventWith(const task::SkipEvidence& evidence) {
    runCommand(tr("Skip failed event"), [evidence](task::TaskControl& task) { return task.skipFailedEvent(evidence); });
}

void EngineAdapter::resumeFrom(const task::ResumeTarget& target) {
    resumeFromWith(target, {});
}

void EngineAdapter::resumeFromWith(const task::ResumeTarget& target, const task::SkipEvidence& evidence) {
    runCommand(tr("Resume from"), [target, evidence](task::TaskControl& task) {
        return task::resumeFromWithEvidence(task, target, evidence);
    });
}

void EngineAdapter::stopAt(const QString& point) {
    runCommand(tr("Stop at"), [point = point.toStdString()](task::TaskControl& task) { return task.stopAt(point); });
}

void EngineAdapter::unlockShardDdl(const QString& target) {
    runCommand(tr("Unlock the shard DDL lock on %1").arg(target),
               [target = target.toStdString()](task::TaskControl& task) { return task.unlockShardDdl(target, false); });
}

void EngineAdapter::previewShardUnlock(const QString& target) {
    if (!task_) {
        emit shardUnlockPreviewed(target, {false, "no task is open"});
        return;
    }
    // Off the GUI thread (a remote engine's preview is an HTTP request); the task is held, never this object.
    auto* watcher = new QFutureWatcher<task::CommandResult>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, target] {
        const task::CommandResult preview = watcher->result();
        watcher->deleteLater();
        emit shardUnlockPreviewed(target, preview);
    });
    watcher->setFuture(QtConcurrent::run([task = task_, name = target.toStdString()]() -> task::CommandResult {
        try {
            return task->unlockShardDdl(name, true);
        } catch (const std::exception& error) {
            return {false, std::string("the preview failed: ") + error.what()};
        }
    }));
}

void EngineAdapter::runCommand(const QString& name, Command command) {
    if (!task_) {
        emit commandFinished(name, {false, "no task is open"});
        return;
    }
    ++commandsInFlight_;
    emit commandStarted(name);
    // The worker holds only the task and the command, never this object: the result comes back
    // through the watcher, which lives in the GUI thread.
    auto* watcher = new QFutureWatcher<task::CommandResult>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, name] {
        --commandsInFlight_;
        const task::CommandResult result = watcher->result();
        watcher->deleteLater();
        emit commandFinished(name, result);
        refreshNow();
    });
    watcher->setFuture(QtConcurrent::run([task = task_, command = std::move(command)]() -> task::CommandResult {
        try {
            return command(*task);
        } catch (const std::exception& error) {
            return {false, std::string("the command failed: ") + error.what()};
        }
    }));
}

}  // namespace syncscope::ui
