// Adaptive apply concurrency: how many downstream transactions the workers may run at once. Like a
// congestion window, the limit is raised while raising it brings more rows per second, lowered when
// latency grows without more throughput, and tried lower now and then (fewer connections, same
// throughput, is better). `worker-count` is the ceiling; the search starts low (kStartLimit). Rows/s over seconds do
// not show what the downstream defers: where it says how many committed transactions its purge has not cleaned up yet
// (InnoDB's history list length), a limit under which that backlog grows is lowered, and a raise under which it grows
// is refused. Causality keys still decide which changes may run in parallel; this decides only how many transactions
// are in flight. Pure logic: fed one measurement window at a time, it answers the new limit and why.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
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
    // The downstream's purge backlog read at about the window's end: InnoDB's history list length, committed
    // transactions whose undo its purge has not cleaned up yet. Absent where the downstream does not say.
    std::optional<uint64_t> purgeBacklog;
};

struct ConcurrencyStep {
    size_t limit = 1;
    bool changed = false;
    std::string reason;  // a DBA's sentence: why the limit is what it is
};

class ConcurrencyController {
public:
    // A window held at a limit, or a measurement, with fewer commits than this says too little to compare.
    static constexpr uint64_t kMinTransactions = 8;
    // Windows that one measurement sums: a limit's rows/s before a probe and under it. One 500 ms window
    // of a downstream that reads pages from disk wanders by a fifth; eight together (4 s) by a third of that.
    static constexpr int kMeasureWindows = 8;
    // Between a lower limit A and a higher one B the same rule decides, whichever of the two was probed
    // from the other: B when it brings at least kRaiseGain more rows/s, and at least kScalingShare of what
    // its extra transactions would give a perfectly scaling downstream; A otherwise. One rule both ways, so
    // that noise moves the limit around the choice, never steadily down (a lower limit kept on any window
    // that did not lose, a higher one only on a clear gain, drifted a catch-up down to 1-3 of 16 where 16
    // at once applied 28% more rows/s at the same downstream CPU per row).
    static constexpr double kRaiseGain = 0.02;
    static constexpr double kScalingShare = 0.05;
    // Latency (per transaction) that grew by this fraction with no more throughput is congestion.
    static constexpr double kLatencyGrowth = 0.25;
    // While holding, throughput below this fraction of the held figure, with latency grown, in
    // kCollapseWindows windows in a row (a measurement's worth: a downstream's own stall of a second or two,
    // a page flush, is not one), halves back towards safety (multiplicative decrease).
    static constexpr double kCollapse = 0.7;
    static constexpr int kCollapseWindows = kMeasureWindows;
    // Windows held at a limit before the next probe (alternately higher, lower): three measurements' worth,
    // so that probes take at most a quarter of the time (a probe is measured, then the limit it left).
    static constexpr int kHoldWindows = 3 * kMeasureWindows;
    // Weight of the newest window in the held throughput and latency.
    static constexpr double kSmoothing = 0.3;
    // The purge falls behind over a measurement when its backlog is above kPurgeFloor and grew by more than
    // kPurgeShare of the transactions committed meanwhile. A downstream whose purge keeps up stays in the
    // hundreds; 16 transactions at once on 2 cores grew it by about half of their commits, past 37,000 in 7
    // minutes, and the pages its purge then read back from disk cost the downstream more CPU per row than the
    // native replica spends. Growth of at least kPurgeHeldShare of the commits means the purge is not running
    // at all: a long transaction or read view on the downstream holds it, and fewer transactions at once
    // would not help.
    static constexpr uint64_t kPurgeFloor = 2000;
    static constexpr double kPurgeShare = 0.1;
    static constexpr double kPurgeHeldShare = 0.9;
    // Where the search starts (or at the ceiling, if that is lower): as many as MariaDB's parallel replica is
    // usually given. On the 10 M catch-up on 2 cores, starting here against starting at the ceiling (both with the
    // purge rule), 3 rounds in one invocation: 364 against 388 s, 41.5 against 53.4 us downstream CPU per row,
    // settled at 3-4 against 5-6 of 16. Each transaction at once beyond a few cost the downstream CPU per row
    // that a 4 s measurement's rows/s cannot see; a downstream whose rows/s grow with more (more cores) is
    // climbed to by the probes up.
    static constexpr size_t kStartLimit = 4;
    explicit ConcurrencyController(size_t ceiling);
    ConcurrencyController(size_t ceiling, size_t initial);

    ConcurrencyStep observe(const ConcurrencyWindow& window);

    size_t limit() const { return limit_; }
    size_t ceiling() const { return ceiling_; }
    const std::string& reason() const { return reason_; }

    // The limits a probe from `limit` tries: half as many again (at least one more; at most half way to a
    // raise from here that did not pay), a quarter fewer (at least one fewer); within 1 and the ceiling. A
    // raise that pays is followed by the next raise, a lower limit that keeps the rows/s by the next lower.
    size_t higherThan(size_t limit) const;
    size_t lowerThan(size_t limit) const;

private:
    enum class Phase { Measuring, ProbingUp, ProbingDown, Rechecking, Holding };

    struct Reference {
        size_t limit = 1;
        double rowsPerSecond = 0;
        double latency = 0;  // seconds per transaction
    };

    // Windows summed into one measurement (kMeasureWindows of them).
    struct Sum {
        int windows = 0;
        double seconds = 0;
        uint64_t rows = 0;
        uint64_t transactions = 0;
        double busySeconds = 0;
        std::optional<uint64_t> firstBacklog;  // the purge backlog of the first window that said it
        std::optional<uint64_t> lastBacklog;
        uint64_t backlogTransactions = 0;  // committed in the windows after the first reading
        void add(const ConcurrencyWindow& window);
        double rowsPerSecond() const { return seconds > 0 ? double(rows) / seconds : 0; }
        double latency() const { return transactions > 0 ? busySeconds / double(transactions) : 0; }
    };

    // What the purge backlog did over a Sum.
    enum class Purge { Unknown, KeepsUp, FallsBehind, HeldElsewhere };
    static Purge purgeOver(const Sum& sum);
    static std::string purgeText(const Sum& sum);  // "history list 12,251, +2,140 over 1,800 commits"

    // The rows/s gain that B transactions at once must bring over A (< B) to be preferred.
    static double neededGain(size_t lower, size_t higher);

    ConcurrencyStep setLimit(size_t limit, std::string reason);
    ConcurrencyStep keep(std::string reason);
    ConcurrencyStep startProbe(double rowsPerSecond, double latency);
    // `recheck` is the reference limit measured again after the probe.
    ConcurrencyStep judgeProbe(const Sum& recheck);
    ConcurrencyStep hold(const ConcurrencyWindow& window);
    // Every kMeasureWindows held windows: lowers the limit by a quarter when the purge fell behind over them.
    std::optional<ConcurrencyStep> holdPurge();

    size_t ceiling_;
    size_t limit_;
    Phase phase_ = Phase::Measuring;
    Reference reference_;
    Reference probe_;    // what the last probe measured, judged after the reference limit is measured again
    Sum probeMeasured_;  // and the measurement itself (what the purge backlog did under it)
    bool probeUp_ = false;
    Sum sum_;
    Sum heldSum_;  // the held windows since the last purge check
    int heldWindows_ = 0;
    int collapsingWindows_ = 0;
    size_t failedAbove_ = 0;  // the last raise from here that did not pay (0: none): the next stays below it
    bool nextProbeUp_ = true;
    std::string reason_;
};

}  // namespace syncscope::apply
