#include "engine/apply/concurrency_controller.h"

#include <algorithm>
#include <cmath>

namespace syncscope::apply {

namespace {

std::string percent(double ratio) {
    long rounded = std::lround((ratio - 1) * 100);
    return (rounded >= 0 ? "+" : "") + std::to_string(rounded) + "%";
}

std::string transactionsText(size_t limit) {
    return std::to_string(limit) + (limit == 1 ? " transaction" : " transactions");
}

}  // namespace

ConcurrencyController::ConcurrencyController(size_t ceiling, size_t initial)
    : ceiling_(std::max<size_t>(ceiling, 1)), limit_(std::clamp<size_t>(initial, 1, ceiling_)) {
    reason_ = "starting at " + transactionsText(limit_) + " at once (worker-count " + std::to_string(ceiling_) +
              " is the ceiling)";
}

ConcurrencyStep ConcurrencyController::setLimit(size_t limit, std::string reason) {
    limit = std::clamp<size_t>(limit, 1, ceiling_);
    bool changed = limit != limit_;
    limit_ = limit;
    reason_ = std::move(reason);
    return ConcurrencyStep{limit_, changed, reason_};
}

ConcurrencyStep ConcurrencyController::keep(std::string reason) {
    reason_ = std::move(reason);
    return ConcurrencyStep{limit_, false, reason_};
}

ConcurrencyStep ConcurrencyController::observe(const ConcurrencyWindow& window) {
    if (!window.saturated) {
        // Nothing to learn: the workers never had more ready batches than they were allowed to run.
        if (phase_ == Phase::ProbingUp || phase_ == Phase::ProbingDown) {
            phase_ = Phase::Measuring;
        }
        return keep("every ready batch runs at once (" + transactionsText(limit_) + " allowed)");
    }
    if (window.transactions < kMinTransactions || window.seconds <= 0) {
        return keep("measuring at " + transactionsText(limit_) + " (too few commits to compare yet)");
    }
    double rowsPerSecond = double(window.rows) / window.seconds;
    double latency = window.busySeconds / double(window.transactions);
    switch (phase_) {
        case Phase::Measuring:
            reference_ = Reference{limit_, rowsPerSecond, latency};
            nextProbeUp_ = true;  // a fresh start climbs first
            return startProbe(rowsPerSecond, latency);
        case Phase::ProbingUp:
        case Phase::ProbingDown:
            return judgeProbe(rowsPerSecond, latency);
        case Phase::Holding:
            return hold(rowsPerSecond, latency);
    }
    return keep(reason_);
}

ConcurrencyStep ConcurrencyController::startProbe(double rowsPerSecond, double latency) {
    reference_ = Reference{limit_, rowsPerSecond, latency};
    heldWindows_ = 0;
    bool up = (nextProbeUp_ && limit_ < ceiling_) || limit_ == 1;
    nextProbeUp_ = !nextProbeUp_;
    if (up && limit_ < ceiling_) {
        phase_ = Phase::ProbingUp;
        return setLimit(limit_ + 1, "trying " + transactionsText(limit_ + 1) + " at once (" +
                                        std::to_string(std::lround(rowsPerSecond)) + " rows/s at " +
                                        std::to_string(limit_) + ")");
    }
    if (!up && limit_ > 1) {
        phase_ = Phase::ProbingDown;
        return setLimit(limit_ - 1, "trying " + transactionsText(limit_ - 1) + " at once (" +
                                        std::to_string(std::lround(rowsPerSecond)) + " rows/s at " +
                                        std::to_string(limit_) + ")");
    }
    phase_ = Phase::Holding;
    return keep("holding " + transactionsText(limit_) + " at once (worker-count " + std::to_string(ceiling_) +
                " is the ceiling)");
}

ConcurrencyStep ConcurrencyController::judgeProbe(double rowsPerSecond, double latency) {
    double gain = reference_.rowsPerSecond > 0 ? rowsPerSecond / reference_.rowsPerSecond : 1.0;
    size_t tried = limit_;
    size_t before = reference_.limit;
    if (phase_ == Phase::ProbingUp) {
        double needed = std::max(kRaiseGain, kScalingShare / double(before));
        if (gain >= 1 + needed) {
            reference_ = Reference{tried, rowsPerSecond, latency};
            if (tried < ceiling_) {
                return setLimit(tried + 1, std::to_string(tried) + " at once gave " + percent(gain) + " rows/s over " +
                                               std::to_string(before) + ": trying " + std::to_string(tried + 1));
            }
            phase_ = Phase::Holding;
            return keep(std::to_string(tried) + " at once gave " + percent(gain) + " rows/s over " +
                        std::to_string(before) + "; worker-count " + std::to_string(ceiling_) + " is the ceiling");
        }
        phase_ = Phase::Holding;
        bool congested = reference_.latency > 0 && latency > reference_.latency * (1 + kLatencyGrowth);
        return setLimit(before, congested ? std::to_string(tried) + " at once raised commit latency " +
                                                percent(latency / reference_.latency) + " without more rows/s (" +
                                                percent(gain) + "): back to " + std::to_string(before)
                                          : std::to_string(tried) + " at once gave no more rows/s (" + percent(gain) +
                                                "): back to " + std::to_string(before));
    }
    if (gain >= 1 - kLowerLoss) {
        reference_ = Reference{tried, rowsPerSecond, latency};
        phase_ = Phase::Holding;
        return keep(std::to_string(tried) + " at once keep the rows/s of " + std::to_string(before) + " (" +
                    percent(gain) + ") with fewer transactions: holding " + std::to_string(tried));
    }
    phase_ = Phase::Holding;
    return setLimit(before, std::to_string(tried) + " at once lost rows/s (" + percent(gain) + "): back to " +
                                std::to_string(before));
}

ConcurrencyStep ConcurrencyController::hold(double rowsPerSecond, double latency) {
    double ratio = reference_.rowsPerSecond > 0 ? rowsPerSecond / reference_.rowsPerSecond : 1.0;
    bool congested = reference_.latency > 0 && latency > reference_.latency * (1 + kLatencyGrowth);
    if (ratio < kCollapse && congested && limit_ > 1) {
        size_t halved = std::max<size_t>(1, limit_ / 2);
        std::string why = "rows/s " + percent(ratio) + " with commit latency " + percent(latency / reference_.latency) +
                          " at " + std::to_string(limit_) + ": down to " + std::to_string(halved);
        phase_ = Phase::Measuring;
        return setLimit(halved, why);
    }
    reference_.rowsPerSecond = (1 - kSmoothing) * reference_.rowsPerSecond + kSmoothing * rowsPerSecond;
    reference_.latency = (1 - kSmoothing) * reference_.latency + kSmoothing * latency;
    if (++heldWindows_ >= kHoldWindows) {
        return startProbe(reference_.rowsPerSecond, reference_.latency);
    }
    return ConcurrencyStep{limit_, false, reason_};  // the decision that set the limit still holds
}

}  // namespace syncscope::apply
