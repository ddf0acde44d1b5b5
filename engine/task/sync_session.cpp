#include "engine/task/sync_session.h"

#include <spdlog/spdlog.h>

#include <chrono>

#include "engine/task/sync_pipeline.h"

namespace syncscope::task {

SyncSession::SyncSession(const TaskSetup& setup, checkpoint::CheckpointTracker& tracker)
    : pipeline_(std::make_unique<SyncPipeline>(setup, tracker)) {}

SyncSession::~SyncSession() = default;

SessionOutcome SyncSession::run(const std::optional<SkipRequest>& skip, const std::atomic<bool>& interrupt) {
    return pipeline_->run(skip, interrupt);
}

void SyncSession::cancel() {
    pipeline_->cancel();
}

SessionLiveView SyncSession::live() const {
    return pipeline_->live();
}

}  // namespace syncscope::task
