// Shrinks a failing case: drops steps (halves, then quarters, ... then single steps) while the case
// still fails with the same kind of divergence, so that the report names the smallest workload found.
// Faults are steps too, so a divergence that needs no fault loses its faults.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tests/integration/differential/case_runner.h"

namespace syncscope::differential {

struct ShrinkResult {
    std::vector<int> kept;  // step numbers
    CaseOutcome outcome;    // the last failing run on `kept`
    int runs = 0;
};

// `kind`: the divergence kind that must still be present. Stops trying after `budgetSeconds`.
ShrinkResult shrinkCase(const CaseSpec& spec, const std::string& kind, const CaseOutcome& firstFailure,
                        const RunOptions& options, double budgetSeconds,
                        const std::function<void(const std::string&)>& progress);

}  // namespace syncscope::differential
