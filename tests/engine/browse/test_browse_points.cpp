// The browser's small parts without a server or a file: start points as a DBA types them, local times,
// operation lists, and where transactions start and end in event sequences of each server flavor.
#include <QtTest>

#include <cstdlib>
#include <ctime>

#include "engine/browse/binlog_history.h"
#include "engine/browse/browse_filter.h"
#include "engine/browse/browse_time.h"
#include "engine/browse/start_point.h"
#include "engine/browse/transaction_boundaries.h"

using namespace syncscope;
using browse::StartPoint;
using Step = browse::TransactionBoundaries::Step;

Q_DECLARE_METATYPE(StartPoint::Kind)
Q_DECLARE_METATYPE(QList<syncscope::binlog::Event>)
Q_DECLARE_METATYPE(QList<Step>)

namespace {

binlog::Event mariaDbGtid(uint8_t flags = 0) {
    binlog::Event event;
    event.header.type = binlog::EventType::MariaDbGtid;
    binlog::MariaDbGtidEvent gtid;
    gtid.flags = flags;
    event.body = gtid;
    return event;
}

binlog::Event mysqlGtid() {
    binlog::Event event;
    event.header.type = binlog::EventType::Gtid;
    event.body = binlog::MySqlGtidEvent{};
    return event;
}

binlog::Event query(const std::string& text) {
    binlog::Event event;
    event.header.type = binlog::EventType::Query;
    binlog::QueryEvent body;
    body.query = text;
    body.kind = binlog::classifyQuery(text);
    event.body = body;
    return event;
}

binlog::Event ofType(binlog::EventType type) {
    binlog::Event event;
    event.header.type = type;
    if (type == binlog::EventType::Xid) {
        event.body = binlog::XidEvent{};
    }
    return event;
}

}  // namespace

class BrowsePointsTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        qputenv("TZ", "UTC");
        tzset();
    }

    void startPointForms_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<StartPoint::Kind>("kind");
        QTest::addColumn<QString>("file");
        QTest::addColumn<qulonglong>("offset");
        QTest::addRow("empty is the beginning") << "" << StartPoint::Kind::Beginning << "" << 0ULL;
        QTest::addRow("bare offset is in the first file") << "1234" << StartPoint::Kind::Position << "" << 1234ULL;
        QTest::addRow("file and offset") << "mariadb-bin.000003:4" << StartPoint::Kind::Position << "mariadb-bin.000003"
                                         << 4ULL;
        QTest::addRow("a file without numeric suffix")
            << "mysql-bin.checksum-none:120" << StartPoint::Kind::Position << "mysql-bin.checksum-none" << 120ULL;
        QTest::addRow("mariadb gtid") << "0-1-5" << StartPoint::Kind::Gtid << "" << 0ULL;
        QTest::addRow("mariadb gtid of two domains") << "0-1-5,1-2-7" << StartPoint::Kind::Gtid << "" << 0ULL;
        QTest::addRow("mysql gtid with one number is not a file")
            << "3e11fa47-71ca-11e1-9e33-c80aa9429562:5" << StartPoint::Kind::Gtid << "" << 0ULL;
        QTest::addRow("time to the second") << "2026-12-01 09:30:00" << StartPoint::Kind::Time << "" << 0ULL;
        QTest::addRow("time to the minute") << "2026-12-01 09:30" << StartPoint::Kind::Time << "" << 0ULL;
    }

    void startPointForms() {
        QFETCH(QString, text);
        QFETCH(StartPoint::Kind, kind);
        QFETCH(QString, file);
        QFETCH(qulonglong, offset);
        StartPoint point = browse::parseStartPoint(text.toStdString());
        QCOMPARE(point.kind, kind);
        QCOMPARE(QString::fromStdString(point.position.file), file);
        QCOMPARE(point.position.offset, offset);
    }

    void badStartPointsNameTheAcceptedForms_data() {
        QTest::addColumn<QString>("text");
        QTest::addRow("words") << "yesterday";
        QTest::addRow("february 30th") << "2026-02-30 10:00:00";
        QTest::addRow("hour 24") << "2026-02-03 24:00:00";
        QTest::addRow("file without offset") << "mariadb-bin.000003:";
    }

    void badStartPointsNameTheAcceptedForms() {
        QFETCH(QString, text);
        try {
            browse::parseStartPoint(text.toStdString());
            QFAIL("accepted");
        } catch (const browse::BrowseError& e) {
            QVERIFY2(QString(e.what()).contains(text) &&
                         (QString(e.what()).contains("FILE:POS") || QString(e.what()).contains("not a real time")),
                     e.what());
        }
    }

    void localTimesReadBackAsWritten() {
        auto time = browse::parseLocalTime("2017-04-24 03:50:14");
        QVERIFY(time);
        QCOMPARE(*time, 1493005814U);  // date -u -d '2017-04-24 03:50:14' +%s
        QCOMPARE(QString::fromStdString(browse::formatLocalTime(*time)), QString("2017-04-24 03:50:14"));
    }

    void operationListsAreCheckedWord_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addRow("one") << "insert" << true;
        QTest::addRow("several any case") << "Insert,DELETE,ddl" << true;
        QTest::addRow("a typo") << "insert,updat" << false;
        QTest::addRow("empty word") << "insert," << false;
    }

    void operationListsAreCheckedWord() {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        bool accepted = true;
        try {
            browse::BrowseFilter::parseOperations(text.toStdString());
        } catch (const browse::BrowseError&) {
            accepted = false;
        }
        QCOMPARE(accepted, valid);
    }

    void transactionBoundaries_data() {
        QTest::addColumn<QList<binlog::Event>>("events");
        QTest::addColumn<QList<Step>>("steps");
        QTest::addRow("mariadb dml: gtid, begin, rows, xid")
            << QList<binlog::Event>{mariaDbGtid(), query("BEGIN"), ofType(binlog::EventType::TableMap),
                                    ofType(binlog::EventType::WriteRowsV1), ofType(binlog::EventType::Xid)}
            << QList<Step>{Step::Starts, Step::Inside, Step::Inside, Step::Inside, Step::Ends};
        QTest::addRow("mariadb 10.0 dml without begin ends at xid")
            << QList<binlog::Event>{mariaDbGtid(), ofType(binlog::EventType::TableMap),
                                    ofType(binlog::EventType::WriteRowsV1), ofType(binlog::EventType::Xid)}
            << QList<Step>{Step::Starts, Step::Inside, Step::Inside, Step::Ends};
        QTest::addRow("mariadb standalone ddl ends at its statement")
            << QList<binlog::Event>{mariaDbGtid(binlog::MariaDbGtidEvent::kStandalone),
                                    query("CREATE TABLE t (id INT)"), ofType(binlog::EventType::GtidList)}
            << QList<Step>{Step::Starts, Step::Ends, Step::Outside};
        QTest::addRow("a statement inside begin does not end it")
            << QList<binlog::Event>{mariaDbGtid(), query("BEGIN"), query("INSERT INTO t VALUES (1)"), query("COMMIT")}
            << QList<Step>{Step::Starts, Step::Inside, Step::Inside, Step::Ends};
        QTest::addRow("mariadb xa: prepare ends a group, xa commit is a group")
            << QList<binlog::Event>{mariaDbGtid(binlog::MariaDbGtidEvent::kPreparedXa),
                                    query("XA START 'x'"),
                                    ofType(binlog::EventType::WriteRowsV1),
                                    query("XA END 'x'"),
                                    ofType(binlog::EventType::XaPrepare),
                                    mariaDbGtid(binlog::MariaDbGtidEvent::kCompletedXa),
                                    query("XA COMMIT 'x'")}
            << QList<Step>{Step::Starts, Step::Inside, Step::Inside, Step::Inside,
                           Step::Ends,   Step::Starts, Step::Ends};
        QTest::addRow("mysql ddl after a gtid") << QList<binlog::Event>{mysqlGtid(), query("ALTER TABLE t ADD c INT")}
                                                << QList<Step>{Step::Starts, Step::Ends};
        QTest::addRow("no gtids: begin opens, commit closes, a ddl is alone")
            << QList<binlog::Event>{ofType(binlog::EventType::FormatDescription), query("BEGIN"),
                                    ofType(binlog::EventType::WriteRowsV1), ofType(binlog::EventType::Xid),
                                    query("DROP TABLE t")}
            << QList<Step>{Step::Outside, Step::Starts, Step::Inside, Step::Ends, Step::StartsAndEnds};
        QTest::addRow("rollback ends") << QList<binlog::Event>{query("BEGIN"), query("ROLLBACK")}
                                       << QList<Step>{Step::Starts, Step::Ends};
    }

    void transactionBoundaries() {
        QFETCH(QList<binlog::Event>, events);
        QFETCH(QList<Step>, steps);
        browse::TransactionBoundaries boundaries;
        for (qsizetype i = 0; i < events.size(); ++i) {
            QCOMPARE(static_cast<int>(boundaries.step(events[i])), static_cast<int>(steps[i]));
        }
        QVERIFY(!boundaries.inTransaction());
    }
};

QTEST_GUILESS_MAIN(BrowsePointsTest)
#include "test_browse_points.moc"
