// A stop point as a DBA gives it (FILE:POS, GTID position or set, time) and when it counts as reached:
// at the end of the transaction ending at or after the position, or completing the GTID; in front of
// the first transaction at or after the time.
#include <QtTest>

#include <cstdlib>
#include <ctime>

#include "engine/task/stop_point.h"

using namespace syncscope;
using task::StopPoint;

class StopPointTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        qputenv("TZ", "UTC");
        tzset();
    }

    void forms_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("kind");
        QTest::addRow("file and position") << "mariadb-bin.000003:1234" << int(StopPoint::Kind::Position);
        QTest::addRow("mariadb gtid") << "0-1-5" << int(StopPoint::Kind::Gtid);
        QTest::addRow("mysql gtid set") << "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5" << int(StopPoint::Kind::Gtid);
        QTest::addRow("time") << "2026-12-01 10:00:00" << int(StopPoint::Kind::Time);
    }

    void forms() {
        QFETCH(QString, text);
        QFETCH(int, kind);
        QCOMPARE(int(StopPoint::parse(text.toStdString()).kind), kind);
    }

    void badPointsNameTheForms() {
        for (const char* bad : {"soon", "mariadb-bin:12", "2026-13-01 10:00:00"}) {
            try {
                StopPoint::parse(bad);
                QFAIL(bad);
            } catch (const Error& e) {
                QVERIFY2(QString(e.what()).contains("is not FILE:POS"), e.what());
            }
        }
    }

    void aPositionIsReachedAtTheTransactionEndingAtOrAfterIt() {
        StopPoint point = StopPoint::parse("mariadb-bin.000003:1000");
        QVERIFY(!point.reachedAfter(binlog::Location(binlog::BinlogPosition("mariadb-bin.000003", 999))));
        QVERIFY(point.reachedAfter(binlog::Location(binlog::BinlogPosition("mariadb-bin.000003", 1000))));
        QVERIFY(point.reachedAfter(binlog::Location(binlog::BinlogPosition("mariadb-bin.000004", 300))));
        QVERIFY(!point.reachedAfter(binlog::Location(binlog::BinlogPosition("mariadb-bin.000002", 5000))));
    }

    // A position between transactions (in a binlog checkpoint event, or the start of a new file) stops the
    // task in front of the first transaction starting at or after it, not after that transaction.
    void aPositionBetweenTransactionsStopsInFrontOfTheNext() {
        StopPoint point = StopPoint::parse("mariadb-bin.000004:4");
        QVERIFY(!point.reachedBefore(binlog::BinlogPosition("mariadb-bin.000003", 9000), UINT32_MAX));
        QVERIFY(point.reachedBefore(binlog::BinlogPosition("mariadb-bin.000004", 256), 0));
        QVERIFY(!point.reachedBefore(binlog::BinlogPosition(), UINT32_MAX));
        QVERIFY(!point.reachedBefore(binlog::BinlogPosition("other-bin.000009", 256), 0));
    }

    void aGtidIsReachedWhenTheStateContainsIt() {
        StopPoint point = StopPoint::parse("0-1-5");
        auto at = [](const char* gtids) {
            return binlog::Location(binlog::BinlogPosition("mariadb-bin.000001", 4),
                                    binlog::GtidPosition::parse(gtids));
        };
        QVERIFY(!point.reachedAfter(at("0-1-4")));
        QVERIFY(point.reachedAfter(at("0-1-5")));
        QVERIFY(point.reachedAfter(at("0-1-6,1-1-2")));
        QVERIFY(!point.reachedAfter(at("1-1-9")));
    }

    void aTimeStopsInFrontOfTheFirstTransactionAtOrAfterIt() {
        StopPoint point = StopPoint::parse("2026-12-01 10:00:00");
        const uint32_t at = 1796119200;  // date -u -d '2026-12-01 10:00:00' +%s
        const binlog::BinlogPosition start("mariadb-bin.000001", 256);
        QVERIFY(!point.reachedBefore(start, at - 1));
        QVERIFY(point.reachedBefore(start, at));
        QVERIFY(!point.reachedAfter(binlog::Location(binlog::BinlogPosition("mariadb-bin.000009", 4))));
        QCOMPARE(QString::fromStdString(point.describe()), QString("the stop point 2026-12-01 10:00:00"));
    }
};

QTEST_GUILESS_MAIN(StopPointTest)
#include "test_stop_point.moc"
