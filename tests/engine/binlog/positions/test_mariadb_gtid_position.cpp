// MariaDB GTIDs and GTID positions: parse and print round-trip, one GTID per domain, update, and a
// per-domain comparison that says Incomparable when domains disagree or histories diverged.
#include <QtTest>

#include "engine/binlog/binlog_position.h"
#include "engine/binlog/mariadb_gtid_position.h"

using namespace syncscope::binlog;

Q_DECLARE_METATYPE(syncscope::binlog::PositionOrder)

class MariaDbGtidPositionTest : public QObject {
    Q_OBJECT

private slots:
    void gtidParsesItsThreeParts() {
        Gtid gtid = Gtid::parse("1-2-4294967296");
        QCOMPARE(gtid.domainId, 1u);
        QCOMPARE(gtid.serverId, 2u);
        QCOMPARE(gtid.sequence, 4294967296ULL);
        QCOMPARE(gtid.toString(), std::string("1-2-4294967296"));
    }

    void positionRoundTripsNormalisedByDomain_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("printed");
        QTest::addRow("one domain") << "0-1-5"
                                    << "0-1-5";
        QTest::addRow("two domains") << "0-1-5,1-2-7"
                                     << "0-1-5,1-2-7";
        QTest::addRow("sorted by domain") << "3-1-9,0-1-5"
                                          << "0-1-5,3-1-9";
        QTest::addRow("spaces and newline") << " 0-1-5 ,\n1-2-7 "
                                            << "0-1-5,1-2-7";
        QTest::addRow("empty") << ""
                               << "";
        QTest::addRow("blank") << "  "
                               << "";
    }
    void positionRoundTripsNormalisedByDomain() {
        QFETCH(QString, text);
        QFETCH(QString, printed);
        auto position = GtidPosition::parse(text.toStdString());
        QCOMPARE(QString::fromStdString(position.toString()), printed);
        QCOMPARE(GtidPosition::parse(position.toString()), position);
    }

    void badTextIsRefusedNamingIt_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::addRow("two parts") << "0-1"
                                   << "not DOMAIN-SERVER-SEQUENCE";
        QTest::addRow("four parts") << "0-1-5-6"
                                    << "sequence number '5-6'";
        QTest::addRow("letters") << "0-x-5"
                                 << "server id 'x'";
        QTest::addRow("domain too big") << "4294967296-1-5"
                                        << "domain id '4294967296'";
        QTest::addRow("two in one domain") << "0-1-5,0-2-7"
                                           << "two GTIDs for domain 0";
        QTest::addRow("empty item") << "0-1-5,,1-1-1"
                                    << "empty item";
        QTest::addRow("trailing comma") << "0-1-5,"
                                        << "empty item";
        QTest::addRow("negative") << "-1-1-5"
                                  << "domain id ''";
    }
    void badTextIsRefusedNamingIt() {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        try {
            GtidPosition::parse(text.toStdString());
            QFAIL("bad GTID position was accepted");
        } catch (const PositionError& e) {
            QString message = QString::fromUtf8(e.what());
            QVERIFY2(message.contains(expected), qPrintable(message));
            QVERIFY2(message.contains(text), qPrintable(message));
        }
    }

    void updateReplacesTheGtidOfItsDomainOnly() {
        auto position = GtidPosition::parse("0-1-5,1-2-7");
        position.update(Gtid{0, 3, 6});
        QCOMPARE(position.toString(), std::string("0-3-6,1-2-7"));
        position.update(Gtid{2, 1, 1});
        QCOMPARE(position.toString(), std::string("0-3-6,1-2-7,2-1-1"));
        QCOMPARE(position.forDomain(1)->sequence, 7ULL);
        QVERIFY(!position.forDomain(9).has_value());
    }

    void compareWorksDomainByDomain_data() {
        QTest::addColumn<QString>("left");
        QTest::addColumn<QString>("right");
        QTest::addColumn<PositionOrder>("order");
        QTest::addRow("equal") << "0-1-5,1-2-7"
                               << "0-1-5,1-2-7" << PositionOrder::Same;
        QTest::addRow("behind in one domain") << "0-1-4,1-2-7"
                                              << "0-1-5,1-2-7" << PositionOrder::Before;
        QTest::addRow("ahead in one domain") << "0-1-6,1-2-7"
                                             << "0-1-5,1-2-7" << PositionOrder::After;
        QTest::addRow("ahead in one, behind in other") << "0-1-6,1-2-6"
                                                       << "0-1-5,1-2-7" << PositionOrder::Incomparable;
        QTest::addRow("missing domain counts as nothing seen") << "0-1-5"
                                                               << "0-1-5,1-2-7" << PositionOrder::Before;
        QTest::addRow("extra domain is ahead") << "0-1-5,1-2-7"
                                               << "0-1-5" << PositionOrder::After;
        QTest::addRow("different domains only") << "0-1-5"
                                                << "1-1-5" << PositionOrder::Incomparable;
        QTest::addRow("missing domain, but ahead elsewhere") << "0-1-9"
                                                             << "0-1-5,1-2-7" << PositionOrder::Incomparable;
        QTest::addRow("same sequence, other server: diverged") << "0-1-5"
                                                               << "0-2-5" << PositionOrder::Incomparable;
        QTest::addRow("higher sequence from other server") << "0-2-6"
                                                           << "0-1-5" << PositionOrder::After;
        QTest::addRow("empty against empty") << ""
                                             << "" << PositionOrder::Same;
        QTest::addRow("empty before anything") << ""
                                               << "0-1-1" << PositionOrder::Before;
    }
    void compareWorksDomainByDomain() {
        QFETCH(QString, left);
        QFETCH(QString, right);
        QFETCH(PositionOrder, order);
        auto a = GtidPosition::parse(left.toStdString());
        auto b = GtidPosition::parse(right.toStdString());
        QCOMPARE(a.compare(b), order);
        QCOMPARE(b.compare(a), reversed(order));
        QCOMPARE(a.contains(b), order == PositionOrder::Same || order == PositionOrder::After);
    }
};

QTEST_GUILESS_MAIN(MariaDbGtidPositionTest)
#include "test_mariadb_gtid_position.moc"
