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

// 12345 -> "12,345"
std::string grouped(uint64_t value) {
    const std::string digits = std::to_string(value);
    std::string text;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) {
            text += ',';
        }
        text += digits[i];
    }
    return text;
}

}  // namespace

ConcurrencyController::ConcurrencyController(size_t ceiling) : ConcurrencyController(ceiling, kStartLimit) {}

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

void ConcurrencyController::Sum::add(const ConcurrencyWindow& window) {
    ++windows;
    seconds += window.seconds;
    rows += window.rows;
    transactions += window.transactions;
    busySeconds += window.busySeconds;
    if (window.purgeBacklog) {
        if (!firstBacklog) {
            firstBacklog = window.purgeBacklog;
        } else {
            backlogTransactions += window.transactions;
        }
        lastBacklog = window.purgeBacklog;
    }
}

ConcurrencyController::Purge ConcurrencyController::purgeOver(const Sum& sum) {
    if (!sum.firstBacklog || sum.backlogTransactions == 0) {
        return Purge::Unknown;
    }
    const double grown = double(*sum.lastBacklog) - double(*sum.firstBacklog);
    const double committed = double(sum.backlogTransactions);
    if (*sum.lastBacklog <= kPurgeFloor || grown <= kPurgeShare * committed) {
        return Purge::KeepsUp;
    }
    return grown >= kPurgeHeldShare * committed ? Purge::HeldElsewhere : Purge::FallsBehind;
}

std::string ConcurrencyController::purgeText(const Sum& sum) {
    if (!sum.firstBacklog || !sum.lastBacklog) {
        return "purge backlog unknown";
    }
    const uint64_t first = *sum.firstBacklog;
    const uint64_t last = *sum.lastBacklog;
    return "history list " + grouped(last) + ", " +
           (last >= first ? "+" + grouped(last - first) : "-" + grouped(first - last)) + " over " +
           grouped(sum.backlogTransactions) + " commits";
}

size_t ConcurrencyController::higherThan(size_t limit) const {
    size_t step = std::max<size_t>(1, limit / 2);
    if (failedAbove_ > limit) {
        step = std::min(step, std::max<size_t>(1, (failedAbove_ - limit) / 2));  // between here and what failed
    }
    return std::min(ceiling_, limit + step);
}

size_t ConcurrencyController::lowerThan(size_t limit) const {
    return std::max<size_t>(1, limit - std::max<size_t>(1, limit / 4));
}

double ConcurrencyController::neededGain(size_t lower, size_t higher) {
    return std::max(kRaiseGain, kScalingShare * double(higher - lower) / double(lower));
}

ConcurrencyStep ConcurrencyController::observe(const ConcurrencyWindow& window) {
    if (!window.saturated) {
        // Nothing to learn: the workers never had more ready batches than they were allowed to run.
        if (phase_ != Phase::Holding) {
            phase_ = Phase::Measuring;
        }
        sum_ = Sum{};
        heldSum_ = Sum{};
        return keep("every ready batch runs at once (" + transactionsText(limit_) + " allowed)");
    }
    if (window.seconds <= 0) {
        return keep(reason_);
    }
    if (phase_ == Phase::Holding) {
        if (window.transactions < kMinTransactions) {
            return keep("measuring at " + transactionsText(limit_) + " (too few commits to compare yet)");
        }
        return hold(window);
    }
    // A measurement takes thin windows too: at a limit where the downstream commits a few transactions a
    // second, dropping them would leave the limit there for good.
    sum_.add(window);
    if (sum_.windows < kMeasureWindows || sum_.transactions < kMinTransactions) {
        return ConcurrencyStep{limit_, false, reason_};
    }
    const Sum measured = sum_;
    sum_ = Sum{};
    switch (phase_) {
        case Phase::Measuring:
            nextProbeUp_ = true;  // a fresh start climbs first
            return startProbe(measured.rowsPerSecond(), measured.latency());
        case Phase::ProbingUp:
        case Phase::ProbingDown:
            // Back to the reference limit, measured again: the probe is judged against the two measurements
            // around it, so that a downstream speeding up or slowing down meanwhile does not decide.
            probe_ = Reference{limit_, measured.rowsPerSecond(), measured.latency()};
            probeMeasured_ = measured;
            probeUp_ = phase_ == Phase::ProbingUp;
            phase_ = Phase::Rechecking;
            return setLimit(reference_.limit, "measuring " + std::to_string(reference_.limit) + " again after " +
                                                  std::to_string(probe_.limit) + " (" +
                                                  std::to_string(std::lround(probe_.rowsPerSecond)) + " rows/s)");
        case Phase::Rechecking:
            reference_.rowsPerSecond = (reference_.rowsPerSecond + measured.rowsPerSecond()) / 2;
            reference_.latency = (reference_.latency + measured.latency()) / 2;
            return judgeProbe(measured);
        case Phase::Holding:
            break;
    }
    return keep(reason_);
}

ConcurrencyStep ConcurrencyController::startProbe(double rowsPerSecond, double latency) {
    reference_ = Reference{limit_, rowsPerSecond, latency};
    heldWindows_ = 0;
    heldSum_ = Sum{};
    collapsingWindows_ = 0;
    sum_ = Sum{};
    bool up = (nextProbeUp_ && limit_ < ceiling_) || limit_ == 1;
    nextProbeUp_ = !nextProbeUp_;
    const std::string measured =
        " (" + std::to_string(std::lround(rowsPerSecond)) + " rows/s at " + std::to_string(limit_) + ")";
    if (up && limit_ < ceiling_) {
        phase_ = Phase::ProbingUp;
        return setLimit(higherThan(limit_), "trying " + transactionsText(higherThan(limit_)) + " at once" + measured);
    }
    if (!up && limit_ > 1) {
        phase_ = Phase::ProbingDown;
        return setLimit(lowerThan(limit_), "trying " + transactionsText(lowerThan(limit_)) + " at once" + measured);
    }
    phase_ = Phase::Holding;
    return keep("holding " + transactionsText(limit_) + " at once (worker-count " + std::to_string(ceiling_) +
                " is the ceiling)");
}

ConcurrencyStep ConcurrencyController::judgeProbe(const Sum& recheck) {
    const Purge probePurge = purgeOver(probeMeasured_);
    const double gain = reference_.rowsPerSecond > 0 ? probe_.rowsPerSecond / reference_.rowsPerSecond : 1.0;
    const size_t tried = probe_.limit;
    const size_t before = reference_.limit;
    phase_ = Phase::Holding;
    if (probeUp_) {
        if (probePurge == Purge::FallsBehind) {
            failedAbove_ = tried;
            return keep(std::to_string(tried) + " at once left the downstream's purge behind (" +
                        purgeText(probeMeasured_) + "): holding " + std::to_string(before));
        }
        if (gain >= 1 + neededGain(before, tried)) {
            reference_ = probe_;
            if (tried >= failedAbove_) {
                failedAbove_ = 0;
            }
            const std::string paid =
                std::to_string(tried) + " at once gave " + percent(gain) + " rows/s over " + std::to_string(before);
            if (tried < ceiling_) {
                phase_ = Phase::ProbingUp;
                return setLimit(higherThan(tried), paid + ": trying " + std::to_string(higherThan(tried)));
            }
            return setLimit(tried, paid + "; worker-count " + std::to_string(ceiling_) + " is the ceiling");
        }
        failedAbove_ = tried;
        bool congested = reference_.latency > 0 && probe_.latency > reference_.latency * (1 + kLatencyGrowth);
        return keep(congested ? std::to_string(tried) + " at once raised commit latency " +
                                    percent(probe_.latency / reference_.latency) + " without enough more rows/s (" +
                                    percent(gain) + "): holding " + std::to_string(before)
                              : std::to_string(tried) + " at once gave not enough more rows/s (" + percent(gain) +
                                    "): holding " + std::to_string(before));
    }
    // The same rule as for a raise, seen from the higher limit: `before` stays only when it brings what
    // its extra transactions must.
    const double needed = neededGain(tried, before);
    if (purgeOver(recheck) == Purge::FallsBehind && probePurge == Purge::KeepsUp) {
        reference_ = probe_;
        failedAbove_ = before;
        return setLimit(tried, std::to_string(tried) + " at once let the downstream's purge keep up (" +
                                   purgeText(probeMeasured_) + ") where " + std::to_string(before) +
                                   " left it behind (" + purgeText(recheck) + "): holding " + std::to_string(tried));
    }
    if (gain * (1 + needed) > 1) {
        reference_ = probe_;
        failedAbove_ = 0;
        const std::string kept = std::to_string(tried) + " at once keep the rows/s of " + std::to_string(before) +
                                 " (" + percent(gain) + "; " + std::to_string(before) + " would have to bring " +
                                 percent(1 + needed) + ")";
        if (tried > 1) {
            phase_ = Phase::ProbingDown;
            return setLimit(lowerThan(tried), kept + ": trying " + std::to_string(lowerThan(tried)));
        }
        return setLimit(tried, kept + ": holding " + std::to_string(tried));
    }
    return keep(std::to_string(tried) + " at once lost rows/s (" + percent(gain) + "): holding " +
                std::to_string(before));
}

ConcurrencyStep ConcurrencyController::hold(const ConcurrencyWindow& window) {
    const double rowsPerSecond = double(window.rows) / window.seconds;
    const double latency = window.busySeconds / double(window.transactions);
    heldSum_.add(window);  // every held window, stalled or not, counts for the purge
    double ratio = reference_.rowsPerSecond > 0 ? rowsPerSecond / reference_.rowsPerSecond : 1.0;
    bool congested = reference_.latency > 0 && latency > reference_.latency * (1 + kLatencyGrowth);
    collapsingWindows_ = ratio < kCollapse && congested && limit_ > 1 ? collapsingWindows_ + 1 : 0;
    if (collapsingWindows_ > 0 && collapsingWindows_ < kCollapseWindows) {
        return ConcurrencyStep{limit_, false, reason_};  // one window is not yet a collapse: not averaged in
    }
    if (collapsingWindows_ >= kCollapseWindows) {
        collapsingWindows_ = 0;
        failedAbove_ = 0;
        size_t halved = std::max<size_t>(1, limit_ / 2);
        std::string why = "rows/s " + percent(ratio) + " with commit latency " + percent(latency / reference_.latency) +
                          " at " + std::to_string(limit_) + ": down to " + std::to_string(halved);
        phase_ = Phase::Measuring;
        sum_ = Sum{};
        heldSum_ = Sum{};
        return setLimit(halved, why);
    }
    reference_.rowsPerSecond = (1 - kSmoothing) * reference_.rowsPerSecond + kSmoothing * rowsPerSecond;
    reference_.latency = (1 - kSmoothing) * reference_.latency + kSmoothing * latency;
    if (heldSum_.windows >= kMeasureWindows) {
        if (std::optional<ConcurrencyStep> lowered = holdPurge()) {
            return *lowered;
        }
    }
    if (++heldWindows_ >= kHoldWindows) {
        return startProbe(reference_.rowsPerSecond, reference_.latency);
    }
    return ConcurrencyStep{limit_, false, reason_};  // the decision that set the limit still holds
}

std::optional<ConcurrencyStep> ConcurrencyController::holdPurge() {
    const Sum held = heldSum_;
    heldSum_ = Sum{};
    const Purge purge = purgeOver(held);
    if (purge == Purge::HeldElsewhere) {
        // Not the number of transactions at once: fewer would not help. Said, and the rows/s decide.
        reason_ = "the downstream's purge is not running (" + purgeText(held) +
                  "): a long transaction or read view there holds it back; holding " + std::to_string(limit_);
        return std::nullopt;
    }
    if (purge != Purge::FallsBehind || limit_ == 1) {
        return std::nullopt;
    }
    // Holding on from here: the rows/s held so far are the reference, smoothed towards the lower limit's.
    const size_t lower = lowerThan(limit_);
    const std::string why = "the downstream's purge fell behind at " + transactionsText(limit_) + " at once (" +
                            purgeText(held) + "): down to " + std::to_string(lower);
    failedAbove_ = limit_;
    reference_.limit = lower;
    heldWindows_ = 0;
    return setLimit(lower, why);
}

}  // namespace syncscope::apply
