// How a differential case is told to people: a one-line summary of its settings, and the Markdown
// block appended to the findings file for a divergence (seed, smallest workload as SQL, what differed,
// the command that replays it).
#pragma once

#include <string>
#include <vector>

#include "tests/integration/differential/case_runner.h"

namespace syncscope::differential {

std::string caseSummary(const CaseSpec& spec);

// The SQL of the schema and of the kept steps (all when empty), faults as comments.
std::string workloadText(const CaseSpec& spec, const std::vector<int>& kept);

std::string replayCommand(const CaseSpec& spec, const std::vector<int>& kept);

std::string divergenceReport(const CaseSpec& spec, const std::vector<int>& kept, const CaseOutcome& outcome,
                             int shrinkRuns, const std::string& commit);

}  // namespace syncscope::differential
