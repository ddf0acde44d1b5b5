// The control API's history (engine/control/status_history, GET /api/v1/history): one sample a second at most per
// channel, ten minutes kept, `since` keeps the later ones, and the JSON read back as it was written; a sample that
// cannot be read names its index and key.
#include <QtTest>

#include <nlohmann/json.hpp>

#include "engine/common/error.h"
#include "engine/control/status_history.h"
#include "tests/engine/control/sample_status.h"

using namespace syncscope;
using control::HistoryPoint;
using control::StatusHistory;
using std::chrono::milliseconds;
using std::chrono::seconds;

namespace {

task::StatusSnapshot snapshotAt(task::Clock::time_point at, double lag, double rowsPerSecond) {
    task::StatusSnapshot snapshot = test::sampleStatus();
    snapshot.takenAt = at;
    snapshot.lagSeconds = lag;
    snapshot.recentRowsPerSecond = rowsPerSecond;
    return snapshot;
}

}  // namespace

class StatusHistoryTest : public QObject {
    Q_OBJECT

private slots:
    void oneSampleASecondPerChannelAndTheWindowKept() {
        StatusHistory history(seconds(10), seconds(1));
        const task::Clock::time_point start = test::sampleTime();
        for (int tenth = 0; tenth <= 200; ++tenth) {  // 20 s published 10 times a second
            history.record("", snapshotAt(start + milliseconds(100 * tenth), tenth, 2.0 * tenth));
        }
        history.record("ms-a", snapshotAt(start, 1, 1));
        const std::vector<HistoryPoint> kept = history.since("", {});
        QCOMPARE(kept.size(), size_t(11));  // 10 s of window, one a second, both ends kept
        QCOMPARE(kept.front().at, start + seconds(10));
        QCOMPARE(kept.back().at, start + seconds(20));
        QCOMPARE(kept.back().lagSeconds, 200.0);
        QCOMPARE(kept.back().rowsPerSecond, 400.0);
        QCOMPARE(history.since("ms-a", {}).size(), size_t(1));  // each channel its own
        QVERIFY(history.since("ms-b", {}).empty());
        const std::vector<HistoryPoint> later = history.since("", start + seconds(18));
        QCOMPARE(later.size(), size_t(2));
        QCOMPARE(later.front().at, start + seconds(19));
    }

    void theJsonIsReadBackAsWritten() {
        StatusHistory history;
        task::StatusSnapshot snapshot = snapshotAt(test::sampleTime(), 2.5, 1234);
        snapshot.upstream.axis = 4096;
        snapshot.globalPersisted.axis.reset();
        history.record("", snapshot);
        const nlohmann::json json = control::historyJson(history.since("", {}));
        const std::vector<HistoryPoint> read = control::historyFromJson(json);
        QCOMPARE(read.size(), size_t(1));
        QCOMPARE(std::chrono::duration_cast<milliseconds>(read[0].at.time_since_epoch()),
                 std::chrono::duration_cast<milliseconds>(snapshot.takenAt.time_since_epoch()));
        QCOMPARE(read[0].lagSeconds, 2.5);
        QCOMPARE(read[0].rowsPerSecond, 1234.0);
        QCOMPARE(read[0].upstreamAxis, std::optional<uint64_t>(4096));
        QVERIFY(!read[0].persistedGlobalAxis);
    }

    void anUnreadableSampleNamesItsIndexAndKey_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("named");
        QTest::addRow("no samples list") << "{\"lines\": []}"
                                         << "\"samples\"";
        QTest::addRow("no time") << "{\"samples\": [{\"lag_seconds\": 1, \"rows_per_second\": 1}]}"
                                 << "sample 0";
        QTest::addRow("a time that is not ISO")
            << "{\"samples\": [{\"at\": \"yesterday\", \"lag_seconds\": 1, \"rows_per_second\": 1}]}"
            << "yesterday";
        QTest::addRow("lag not a number")
            << "{\"samples\": [{\"at\": \"2026-12-02T06:00:00.000Z\", \"lag_seconds\": \"x\", \"rows_per_second\": 1}]}"
            << "lag_seconds";
        QTest::addRow("negative axis") << "{\"samples\": [{\"at\": \"2026-12-02T06:00:00.000Z\", \"lag_seconds\": 1, "
                                          "\"rows_per_second\": 1, \"upstream_axis_bytes\": -4}]}"
                                       << "upstream_axis_bytes";
    }

    void anUnreadableSampleNamesItsIndexAndKey() {
        QFETCH(QString, json);
        QFETCH(QString, named);
        try {
            control::historyFromJson(nlohmann::json::parse(json.toStdString()));
            QFAIL("an unreadable history was read");
        } catch (const Error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(named), e.what());
        }
    }
};

QTEST_GUILESS_MAIN(StatusHistoryTest)
#include "test_status_history.moc"
