// Adaptive apply concurrency: how many downstream transactions the workers may run at once. Like a
// congestion window, the limit is raised while raising it brings more rows per second, lowered when
// latency grows without more throughput, and tried one lower now and then (fewer connections, same
// throughput, is better). `worker-count` is the ceiling. Causality keys still decide which changes may
// run in parallel; this decides only how many transactions are in flight. Pure logic: fed one
// measurement window at a time, it answers the new limit and why.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace syncscope::apply {

// What the workers did in one measurement window.
struct ConcurrencyWindow {
    double seconds = 0;
    uint64_t rows = 0;          // rows committed
    uint64_t transactions = 0;  // downstream transactions committed
    double busySeconds = 0;     // summed time from a batch's first statement to its commit
    // A worker had to wait for a slot at least once: more transactions were ready than allowed, so the
    // window says what the limit costs. Without it, the workers did not use what they were allowed.
    bool saturated = false;
};

struct ConcurrencyStep {
    size_t limit = 1;
    bool changed = false;
    std::string reason;  // a DBA's sentence: why the limit is what it is
};

class ConcurrencyController {
public:
    // A window with fewer commits than this says too little to compare.
    static constexpr uint64_t kMinTransactions = 8;
    // A raise from L to L+1 is kept only when throughput grows by kRaiseGain, and by at least
    // kScalingShare of what one more transaction would give if the downstream scaled perfectly (1/L):
    // a transaction that adds little costs the downstream's CPU for nothing, and a small gain is noise.
    static constexpr double kRaiseGain = 0.05;
    static constexpr double kScalingShare = 0.25;
    // A lower limit is kept when throughput falls by less than this fraction.
    static constexpr double kLowerLoss = 0.02;
    // Latency (per transaction) that grew by this fraction with no more throughput is congestion.
    static constexpr double kLatencyGrowth = 0.25;
    // While holding, throughput below this fraction of the held figure, with latency grown, halves
    // back towards safety (multiplicative decrease).
    static constexpr double kCollapse = 0.7;
    // Windows held at a limit before the next probe (alternately one higher, one lower).
    static constexpr int kHoldWindows = 6;
    // Weight of the newest window in the held throughput and latency.
    static constexpr double kSmoothing = 0.3;
    // Where the search starts (capped by the ceiling): as many as MariaDB's parallel replica is
    // usually given, low enough that a small downstream is not flooded by DM's 16.
    static constexpr size_t kInitialLimit = 4;

    explicit ConcurrencyController(size_t ceiling, size_t initial = kInitialLimit);

    ConcurrencyStep observe(const ConcurrencyWindow& window);

    size_t limit() const { return limit_; }
    size_t ceiling() const { return ceiling_; }
    const std::string& reason() const { return reason_; }

private:
    enum class Phase { Measuring, ProbingUp, ProbingDown, Holding };

    struct Reference {
        size_t limit = 1;
        double rowsPerSecond = 0;
        double latency = 0;  // seconds per transaction
    };

    ConcurrencyStep setLimit(size_t limit, std::string reason);
    ConcurrencyStep keep(std::string reason);
    ConcurrencyStep startProbe(double rowsPerSecond, double latency);
    ConcurrencyStep judgeProbe(double rowsPerSecond, double latency);
    ConcurrencyStep hold(double rowsPerSecond, double latency);

    size_t ceiling_;
    size_t limit_;
    Phase phase_ = Phase::Measuring;
    Reference reference_;
    int heldWindows_ = 0;
    bool nextProbeUp_ = true;
    std::string reason_;
};

}  // namespace syncscope::apply
