// The preview of one task's skip or resume-from (engine/verify/window_preview.h) from the task's own setup:
// its servers, routes and block-allow list, and the window found in the upstream's binlog (the failed row's
// whole transaction for a skip; between the persisted global point and the target for a resume-from).
// Shared by the GUI, the CLI and the HTTP API, so that each previews exactly what the task would do.
#pragma once

#include <atomic>

#include "engine/binlog/binlog_position.h"
#include "engine/common/error.h"
#include "engine/task/task_control.h"
#include "engine/task/task_setup.h"
#include "engine/verify/window_preview.h"

namespace syncscope::preview {

// The task's servers, route and block-allow list as a preview request without its window.
verify::WindowPreviewRequest windowRequestFor(const task::TaskSetup& setup);

// The window of a resume-from: forward from the persisted global point (its transactions are skipped) or
// back to the target (applied again, in safe mode).
struct ResumeWindow {
    binlog::BinlogPosition from;
    binlog::BinlogPosition to;
    bool skips = false;
};

// Throws Error naming both points: a target without FILE:POS (a GTID alone), an unknown global point, or
// a target at the global point itself (nothing to preview).
ResumeWindow resumeWindowOf(const task::PointView& persistedGlobal, const task::ResumeTarget& target);

// A resume-from target the upstream's binlog refuses: not a place to resume from, nothing changes.
class RefusedResumeTarget : public Error {
public:
    using Error::Error;
};

// Throws RefusedResumeTarget when the upstream's binlog refuses `target` as a resume point: a FILE:POS inside a
// transaction (its start and end named) or inside an event, a file it does not have (purged, or never written),
// a MariaDB GTID position of a domain it never wrote, beyond its history or in purged files. Throws Error
// when the binlog cannot be read.
void checkResumeTarget(const task::TaskSetup& setup, const task::ResumeTarget& target,
                       const std::atomic<bool>* cancel = nullptr);

// `target` with its FILE:POS: as given, or for a MariaDB GTID position alone, where the upstream's binlog
// goes on after it (the first transaction after it; the end of the newest file when none follows yet).
// Throws Error when the GTID is not in the upstream's history or the binlog cannot be read.
task::ResumeTarget locateResumeTarget(const task::TaskSetup& setup, const task::ResumeTarget& target,
                                      const std::atomic<bool>* cancel = nullptr);

// The failed row's transaction, found in the upstream's binlog around `failedEvent` (an event end), previewed.
// Throws Error when the transaction cannot be found, VerifyError when its window cannot be read.
verify::WindowPreview previewSkip(const task::TaskSetup& setup, const task::PointView& failedEvent,
                                  const std::atomic<bool>* cancel = nullptr);

verify::WindowPreview previewResumeFrom(const task::TaskSetup& setup, const ResumeWindow& window,
                                        const std::atomic<bool>* cancel = nullptr);

}  // namespace syncscope::preview
