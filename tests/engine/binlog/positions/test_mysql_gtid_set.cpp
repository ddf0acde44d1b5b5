// MySQL GTID sets: normalised parse and print, union, containment, subtraction, the empty set, and
// comparison by containment with Incomparable when each set holds what the other lacks.
#include <QtTest>

#include "engine/binlog/binlog_position.h"
#include "engine/binlog/mysql_gtid_set.h"

using namespace syncscope::binlog;

Q_DECLARE_METATYPE(syncscope::binlog::PositionOrder)

namespace {
const QString kA = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
const QString kB = "5f2a0c44-8d1e-11ee-a1b2-0242ac120002";

GtidSet set(const QString& text) {
    return GtidSet::parse(text.toStdString());
}
}  // namespace

class MySqlGtidSetTest : public QObject {
    Q_OBJECT

private slots:
    void parseNormalisesAndPrintsRoundTrip_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("printed");
        QTest::addRow("intervals") << kA + ":1-5:7-9" << kA + ":1-5:7-9";
        QTest::addRow("two servers") << kA + ":1-5:7-9," + kB + ":3" << kA + ":1-5:7-9," + kB + ":3";
        QTest::addRow("servers sorted") << kB + ":3," + kA + ":1" << kA + ":1," + kB + ":3";
        QTest::addRow("touching merge") << kA + ":1-5:6-9" << kA + ":1-9";
        QTest::addRow("overlap merge") << kA + ":4-8:1-5" << kA + ":1-8";
        QTest::addRow("single merges") << kA + ":1:2:3" << kA + ":1-3";
        QTest::addRow("same uuid twice") << kA + ":1-3," + kA + ":10" << kA + ":1-3:10";
        QTest::addRow("upper case uuid") << kA.toUpper() + ":1" << kA + ":1";
        QTest::addRow("uuid without dashes") << QString(kA).remove('-') + ":1" << kA + ":1";
        QTest::addRow("mysql newlines") << kA + ":1-5,\n" + kB + ":1-2" << kA + ":1-5," + kB + ":1-2";
        QTest::addRow("empty") << ""
                               << "";
    }
    void parseNormalisesAndPrintsRoundTrip() {
        QFETCH(QString, text);
        QFETCH(QString, printed);
        GtidSet parsed = set(text);
        QCOMPARE(QString::fromStdString(parsed.toString()), printed);
        QCOMPARE(GtidSet::parse(parsed.toString()), parsed);
    }

    void badTextIsRefusedNamingIt_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::addRow("no interval") << kA << "has no ':'";
        QTest::addRow("bad uuid") << "3e11fa47-71ca-11e1-9e33:1-5"
                                  << "is not a server UUID";
        QTest::addRow("non-hex uuid") << "3e11fa47-71ca-11e1-9e33-c80aa942956z:1"
                                      << "is not a server UUID";
        QTest::addRow("zero") << kA + ":0-5"
                              << "start at 1";
        QTest::addRow("reversed") << kA + ":9-5"
                                  << "ends before it starts";
        QTest::addRow("garbage interval") << kA + ":1-x"
                                          << "is not N or N-M";
        QTest::addRow("empty interval") << kA + ":"
                                        << "is not N or N-M";
        QTest::addRow("tagged") << kA + ":tag1:1-5"
                                << "tagged GTIDs are not supported";
        QTest::addRow("empty item") << kA + ":1,," + kB + ":1"
                                    << "empty item";
    }
    void badTextIsRefusedNamingIt() {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        try {
            set(text);
            QFAIL("bad GTID set was accepted");
        } catch (const PositionError& e) {
            QString message = QString::fromUtf8(e.what());
            QVERIFY2(message.contains(expected), qPrintable(message));
        }
    }

    void unionMergesIntervals_data() {
        QTest::addColumn<QString>("left");
        QTest::addColumn<QString>("right");
        QTest::addColumn<QString>("result");
        QTest::addRow("fill the gap") << kA + ":1-5:7-9" << kA + ":6" << kA + ":1-9";
        QTest::addRow("other server") << kA + ":1-5" << kB + ":3" << kA + ":1-5," + kB + ":3";
        QTest::addRow("with empty") << kA + ":1-5"
                                    << "" << kA + ":1-5";
        QTest::addRow("covering") << kA + ":3-4:8" << kA + ":1-10" << kA + ":1-10";
    }
    void unionMergesIntervals() {
        QFETCH(QString, left);
        QFETCH(QString, right);
        QFETCH(QString, result);
        QCOMPARE(QString::fromStdString(set(left).unionWith(set(right)).toString()), result);
        QCOMPARE(QString::fromStdString(set(right).unionWith(set(left)).toString()), result);
    }

    void subtractRemovesTransactions_data() {
        QTest::addColumn<QString>("left");
        QTest::addColumn<QString>("right");
        QTest::addColumn<QString>("result");
        QTest::addRow("middle") << kA + ":1-9" << kA + ":4-5" << kA + ":1-3:6-9";
        QTest::addRow("ends") << kA + ":1-9" << kA + ":1:9" << kA + ":2-8";
        QTest::addRow("everything") << kA + ":1-9" << kA + ":1-20"
                                    << "";
        QTest::addRow("other server untouched") << kA + ":1-9," + kB + ":1-2" << kB + ":1-2" << kA + ":1-9";
        QTest::addRow("two holes in one interval") << kA + ":1-10" << kA + ":2:4-5:9" << kA + ":1:3:6-8:10";
        QTest::addRow("nothing") << kA + ":1-9"
                                 << "" << kA + ":1-9";
        QTest::addRow("from empty") << "" << kA + ":1-9"
                                    << "";
    }
    void subtractRemovesTransactions() {
        QFETCH(QString, left);
        QFETCH(QString, right);
        QFETCH(QString, result);
        QCOMPARE(QString::fromStdString(set(left).subtract(set(right)).toString()), result);
    }

    void addOneTransactionAndContainsIt() {
        GtidSet gtids;
        QVERIFY(gtids.isEmpty());
        gtids.add(kA.toStdString(), 1);
        gtids.add(kA.toStdString(), 2);
        gtids.add(kA.toStdString(), 4);
        QCOMPARE(QString::fromStdString(gtids.toString()), kA + ":1-2:4");
        QVERIFY(gtids.contains(kA.toUpper().toStdString(), 2));
        QVERIFY(!gtids.contains(kA.toStdString(), 3));
        QVERIFY(!gtids.contains(kB.toStdString(), 1));
        QCOMPARE(gtids.transactionCount(), 3ULL);
        QVERIFY_THROWS_EXCEPTION(PositionError, gtids.add("not-a-uuid", 1));
        QVERIFY_THROWS_EXCEPTION(PositionError, gtids.add(kA.toStdString(), 0));
    }

    void compareByContainment_data() {
        QTest::addColumn<QString>("left");
        QTest::addColumn<QString>("right");
        QTest::addColumn<PositionOrder>("order");
        QTest::addRow("equal") << kA + ":1-5" << kA + ":1-5" << PositionOrder::Same;
        QTest::addRow("subset") << kA + ":1-4" << kA + ":1-5" << PositionOrder::Before;
        QTest::addRow("superset") << kA + ":1-5," + kB + ":1" << kA + ":1-5" << PositionOrder::After;
        QTest::addRow("different servers") << kA + ":1-5" << kB + ":1-5" << PositionOrder::Incomparable;
        QTest::addRow("holes on both sides") << kA + ":1-3:5" << kA + ":1-4" << PositionOrder::Incomparable;
        QTest::addRow("empty before anything") << "" << kA + ":1" << PositionOrder::Before;
        QTest::addRow("both empty") << ""
                                    << "" << PositionOrder::Same;
    }
    void compareByContainment() {
        QFETCH(QString, left);
        QFETCH(QString, right);
        QFETCH(PositionOrder, order);
        QCOMPARE(set(left).compare(set(right)), order);
        QCOMPARE(set(right).compare(set(left)), reversed(order));
        QCOMPARE(set(left).contains(set(right)), order == PositionOrder::Same || order == PositionOrder::After);
    }

    void largestTransactionNumberDoesNotOverflow() {
        QString max = QString::number(std::numeric_limits<uint64_t>::max());
        GtidSet gtids = set(kA + ":5-" + max);
        gtids.add(kA.toStdString(), GtidRange{1, 4});
        QCOMPARE(QString::fromStdString(gtids.toString()), kA + ":1-" + max);
        QCOMPARE(QString::fromStdString(gtids.subtract(set(kA + ":2-" + max)).toString()), kA + ":1");
    }
};

QTEST_GUILESS_MAIN(MySqlGtidSetTest)
#include "test_mysql_gtid_set.moc"
