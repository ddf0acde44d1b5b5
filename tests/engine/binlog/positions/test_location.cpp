// Locations compare by their GTIDs when both carry GTIDs of one flavor (positions break ties), by
// binlog position otherwise, and say Incomparable explicitly instead of guessing.
#include <QtTest>

#include "engine/binlog/location.h"

using namespace syncscope::binlog;

Q_DECLARE_METATYPE(syncscope::binlog::PositionOrder)

namespace {
const std::string kA = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
const std::string kB = "5f2a0c44-8d1e-11ee-a1b2-0242ac120002";

// "FILE:POS|GTIDS" with either part optional.
Location location(const QString& text) {
    QStringList parts = text.split('|');
    std::string position = parts.value(0).toStdString();
    std::string gtids = parts.value(1).toStdString();
    if (position.empty()) {
        return Location::fromParts("", 0, gtids);
    }
    auto parsed = BinlogPosition::parse(position);
    return Location::fromParts(parsed.file(), parsed.offset(), gtids);
}
}  // namespace

class LocationTest : public QObject {
    Q_OBJECT

private slots:
    void compareSaysWhichIsFirstOrIncomparable_data() {
        QTest::addColumn<QString>("left");
        QTest::addColumn<QString>("right");
        QTest::addColumn<PositionOrder>("order");
        QTest::addRow("positions only") << "bin.000001:100"
                                        << "bin.000002:4" << PositionOrder::Before;
        QTest::addRow("positions equal") << "bin.000002:4"
                                         << "bin.000002:4" << PositionOrder::Same;
        QTest::addRow("mariadb gtids decide over positions") << "bin.000009:4|0-1-6"
                                                             << "bin.000001:4|0-1-5" << PositionOrder::After;
        QTest::addRow("equal gtids, positions break the tie") << "bin.000001:400|0-1-5"
                                                              << "bin.000001:500|0-1-5" << PositionOrder::Before;
        QTest::addRow("mariadb domains disagree") << "bin.000001:4|0-1-6,1-1-1"
                                                  << "bin.000002:4|0-1-5,1-1-2" << PositionOrder::Incomparable;
        QTest::addRow("mysql sets, subset")
            << QString::fromStdString("bin.000001:900|" + kA + ":1-4")
            << QString::fromStdString("bin.000001:100|" + kA + ":1-5") << PositionOrder::Before;
        QTest::addRow("mysql sets incomparable")
            << QString::fromStdString("bin.000001:4|" + kA + ":1-5")
            << QString::fromStdString("bin.000002:4|" + kB + ":1-5") << PositionOrder::Incomparable;
        QTest::addRow("flavors differ") << QString::fromStdString("bin.000001:4|" + kA + ":1-5") << "bin.000002:4|0-1-5"
                                        << PositionOrder::Incomparable;
        QTest::addRow("one side without gtids: positions") << "bin.000001:4|0-1-5"
                                                           << "bin.000001:8" << PositionOrder::Before;
        QTest::addRow("gtid only, equal") << "|0-1-5"
                                          << "|0-1-5" << PositionOrder::Same;
        QTest::addRow("gtid only against position-and-gtid") << "|0-1-5"
                                                             << "bin.000001:8|0-1-6" << PositionOrder::Before;
        QTest::addRow("empty against empty") << ""
                                             << "" << PositionOrder::Same;
        QTest::addRow("empty against a position") << ""
                                                  << "bin.000001:8" << PositionOrder::Incomparable;
        QTest::addRow("gtid only against position only") << "|0-1-5"
                                                         << "bin.000001:8" << PositionOrder::Incomparable;
    }
    void compareSaysWhichIsFirstOrIncomparable() {
        QFETCH(QString, left);
        QFETCH(QString, right);
        QFETCH(PositionOrder, order);
        QCOMPARE(location(left).compare(location(right)), order);
        QCOMPARE(location(right).compare(location(left)), reversed(order));
    }

    void fromPartsDetectsTheFlavor() {
        QCOMPARE(Location::fromParts("bin.000001", 4, "0-1-5,1-2-3").flavor(), GtidFlavor::MariaDB);
        QCOMPARE(Location::fromParts("bin.000001", 4, kA + ":1-3").flavor(), GtidFlavor::MySQL);
        QCOMPARE(Location::fromParts("bin.000001", 4, "").flavor(), GtidFlavor::None);
        QCOMPARE(Location::fromParts("bin.000001", 4, "0-1-5").gtidText(), std::string("0-1-5"));
        QCOMPARE(Location::fromParts("", 0, "").isEmpty(), true);
    }

    void fromPartsRefusesBadParts_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qulonglong>("offset");
        QTest::addColumn<QString>("gtids");
        QTest::addColumn<QString>("expected");
        QTest::addRow("file without suffix") << "relay" << 4ULL << ""
                                             << "no numeric suffix";
        QTest::addRow("offset without file") << "" << 4ULL << ""
                                             << "without a binlog file name";
        QTest::addRow("gtid of no flavor") << "bin.000001" << 4ULL << "abc"
                                           << "neither a MariaDB";
        QTest::addRow("broken mariadb gtid") << "bin.000001" << 4ULL << "0-1"
                                             << "DOMAIN-SERVER-SEQUENCE";
    }
    void fromPartsRefusesBadParts() {
        QFETCH(QString, file);
        QFETCH(qulonglong, offset);
        QFETCH(QString, gtids);
        QFETCH(QString, expected);
        try {
            Location::fromParts(file.toStdString(), offset, gtids.toStdString());
            QFAIL("bad location was accepted");
        } catch (const PositionError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(expected), e.what());
        }
    }

    void printsPositionAndGtids() {
        QCOMPARE(location("bin.000003:1234|0-1-5").toString(), std::string("bin.000003:1234 gtid 0-1-5"));
        QCOMPARE(location("bin.000003:1234").toString(), std::string("bin.000003:1234"));
        QCOMPARE(Location().toString(), std::string("(none)"));
    }
};

QTEST_GUILESS_MAIN(LocationTest)
#include "test_location.moc"
