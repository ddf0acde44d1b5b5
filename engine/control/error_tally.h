// Counts the errors the task ran into, by class, for /metrics: the status snapshot holds only the
// latest error, so the control server watches the snapshots and counts every entry into Error.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "engine/task/status_snapshot.h"

namespace syncscope::control {

// The label values of syncscope_errors_total: "retryable" and "needs_dba".
inline constexpr const char* kRetryableClass = "retryable";
inline constexpr const char* kNeedsDbaClass = "needs_dba";

// The class of the error a snapshot in stage Error shows (from the failed event, else the stage reason).
std::string errorClassOf(const task::StatusSnapshot& status);

class ErrorTally {
public:
    // Counts one error each time the stage enters Error or the error changes while in Error.
    void observe(const task::StatusSnapshot& status);
    // Every class, zero where none happened yet, so that the series always exist.
    std::map<std::string, uint64_t> counts() const;

private:
    mutable std::mutex mutex_;
    std::map<std::string, uint64_t> counts_{{kRetryableClass, 0}, {kNeedsDbaClass, 0}};
    bool inError_ = false;
    std::string lastError_;
};

}  // namespace syncscope::control
