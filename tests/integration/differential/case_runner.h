// Runs one differential case end to end: fresh database on the upstream, our downstream and the native
// replica (created outside the binlog), the replica and the engine pointed at the same upstream point,
// the kept steps (statements on the upstream, faults against the engine), then both caught up to the
// upstream's end and compared, and the checkpoint invariants checked at every fault and after a
// graceful stop.
#pragma once

#include <string>
#include <vector>

#include "tests/integration/differential/divergence.h"
#include "tests/integration/differential/workload.h"

namespace syncscope::differential {

constexpr const char* kCaseDatabase = "syncscope_fuzz";

struct RunOptions {
    std::string workDir;       // task files and engine logs go below it
    int catchUpSeconds = 120;  // how long the engine may take to reach the upstream's end
    bool verbose = false;      // print each step and fault
};

struct CaseOutcome {
    Divergences divergences;
    std::string oracleProblem;  // the native replica itself failed: the case proves nothing
    int stepsRun = 0;
    int stepsFailedUpstream = 0;  // statements the upstream refused (a duplicate key, a missing parent)
    int faults = 0;
    double seconds = 0;
    bool passed() const { return divergences.empty() && oracleProblem.empty(); }
};

// keep: the step numbers to run (all when empty).
CaseOutcome runCase(const CaseSpec& spec, const std::vector<int>& keep, const RunOptions& options);

}  // namespace syncscope::differential
