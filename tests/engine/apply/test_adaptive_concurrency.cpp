// Adaptive apply concurrency: the controller starts at kStartLimit (or the ceiling, if lower) and finds the knee of a
// throughput curve below the ceiling, above or below where it started, backs off when latency grows without more
// throughput or the downstream's purge falls behind (not when something else stops the purge), learns nothing from
// windows that were not saturated; the slots never let more transactions run at once than the limit allows.
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "engine/apply/commit_slots.h"
#include "engine/apply/concurrency_controller.h"

using namespace syncscope::apply;

namespace {

constexpr double kWindowSeconds = 0.5;
constexpr uint64_t kRowsPerTransaction = 100;

// A downstream whose rows/s at `limit` transactions at once is `curve(limit)`; each window is
// saturated (more batches ready than allowed). Latency follows from Little's law.
ConcurrencyWindow windowAt(size_t limit, const std::function<double(size_t)>& curve) {
    ConcurrencyWindow window;
    window.seconds = kWindowSeconds;
    double rowsPerSecond = curve(limit);
    window.rows = uint64_t(rowsPerSecond * kWindowSeconds);
    window.transactions = window.rows / kRowsPerTransaction;
    double transactionsPerSecond = rowsPerSecond / kRowsPerTransaction;
    window.busySeconds = double(window.transactions) * (double(limit) / transactionsPerSecond);
    window.saturated = true;
    return window;
}

struct Run {
    std::vector<size_t> limits;  // the limit after each window
    size_t highest = 0;
};

Run drive(ConcurrencyController& controller, int windows, const std::function<double(size_t)>& curve) {
    Run run;
    for (int i = 0; i < windows; ++i) {
        ConcurrencyStep step = controller.observe(windowAt(controller.limit(), curve));
        run.limits.push_back(step.limit);
        run.highest = std::max(run.highest, step.limit);
    }
    return run;
}

double meanOfLast(const std::vector<size_t>& limits, size_t count) {
    double sum = 0;
    for (size_t i = limits.size() - count; i < limits.size(); ++i) {
        sum += double(limits[i]);
    }
    return sum / double(count);
}

// Rows/s grows with each transaction up to `knee`, then falls by 8% of the knee's with each one more (a
// 2-core downstream swamped by connections), to a tenth of one transaction's at worst: 2 commits a window,
// fewer than one window needs, so the search down from the ceiling measures over thin windows.
std::function<double(size_t)> kneeAt(size_t knee) {
    return [knee](size_t limit) {
        double perTransaction = 4000;
        if (limit <= knee) {
            return perTransaction * double(limit);
        }
        return std::max(perTransaction * double(knee) * (1 - 0.08 * double(limit - knee)), perTransaction / 10);
    };
}

size_t highestOfLast(const std::vector<size_t>& limits, size_t count) {
    return *std::max_element(limits.end() - std::ptrdiff_t(count), limits.end());
}

// A downstream whose purge cleans up `purged(limit)` committed transactions a second: every window the backlog
// grows by the window's commits less that (never below 0), and the window says the backlog at its end.
struct PurgingDownstream {
    PurgingDownstream(std::function<double(size_t)> rowsPerSecond, std::function<double(size_t)> purgedPerSecond,
                      double initialBacklog = 0, bool saysBacklog = true)
        : curve(std::move(rowsPerSecond)),
          purged(std::move(purgedPerSecond)),
          backlog(initialBacklog),
          says(saysBacklog) {}

    std::function<double(size_t)> curve;
    std::function<double(size_t)> purged;
    double backlog = 0;
    bool says = true;                  // whether the windows carry the backlog
    std::vector<std::string> reasons;  // every reason the controller gave, in order
    std::vector<double> backlogs;      // the backlog after each window

    Run drive(ConcurrencyController& controller, int windows) {
        Run run;
        for (int i = 0; i < windows; ++i) {
            ConcurrencyWindow window = windowAt(controller.limit(), curve);
            backlog =
                std::max(0.0, backlog + double(window.transactions) - purged(controller.limit()) * window.seconds);
            if (says) {
                window.purgeBacklog = uint64_t(backlog);
            }
            ConcurrencyStep step = controller.observe(window);
            run.limits.push_back(step.limit);
            run.highest = std::max(run.highest, step.limit);
            reasons.push_back(step.reason);
            backlogs.push_back(backlog);
        }
        return run;
    }

    bool said(const std::string& words) const {
        return std::any_of(reasons.begin(), reasons.end(),
                           [&](const std::string& reason) { return reason.find(words) != std::string::npos; });
    }
};

}  // namespace

class AdaptiveConcurrencyTest : public QObject {
    Q_OBJECT

private slots:
    void findsTheKneeOfTheThroughputCurve_data() {
        QTest::addColumn<int>("knee");
        QTest::addColumn<int>("ceiling");
        QTest::addRow("knee 4, DM's worker-count 16") << 4 << 16;
        QTest::addRow("knee 7, ceiling 16") << 7 << 16;
        QTest::addRow("knee 12: a downstream with cores to spare") << 12 << 16;
        QTest::addRow("ceiling 3, below where it starts") << 3 << 3;
        QTest::addRow("knee 1: one at a time is best") << 1 << 16;
    }
    void findsTheKneeOfTheThroughputCurve() {
        QFETCH(int, knee);
        QFETCH(int, ceiling);
        ConcurrencyController controller{size_t(ceiling)};
        QCOMPARE(controller.limit(), std::min(ConcurrencyController::kStartLimit, size_t(ceiling)));
        Run run = drive(controller, 480, kneeAt(size_t(knee)));
        double settled = meanOfLast(run.limits, 240);
        QVERIFY2(settled >= knee - 0.5 && settled <= knee + 1.0,
                 qPrintable(QStringLiteral("settled at %1 for a knee at %2").arg(settled).arg(knee)));
        // Once there, only probes leave the knee: at most half as many again.
        size_t highestProbe = ConcurrencyController(size_t(ceiling)).higherThan(size_t(knee));
        size_t highest = highestOfLast(run.limits, 240);
        QVERIFY2(highest <= highestProbe, qPrintable(QStringLiteral("went up to %1").arg(highest)));
    }

    void neverPassesTheCeiling() {
        ConcurrencyController controller(3);
        Run run = drive(controller, 80, [](size_t limit) { return 5000.0 * double(limit); });
        QCOMPARE(run.highest, size_t(3));
        // At the ceiling: only the probes one lower leave it, and they come back.
        QVERIFY2(meanOfLast(run.limits, 40) > 2.5, qPrintable(QString::fromStdString(controller.reason())));
        QCOMPARE(controller.ceiling(), size_t(3));
    }

    void flatThroughputWithGrowingLatencyKeepsTheLimitLow() {
        // Past 2 transactions the downstream gives nothing more: each extra one only queues.
        // From the ceiling, each lower limit keeps the rows/s, down to 2.
        ConcurrencyController controller(16, 16);
        Run run = drive(controller, 400, [](size_t limit) { return limit >= 2 ? 8000.0 : 4000.0; });
        size_t highest = highestOfLast(run.limits, 80);
        QVERIFY2(highest <= ConcurrencyController(16).higherThan(2),
                 qPrintable(QStringLiteral("went up to %1").arg(highest)));
        QVERIFY2(meanOfLast(run.limits, 80) <= 2.5, qPrintable(QString::fromStdString(controller.reason())));
    }

    void aRaiseThatAddsOnlyLatencyIsTakenBackAndSaysWhy() {
        ConcurrencyController controller(16, 4);
        auto curve = kneeAt(4);
        for (int i = 0; i < ConcurrencyController::kMeasureWindows; ++i) {
            QCOMPARE(controller.limit(), size_t(4));
            controller.observe(windowAt(4, curve));  // measures 4 over its windows, then tries half as many again
        }
        QCOMPARE(controller.limit(), size_t(6));
        QVERIFY2(controller.reason().find("trying 6 transactions at once") != std::string::npos,
                 controller.reason().c_str());
        ConcurrencyStep step;
        for (int i = 0; i < ConcurrencyController::kMeasureWindows; ++i) {
            step = controller.observe(windowAt(6, curve));
        }
        // Back to 4 to measure it again, then judged against the measurements before and after.
        QCOMPARE(step.limit, size_t(4));
        QVERIFY(step.changed);
        QVERIFY2(step.reason.find("measuring 4 again after 6") != std::string::npos, step.reason.c_str());
        for (int i = 0; i < ConcurrencyController::kMeasureWindows; ++i) {
            step = controller.observe(windowAt(4, curve));
        }
        QCOMPARE(step.limit, size_t(4));
        QVERIFY2(step.reason.find("raised commit latency") != std::string::npos &&
                     step.reason.find("holding 4") != std::string::npos,
                 step.reason.c_str());
    }

    void unsaturatedOrThinWindowsChangeNothing() {
        ConcurrencyController controller(16, 3);
        ConcurrencyWindow idle = windowAt(3, kneeAt(8));
        idle.saturated = false;
        for (int i = 0; i < 20; ++i) {
            QVERIFY(!controller.observe(idle).changed);
        }
        QCOMPARE(controller.limit(), size_t(3));
        QVERIFY2(controller.reason().find("every ready batch runs") != std::string::npos, controller.reason().c_str());
        ConcurrencyWindow thin = windowAt(3, kneeAt(8));
        thin.transactions = ConcurrencyController::kMinTransactions - 1;
        QVERIFY(!controller.observe(thin).changed);
        QCOMPARE(controller.limit(), size_t(3));
    }

    // On a loaded machine the defaults once settled at 1 of 16 and caught up 17% slower than 16 at
    // once. Is it the controller? A window's rows/s wander with whatever else runs; a lower probe kept on
    // one lucky window, or a raise refused on one unlucky one, could drift the limit down step by step.
    // With a knee at 6, rows/s growing linearly or as L^0.6 below it, and each window's rows/s off by up
    // to 10% or 20%, the limit stays about the knee (so the drift under load came from the downstream's
    // own curve on a machine whose 2 cores were taken, not from noise).
    void noisyWindowsDoNotDriftTheLimitDown_data() {
        QTest::addColumn<double>("exponent");  // rows/s below the knee grow as limit^exponent
        QTest::addColumn<double>("noise");     // each window's rows/s times 1 +- this, uniformly
        QTest::addColumn<unsigned>("seed");
        for (double exponent : {1.0, 0.6}) {
            for (double noise : {0.10, 0.20}) {
                for (unsigned seed : {1U, 2U, 3U}) {
                    QTest::addRow("L^%.1f, noise %d%%, seed %u", exponent, int(noise * 100), seed)
                        << exponent << noise << seed;
                }
            }
        }
    }
    void noisyWindowsDoNotDriftTheLimitDown() {
        QFETCH(double, exponent);
        QFETCH(double, noise);
        QFETCH(unsigned, seed);
        constexpr size_t kKnee = 6;
        std::mt19937 random(seed);
        std::uniform_real_distribution<double> wander(1 - noise, 1 + noise);
        auto curve = [&](size_t limit) {
            double atKnee = 4000 * std::pow(double(kKnee), exponent);
            double rowsPerSecond =
                limit <= kKnee ? 4000 * std::pow(double(limit), exponent) : atKnee * (1 - 0.08 * double(limit - kKnee));
            return rowsPerSecond * wander(random);
        };
        ConcurrencyController controller(16);
        Run run = drive(controller, 1200, curve);
        double settled = meanOfLast(run.limits, 600);
        QVERIFY2(settled >= double(kKnee) - 2, qPrintable(QStringLiteral("settled at %1 for a knee at %2: %3")
                                                              .arg(settled)
                                                              .arg(kKnee)
                                                              .arg(QString::fromStdString(controller.reason()))));
    }

    // A catch-up whose downstream reads pages from disk: 16 at once applied 15-28% more rows/s than the 2-4
    // the controller had settled at from 4 (rows/s about L^0.13), each 500 ms window off by up to a fifth.
    // Each step brings a little, clearly less than perfect scaling and less than one window's noise; started at
    // the ceiling, the limit must stay towards it and not drift down. (Started at 4, as by default, it stays
    // low on such a curve: on the 10 M catch-up, whose rows/s over seconds look like this, fewer at once were
    // faster over the whole run and cost the downstream less CPU per row.)
    void aFlatButRisingCurveStaysTowardsTheCeiling_data() {
        QTest::addColumn<unsigned>("seed");
        for (unsigned seed : {1U, 2U, 3U, 4U, 5U}) {
            QTest::addRow("seed %u", seed) << seed;
        }
    }
    void aFlatButRisingCurveStaysTowardsTheCeiling() {
        QFETCH(unsigned, seed);
        std::mt19937 random(seed);
        std::uniform_real_distribution<double> wander(0.8, 1.2);
        auto curve = [&](size_t limit) { return 15000 * std::pow(double(limit), 0.13) * wander(random); };
        ConcurrencyController controller(16, 16);
        Run run = drive(controller, 1200, curve);
        double settled = meanOfLast(run.limits, 600);
        // Well above the 1-3 of 16 where the controller before this rule settled on the real backlog.
        QVERIFY2(settled >= 7, qPrintable(QStringLiteral("settled at %1 of 16: %2")
                                              .arg(settled)
                                              .arg(QString::fromStdString(controller.reason()))));
    }

    // The 10 M catch-up: rows/s rise a little with every transaction at once (so rows/s alone keep the limit
    // towards the ceiling), but the downstream's purge threads, sharing 2 cores with the connections, clean up
    // fewer transactions the more run at once: 200/s up to 5 at once (more than those commit), then 1,000/s
    // over the limit. From 6 at once on the backlog grows (by 12% of the commits at 6, 71% at 16; about half
    // at 16 was measured); the limit must come down to where it does not, and the backlog must be worked off.
    void aLimitThatLeavesThePurgeBehindComesDown_data() {
        QTest::addColumn<unsigned>("seed");
        for (unsigned seed : {1U, 2U, 3U}) {
            QTest::addRow("seed %u", seed) << seed;
        }
    }
    void aLimitThatLeavesThePurgeBehindComesDown() {
        QFETCH(unsigned, seed);
        std::mt19937 random(seed);
        std::uniform_real_distribution<double> wander(0.8, 1.2);
        auto curve = [&](size_t limit) { return 15000 * std::pow(double(limit), 0.13) * wander(random); };
        auto purged = [](size_t limit) { return limit <= 5 ? 200.0 : 1000.0 / double(limit); };
        PurgingDownstream downstream(curve, purged);
        ConcurrencyController controller(16, 16);
        Run run = downstream.drive(controller, 1200);
        double settled = meanOfLast(run.limits, 600);
        QVERIFY2(settled <= 6.5, qPrintable(QStringLiteral("settled at %1 of 16: %2")
                                                .arg(settled)
                                                .arg(QString::fromStdString(controller.reason()))));
        QVERIFY2(settled >= 2, qPrintable(QStringLiteral("settled at %1 of 16").arg(settled)));
        QVERIFY2(downstream.said("the downstream's purge fell behind at "), controller.reason().c_str());
        // The backlog stays about the floor below which it is not watched (probes up add to it now and then);
        // the same downstream not saying it ends tens of thousands behind.
        const double floor = double(ConcurrencyController::kPurgeFloor);
        double peak = *std::max_element(downstream.backlogs.begin(), downstream.backlogs.end());
        QVERIFY2(peak <= 3 * floor && downstream.backlog <= 1.5 * floor,
                 qPrintable(QStringLiteral("backlog %1 at the end, %2 at its peak").arg(downstream.backlog).arg(peak)));
        PurgingDownstream silent(curve, purged, 0, false);
        ConcurrencyController unaware(16, 16);
        silent.drive(unaware, 1200);
        QVERIFY2(silent.backlog >= 10 * floor,
                 qPrintable(QStringLiteral("%1 without the reading").arg(silent.backlog)));
    }

    // A raise whose rows/s pay but under which the purge falls behind is refused, and says why.
    void aRaiseThatLeavesThePurgeBehindIsRefused() {
        PurgingDownstream downstream([](size_t limit) { return 8000.0 * double(limit); },
                                     [](size_t limit) { return limit <= 4 ? 1000.0 : 200.0; }, 5000);
        ConcurrencyController controller(16, 4);
        downstream.drive(controller, 3 * ConcurrencyController::kMeasureWindows);
        QVERIFY2(downstream.said("6 at once left the downstream's purge behind"), controller.reason().c_str());
        QVERIFY2(downstream.said("holding 4"), controller.reason().c_str());
        QCOMPARE(controller.limit(), size_t(4));
    }

    // A read view held open on the downstream stops its purge whatever the engine does: the backlog grows by
    // every commit at every limit. Fewer transactions at once would only slow the catch-up down, so the rows/s
    // decide as before (towards the ceiling on this curve), and the reason says what holds the purge.
    void aPurgeHeldByTheDownstreamDoesNotTakeTheLimitDown() {
        std::mt19937 random(7);
        std::uniform_real_distribution<double> wander(0.8, 1.2);
        PurgingDownstream downstream(
            [&](size_t limit) { return 15000 * std::pow(double(limit), 0.13) * wander(random); },
            [](size_t) { return 0.0; }, 50000);
        ConcurrencyController controller(16, 16);
        Run run = downstream.drive(controller, 1200);
        double settled = meanOfLast(run.limits, 600);
        QVERIFY2(settled >= 7, qPrintable(QStringLiteral("settled at %1 of 16: %2")
                                              .arg(settled)
                                              .arg(QString::fromStdString(controller.reason()))));
        QVERIFY2(downstream.said("the downstream's purge is not running"), controller.reason().c_str());
        QVERIFY(!downstream.said("purge fell behind"));
    }

    void aCollapseWithGrowingLatencyHalvesTheLimit() {
        ConcurrencyController controller(16, 8);
        auto steady = [](size_t limit) { return limit >= 8 ? 32000.0 : 4000.0 * double(limit); };
        // Settle at 8: the probes up find nothing more, the probes down lose rows/s.
        drive(controller, 30, steady);
        QCOMPARE(controller.limit(), size_t(8));
        // The downstream slows down to a third (a checkpoint storm): latency triples at the same limit. A
        // second or two of it may be the downstream's own stall; a measurement's worth in a row halves.
        auto storm = [](size_t) { return 10000.0; };
        for (int i = 1; i < ConcurrencyController::kCollapseWindows; ++i) {
            QVERIFY(!controller.observe(windowAt(8, storm)).changed);
            QCOMPARE(controller.limit(), size_t(8));
        }
        ConcurrencyStep step = controller.observe(windowAt(8, storm));
        QCOMPARE(step.limit, size_t(4));
        QVERIFY2(step.reason.find("down to 4") != std::string::npos, step.reason.c_str());
    }

    // Started at the ceiling, a worker per slot never waits for one: the slots must still tell the
    // controller when every slot was taken at once, or it would never measure and never probe down.
    void atTheCeilingEverySlotTakenAtOnceIsMeasured() {
        constexpr size_t kWorkerCount = 4;
        CommitSlots commitSlots(kWorkerCount, true);
        QCOMPARE(commitSlots.view().allowed, kWorkerCount);
        std::atomic<bool> stop{false};
        std::vector<std::thread> workers;
        for (size_t i = 0; i < kWorkerCount; ++i) {
            workers.emplace_back([&] {
                while (!stop.load()) {
                    CommitSlots::Slot slot(commitSlots);
                    std::this_thread::sleep_for(std::chrono::milliseconds(2));
                    slot.committed(kRowsPerTransaction);
                }
            });
        }
        // One measurement (kMeasureWindows windows), then the first probe: down, the ceiling has no higher.
        const auto measurement = CommitSlots::kWindow * (ConcurrencyController::kMeasureWindows + 2);
        QTRY_VERIFY_WITH_TIMEOUT(commitSlots.view().allowed < kWorkerCount, int(measurement.count()) * 2);
        stop = true;
        for (auto& worker : workers) {
            worker.join();
        }
        ConcurrencyView view = commitSlots.view();
        QVERIFY2(view.reason.find("trying 3 transactions at once") != std::string::npos, view.reason.c_str());
    }

    void slotsNeverLetMoreTransactionsRunThanAllowed_data() {
        QTest::addColumn<bool>("adaptive");
        QTest::addColumn<int>("expectedAtOnce");
        QTest::addRow("adaptive starts at worker-count") << true << 4;
        QTest::addRow("fixed runs worker-count at once") << false << 4;
    }
    void slotsNeverLetMoreTransactionsRunThanAllowed() {
        QFETCH(bool, adaptive);
        QFETCH(int, expectedAtOnce);
        constexpr int kWorkers = 8;
        constexpr size_t kWorkerCount = 4;  // the ceiling: half of the workers wait for a slot
        CommitSlots commitSlots(kWorkerCount, adaptive);
        std::atomic<int> open{0};
        std::atomic<int> mostAtOnce{0};
        std::atomic<bool> release{false};
        std::vector<std::thread> workers;
        for (int i = 0; i < kWorkers; ++i) {
            workers.emplace_back([&] {
                CommitSlots::Slot slot(commitSlots);
                int now = ++open;
                int seen = mostAtOnce.load();
                while (now > seen && !mostAtOnce.compare_exchange_weak(seen, now)) {
                }
                while (!release.load()) {
                    std::this_thread::yield();
                }
                --open;
                slot.committed(kRowsPerTransaction);
            });
        }
        QTRY_COMPARE(int(commitSlots.view().busy), expectedAtOnce);
        QTest::qWait(50);  // the others stay waiting for a slot
        QCOMPARE(open.load(), expectedAtOnce);
        release = true;
        for (auto& worker : workers) {
            worker.join();
        }
        QCOMPARE(mostAtOnce.load(), expectedAtOnce);
        ConcurrencyView view = commitSlots.view();
        QCOMPARE(view.busy, size_t(0));
        QCOMPARE(view.ceiling, kWorkerCount);
        QCOMPARE(view.adaptive, adaptive);
        QVERIFY(!view.reason.empty());
    }
};

QTEST_GUILESS_MAIN(AdaptiveConcurrencyTest)
#include "test_adaptive_concurrency.moc"
