// The load stage of `task-mode: all` and `full`, run by the Task before the sync stage: it copies
// the snapshot (engine/load) and, for `all`, writes the syncer checkpoint that starts incremental
// replication at the snapshot's point with safe mode until the last snapshot's point is passed.
// Once the syncer checkpoint exists the load is over and a restart goes straight to the sync stage.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>

#include "engine/load/load_progress.h"
#include "engine/task/session_live_view.h"
#include "engine/task/session_outcome.h"
#include "engine/task/task_setup.h"

namespace syncscope::task {

class LoadStage {
public:
    explicit LoadStage(const TaskSetup& setup);

    // task-mode all or full.
    bool enabled() const { return enabled_; }
    // task-mode full: the task stops when the load is done.
    bool stopsAfterLoad() const { return stopsAfterLoad_; }
    bool finished() const { return finished_; }

    // Runs the load unless it is done. nullopt: done, go on (to the sync stage, or stop for full);
    // otherwise the outcome to report (Interrupted, or Failed with the error and whether it is retryable).
    // `copying` is called once the stage knows a load really runs (not one a checkpoint says finished).
    std::optional<SessionOutcome> run(const std::atomic<bool>& interrupt, const std::function<void()>& copying = {});

    // For the status snapshot; nullopt for task-mode incremental.
    std::optional<load::LoadProgressView> progress() const;
    // "full load finished: 3 tables, 120000 rows, 8.1 MB" for the stage reason.
    std::string summary() const { return summary_; }

private:
    TaskSetup setup_;
    bool enabled_ = false;
    bool stopsAfterLoad_ = false;
    bool removePlanFirst_ = false;
    std::atomic<bool> finished_{false};
    std::string summary_;
    load::LoadProgress progress_;
};

}  // namespace syncscope::task
