// Rows per second (recent and total, as DM's recent_rps and total_rps) and each table's last change.
#include <QtTest>

#include "engine/task/activity_meter.h"

using namespace syncscope;
using task::ActivityMeter;
using task::Clock;

namespace {

Clock::time_point at(double seconds) {
    return Clock::time_point(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds)));
}

}  // namespace

class ActivityMeterTest : public QObject {
    Q_OBJECT

private slots:
    void recentRateIsOverTheLastWindowAndTotalOverTheRun() {
        ActivityMeter meter;
        QCOMPARE(meter.rates(0, false, at(100)).total, 0.0);  // never ran
        QCOMPARE(meter.rates(0, true, at(101)).recent, 0.0);  // starts running
        for (int second = 1; second <= 10; ++second) {
            meter.rates(uint64_t(second) * 100, true, at(101 + second));  // 100 rows/s
        }
        auto rates = meter.rates(1000, true, at(111));
        QCOMPARE(rates.recent, 100.0);
        QCOMPARE(rates.total, 100.0);
        // Paused: recent is 0 from the first sample (not decaying over the window), total falls with the
        // time that passes.
        rates = meter.rates(1000, false, at(112));
        QCOMPARE(rates.recent, 0.0);
        for (int second = 2; second <= 10; ++second) {
            rates = meter.rates(1000, false, at(111 + second));
        }
        QCOMPARE(rates.recent, 0.0);
        QCOMPARE(rates.total, 50.0);  // 1000 rows over 20 s since it first ran
    }

    void aTablesLastChangeIsWhenItsRowsMoved() {
        ActivityMeter meter;
        checkpoint::TableName orders{"shop", "orders"};
        QVERIFY(!meter.lastChange(orders, 0, at(10)));  // first seen without rows: no change known
        QVERIFY(!meter.lastChange(orders, 0, at(11)));
        QCOMPARE(*meter.lastChange(orders, 7, at(12)), at(12));
        QCOMPARE(*meter.lastChange(orders, 7, at(20)), at(12));  // unchanged since
        QVERIFY(!meter.lastChange({"shop", "other"}, 0, at(20)));
        QCOMPARE(*meter.lastChange({"shop", "third"}, 3, at(21)), at(21));  // first seen with rows
    }
};

QTEST_GUILESS_MAIN(ActivityMeterTest)
#include "test_activity_meter.moc"
