// The faults a differential case injects into the running engine, each followed by a check of the
// persisted checkpoint: SIGKILL and restart, pause/resume and stop/start through the control API, a
// downstream restart, a cut of the binlog stream, resume-from an earlier point, safe mode forced.
#pragma once

#include <string>
#include <vector>

#include "tests/integration/differential/checkpoint_check.h"
#include "tests/integration/differential/divergence.h"
#include "tests/integration/differential/engine_driver.h"
#include "tests/integration/differential/fuzz_random.h"
#include "tests/integration/differential/sql_session.h"

namespace syncscope::differential {

class FaultInjector {
public:
    FaultInjector(EngineDriver& engine, const FeatureSet& features, uint64_t seed)
        : engine_(engine), features_(features), random_(seed) {}

    // Injects `fault` before step `stepNumber`; earlier: upstream points at earlier step boundaries (for
    // resume-from). Divergences found on the way are appended to `found`.
    void inject(FaultKind fault, int stepNumber, const std::vector<BinlogPoint>& earlier, Divergences& found);

private:
    void checkPersisted(const std::string& where, Divergences& found);
    bool waitForStage(const std::string& stage, int timeoutMs);
    void restart(const std::string& why, Divergences& found);
    // Resume-from one of `earlier` the engine has applied: a random one, or the earliest (a replay over
    // as many steps, and their DDLs, as are kept).
    void resumeFrom(const std::vector<BinlogPoint>& earlier, bool earliest, const std::string& where,
                    Divergences& found);
    // Kills the engine's Binlog Dump thread and sees the engine resume the stream in place (its session's
    // reconnect count grows, no new session).
    void cutDump(const std::string& where, Divergences& found);
    void resume(const std::string& where, Divergences& found);

    EngineDriver& engine_;
    const FeatureSet& features_;
    FuzzRandom random_;
};

}  // namespace syncscope::differential
