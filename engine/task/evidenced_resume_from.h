// A resume-from that keeps, in its own audit entry, what the DBA was shown of the rows it skips going forward:
// their replayable SQL file and the preview's counts (SkipEvidence, as a skip keeps them). Beside TaskControl
// rather than in it, so that the command surface's header, included nearly everywhere, did not change with it.
#pragma once

#include "engine/task/task_control.h"

namespace syncscope::task {

class EvidencedResumeFrom {
public:
    // As TaskControl::resumeFrom; `evidence` goes into the resume-from's audit entry when the point is written.
    virtual CommandResult resumeFrom(const ResumeTarget& target, const SkipEvidence& evidence) = 0;

protected:
    ~EvidencedResumeFrom() = default;
};

// `task`'s resume-from with `evidence` in its audit entry when `task` keeps it; else the plain resume-from (a
// remote engine's own API saves what it skips; a replica channel has no audit entry of its own to name it in).
inline CommandResult resumeFromWithEvidence(TaskControl& task, const ResumeTarget& target,
                                            const SkipEvidence& evidence) {
    if (auto* keeping = dynamic_cast<EvidencedResumeFrom*>(&task)) {
        return keeping->resumeFrom(target, evidence);
    }
    return task.resumeFrom(target);
}

}  // namespace syncscope::task
