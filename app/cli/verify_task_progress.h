// How `syncscope-cli verify` learns where the replicating task stands (engine/verify/task_progress.h):
// from its control API (exact and live: the applied point), or from its persisted checkpoint (exact
// but only as fresh as the last flush), or not at all (no task replicates these tables).
#pragma once

#include <memory>
#include <string>

#include "engine/common/server_settings.h"
#include "engine/verify/task_progress.h"

namespace syncscope::cli {

// GET /api/v1/status of `syncscope-cli run --listen HOST:PORT`: the applied point (every event up to
// it committed downstream). `address` is [http[s]://]HOST:PORT; https with the CA in `caFile` (the
// system's store when empty); the bearer token is the first line of `tokenFile` (none when empty).
std::unique_ptr<verify::TaskProgress> controlApiProgress(const std::string& address, const std::string& caFile,
                                                         const std::string& tokenFile);

// The task's persisted global point in <metaSchema>.<task>_syncer_checkpoint. No checkpoint table or no
// global row for the source: no task (NoTask).
std::unique_ptr<verify::TaskProgress> checkpointProgress(const ServerSettings& downstream,
                                                         const std::string& metaSchema, const std::string& task,
                                                         const std::string& sourceId);

}  // namespace syncscope::cli
