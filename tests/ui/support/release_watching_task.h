// A task whose snapshots say on which thread they were freed, for the GUI suites that prove a replaced snapshot is
// let go off the GUI thread (ui/engine/snapshot_release.h).
#pragma once

#include <QThread>

#include <atomic>
#include <memory>

#include "engine/task/task_control.h"

namespace syncscope::test {

class ReleaseWatchingTask : public task::TaskControl {
public:
    ReleaseWatchingTask() { publishNext(); }
    std::shared_ptr<const task::StatusSnapshot> status() const override { return snapshot_; }
    std::vector<task::Notice> drainNotices(size_t) override { return {}; }
    task::CommandResult start() override { return {false, "not here"}; }
    task::CommandResult pause() override { return {false, "not here"}; }
    task::CommandResult resume() override { return {false, "not here"}; }
    task::CommandResult stop() override { return {false, "not here"}; }
    task::CommandResult skipFailedEvent(const task::SkipEvidence&) override { return {false, "not here"}; }
    task::CommandResult resumeFrom(const task::ResumeTarget&) override { return {false, "not here"}; }

    // The engine publishes a new snapshot and lets go of its old one.
    void publishNext() {
        auto next = std::make_unique<task::StatusSnapshot>();
        next->sequence = ++sequence_;
        next->stage = task::Stage::Running;
        snapshot_ =
            std::shared_ptr<const task::StatusSnapshot>(next.release(), [this](const task::StatusSnapshot* freed) {
                freedOn_ = QThread::currentThread();
                delete freed;
            });
    }
    QThread* freedOn() const { return freedOn_; }

private:
    std::atomic<QThread*> freedOn_{nullptr};  // before snapshot_: still there when the last one is freed
    uint64_t sequence_ = 0;
    std::shared_ptr<const task::StatusSnapshot> snapshot_;
};

}  // namespace syncscope::test
