#include "tests/integration/differential/shrinker.h"

#include <algorithm>
#include <chrono>

namespace syncscope::differential {

namespace {

bool hasKind(const CaseOutcome& outcome, const std::string& kind) {
    return std::any_of(outcome.divergences.begin(), outcome.divergences.end(),
                       [&](const Divergence& d) { return d.kind == kind; });
}

}  // namespace

ShrinkResult shrinkCase(const CaseSpec& spec, const std::string& kind, const CaseOutcome& firstFailure,
                        const RunOptions& options, double budgetSeconds,
                        const std::function<void(const std::string&)>& progress) {
    ShrinkResult result;
    for (const auto& step : spec.steps) {
        result.kept.push_back(step.number);
    }
    result.outcome = firstFailure;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(budgetSeconds);
    size_t chunk = std::max<size_t>(1, result.kept.size() / 2);
    while (std::chrono::steady_clock::now() < deadline) {
        bool removedAny = false;
        for (size_t begin = 0; begin < result.kept.size() && std::chrono::steady_clock::now() < deadline;) {
            std::vector<int> trial(result.kept.begin(), result.kept.begin() + static_cast<long>(begin));
            size_t end = std::min(result.kept.size(), begin + chunk);
            trial.insert(trial.end(), result.kept.begin() + static_cast<long>(end), result.kept.end());
            if (trial.empty()) {
                ++begin;
                continue;
            }
            CaseOutcome outcome = runCase(spec, trial, options);
            ++result.runs;
            if (outcome.oracleProblem.empty() && hasKind(outcome, kind)) {
                result.kept = trial;
                result.outcome = outcome;
                removedAny = true;
                progress("shrink: still fails with " + std::to_string(trial.size()) + " steps (" + stepList(trial) +
                         ")");
            } else {
                begin += chunk;
            }
        }
        if (chunk == 1 && !removedAny) {
            break;
        }
        chunk = std::max<size_t>(1, chunk / 2);
    }
    return result;
}

}  // namespace syncscope::differential
