// The catch-up estimate: the distance to the upstream's end over the rate at which it shrinks (the
// rates shown over the last 30 s, the ETA's closing rate over up to 20 minutes); unknown with too little history,
// absent (not catching up) when the upstream writes as fast as the task applies, and started over when a point moves
// back.
#include <QtTest>

#include "engine/task/catch_up_estimate.h"

using namespace syncscope::task;
using std::chrono::seconds;

class CatchUpEstimateTest : public QObject {
    Q_OBJECT

private slots:
    void etaIsTheDistanceOverTheClosingRate() {
        CatchUpEstimate estimate;
        Clock::time_point start{};
        // Applied moves 10 MB/s, the upstream 2 MB/s: the 800 MB gap closes at 8 MB/s.
        uint64_t applied = 0;
        uint64_t upstream = 800'000'000;
        CatchUpView view;
        for (int s = 0; s <= 10; ++s) {
            view = estimate.update(applied, upstream, start + seconds(s));
            if (s == 0) {
                QVERIFY2(!view.etaSeconds, "one sample gives no rate");
            }
            applied += 10'000'000;
            upstream += 2'000'000;
        }
        QCOMPARE(view.behindBytes, uint64_t(800'000'000 + 10 * 2'000'000 - 10 * 10'000'000));
        QCOMPARE(view.appliedBytesPerSecond, 10'000'000.0);
        QCOMPARE(view.upstreamBytesPerSecond, 2'000'000.0);
        QVERIFY(view.etaSeconds);
        QCOMPARE(*view.etaSeconds, double(view.behindBytes) / 8'000'000.0);
    }

    void anUpstreamAsFastAsTheTaskIsNotCatchingUp() {
        CatchUpEstimate estimate;
        Clock::time_point start{};
        CatchUpView view;
        for (int s = 0; s <= 5; ++s) {
            view = estimate.update(uint64_t(s) * 1000, 5000 + uint64_t(s) * 1000, start + seconds(s));
        }
        QCOMPARE(view.behindBytes, uint64_t(5000));
        QVERIFY(!view.etaSeconds);
        QCOMPARE(view.appliedBytesPerSecond, 1000.0);
    }

    void onlyTheLastWindowCounts() {
        CatchUpEstimate estimate;
        Clock::time_point start{};
        uint64_t applied = 0;
        // A minute at 1 MB/s, then 30 s at 5 MB/s: the rate is the recent one.
        for (int s = 0; s < 60; ++s) {
            estimate.update(applied, 10'000'000'000, start + seconds(s));
            applied += 1'000'000;
        }
        CatchUpView view;
        for (int s = 60; s <= 60 + int(CatchUpEstimate::kWindow.count()); ++s) {
            view = estimate.update(applied, 10'000'000'000, start + seconds(s));
            applied += 5'000'000;
        }
        QVERIFY2(view.appliedBytesPerSecond > 4'500'000.0, qPrintable(QString::number(view.appliedBytesPerSecond)));
    }

    // The rate swings between 2 and 8 MB/s every 30 s (load, the binlog's mix): the 30 s rates follow the
    // swing, the ETA stays near the distance over the mean rate instead of halving and doubling.
    void theEtaFollowsTheLongRateNotEverySwing() {
        CatchUpEstimate estimate;
        Clock::time_point start{};
        const uint64_t upstream = 100'000'000'000;
        uint64_t applied = 0;
        double lowestEta = 1e300;
        double highestEta = 0;
        CatchUpView view;
        for (int s = 0; s <= 2400; ++s) {
            view = estimate.update(applied, upstream, start + seconds(s));
            if (s >= int(CatchUpEstimate::kEtaWindow.count())) {
                QVERIFY(view.etaSeconds);
                // Against the ETA at the mean rate of 5 MB/s.
                double ratio = *view.etaSeconds / (double(view.behindBytes) / 5'000'000.0);
                lowestEta = std::min(lowestEta, ratio);
                highestEta = std::max(highestEta, ratio);
            }
            applied += (s / 30) % 2 == 0 ? 2'000'000 : 8'000'000;
        }
        QVERIFY2(lowestEta > 0.95 && highestEta < 1.05,
                 qPrintable(QStringLiteral("ETA / ETA at the mean rate: %1 .. %2").arg(lowestEta).arg(highestEta)));
        // The rate shown is the recent one: 2 or 8 MB/s give or take the edge of a swing.
        QVERIFY2(view.appliedBytesPerSecond < 2'500'000.0 || view.appliedBytesPerSecond > 7'500'000.0,
                 qPrintable(QString::number(view.appliedBytesPerSecond)));
    }

    void aPointMovingBackStartsOver() {
        CatchUpEstimate estimate;
        Clock::time_point start{};
        estimate.update(1000, 9000, start);
        estimate.update(5000, 9000, start + seconds(5));
        // A resume-from an earlier position: the applied point goes back.
        CatchUpView view = estimate.update(100, 9000, start + seconds(6));
        QVERIFY(!view.etaSeconds);
        QCOMPARE(view.appliedBytesPerSecond, 0.0);
        QCOMPARE(view.behindBytes, uint64_t(8900));
    }

    void aPointOffTheAxisIsUnknownAndCaughtUpIsZero() {
        CatchUpEstimate estimate;
        Clock::time_point start{};
        CatchUpView off = estimate.update(std::nullopt, 9000, start);
        QVERIFY(!off.etaSeconds);
        QCOMPARE(off.behindBytes, uint64_t(0));
        CatchUpView caughtUp = estimate.update(9000, 9000, start + seconds(1));
        QVERIFY(caughtUp.etaSeconds);
        QCOMPARE(*caughtUp.etaSeconds, 0.0);
    }
};

QTEST_GUILESS_MAIN(CatchUpEstimateTest)
#include "test_catch_up_estimate.moc"
