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
    std::string workDir;  // task files and engine logs go below it
    // The engine may take as long as it keeps applying (rows or points move) to reach the upstream's end:
    // it fails the case when nothing moved for catchUpSeconds, or when catching up took catchUpCapSeconds.
    int catchUpSeconds = 120;
    int catchUpCapSeconds = 1800;
    bool verbose = false;  // print each step and fault
};

struct CaseOutcome {
    Divergences divergences;
    std::string oracleProblem;  // the native replica itself failed: the case proves nothing
    int stepsRun = 0;
    int stepsFailedUpstream = 0;  // statements the upstream refused (a duplicate key, a missing parent)
    int faults = 0;
    double seconds = 0;
    double catchUpSeconds = 0;  // from the upstream's end to the engine reaching it
    uint64_t catchUpRows = 0;   // rows the engine applied meanwhile (its status's total_rows)
    // Catching up took longer than the stall window: not a divergence, but shown, so that a slow case
    // (a small batch against a large transaction) stays visible.
    bool slowCatchUp(const RunOptions& options) const { return catchUpSeconds > options.catchUpSeconds; }
    bool passed() const { return divergences.empty() && oracleProblem.empty(); }
};

// keep: the step numbers to run (all when empty).
CaseOutcome runCase(const CaseSpec& spec, const std::vector<int>& keep, const RunOptions& options);

}  // namespace syncscope::differential
