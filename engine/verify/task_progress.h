// Where the replicating task stands, as the verifier asks it: has the task applied everything the
// upstream had committed up to a point? A verify that runs beside a live task waits for that before
// it trusts a row difference (online_exactness in README.md).
#pragma once

#include <mutex>
#include <string>

#include "engine/binlog/location.h"

namespace syncscope::verify {

enum class AppliedAnswer : uint8_t {
    Applied,  // the task has applied up to the point (or further)
    NotYet,   // it has not yet: ask again
    NoTask,   // nothing replicates into these tables: the downstream is what it is
};

class TaskProgress {
public:
    virtual ~TaskProgress() = default;
    virtual AppliedAnswer appliedUpTo(const binlog::Location& upstreamPoint) = 0;
    // "no running task", "the task's persisted checkpoint", "the control API at ..." for reports.
    virtual std::string describe() const = 0;
};

// Asks `inner` one caller at a time: tables compared at the same time share one (a connection or an
// HTTP client that is not safe to use from two threads at once).
class SerializedTaskProgress : public TaskProgress {
public:
    explicit SerializedTaskProgress(TaskProgress& inner) : inner_(inner) {}
    AppliedAnswer appliedUpTo(const binlog::Location& upstreamPoint) override {
        std::lock_guard lock(mutex_);
        return inner_.appliedUpTo(upstreamPoint);
    }
    std::string describe() const override { return inner_.describe(); }

private:
    TaskProgress& inner_;
    std::mutex mutex_;
};

// For a verify with no task running: every difference is real at once.
class NoRunningTask : public TaskProgress {
public:
    AppliedAnswer appliedUpTo(const binlog::Location&) override { return AppliedAnswer::NoTask; }
    std::string describe() const override { return "no running task"; }
};

}  // namespace syncscope::verify
