#include "engine/control/error_tally.h"

namespace syncscope::control {

namespace {

// How the task words a stage reason of a retryable error (task.cpp: "retryable: ...; retrying").
constexpr std::string_view kRetryablePrefix = "retryable";

}  // namespace

std::string errorClassOf(const task::StatusSnapshot& status) {
    if (status.failedEvent && !status.failedEvent->errorClass.empty()) {
        return status.failedEvent->errorClass == "retryable" ? kRetryableClass : kNeedsDbaClass;
    }
    return status.stageReason.starts_with(kRetryablePrefix) ? kRetryableClass : kNeedsDbaClass;
}

void ErrorTally::observe(const task::StatusSnapshot& status) {
    std::lock_guard lock(mutex_);
    bool inError = status.stage == task::Stage::Error;
    std::string error = status.lastError.empty() ? status.stageReason : status.lastError;
    if (inError && (!inError_ || error != lastError_)) {
        ++counts_[errorClassOf(status)];
    }
    inError_ = inError;
    lastError_ = inError ? error : std::string();
}

std::map<std::string, uint64_t> ErrorTally::counts() const {
    std::lock_guard lock(mutex_);
    return counts_;
}

}  // namespace syncscope::control
