// The event browser on real binlogs of other projects (MySQL 5.6 without GTIDs, MariaDB 10.0 with):
// transactions grouped as mariadb-binlog shows them, filters by table, operation and key, a time found
// by a binary search over five files, and points that are refused with what to use instead.
#include <QtTest>

#include <cstdlib>
#include <ctime>

#include "engine/browse/browse_start.h"
#include "engine/browse/browse_time.h"
#include "engine/browse/event_browser.h"
#include "engine/browse/local_binlog_history.h"
#include "tests/support/test_env.h"

using namespace syncscope;

namespace {

// mysql-bin.04 is not among the fixtures: the list has a gap, as a history with a lost file would.
std::vector<std::filesystem::path> zaloraFiles() {
    std::vector<std::filesystem::path> files;
    for (const char* name : {"mysql-bin.01", "mysql-bin.02", "mysql-bin.03", "mysql-bin.05", "mysql-bin.06"}) {
        files.push_back(std::filesystem::path(test::fixturesDir()) / "zalora" / name);
    }
    return files;
}

std::vector<browse::BrowsedTransaction> browseAll(browse::BinlogHistory& history, const browse::BrowseFilter& filter,
                                                  const std::string& from = {}, browse::BrowseRange range = {}) {
    auto opened = browse::openFrom(history, browse::parseStartPoint(from));
    range.skipUpToGtid = opened.skipUpToGtid;
    browse::TransactionCollector collector(SIZE_MAX);
    browse::EventBrowser(filter, history.files()).browse(*opened.stream, collector, range);
    std::vector<browse::BrowsedTransaction> transactions;
    for (auto& trx : collector.transactions()) {
        if (!trx.isMarker) {
            transactions.push_back(std::move(trx));
        }
    }
    return transactions;
}

size_t eventCount(const std::vector<browse::BrowsedTransaction>& transactions) {
    size_t count = 0;
    for (const auto& trx : transactions) {
        count += trx.events.size();
    }
    return count;
}

QString errorOf(browse::BinlogHistory& history, const std::string& from) {
    try {
        browse::openFrom(history, browse::parseStartPoint(from));
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

}  // namespace

class EventBrowserFixturesTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        if (test::fixturesDir().empty()) {
            QSKIP("../shared/fixtures/binlog is not present: nothing to browse");
        }
        qputenv("TZ", "UTC");  // the fixtures were written in UTC; times below are as mariadb-binlog prints them
        tzset();
    }

    void everyTransactionOfFiveFilesIsGrouped() {
        browse::LocalBinlogHistory history(zaloraFiles());
        auto transactions = browseAll(history, {});
        // 01: 4 DML; 02: CREATE, DML, DROP; 03: 4 DML; 05: 3 statements; 06: 3 statements, 2 DML.
        QCOMPARE(transactions.size(), size_t{19});
        const auto& first = transactions.front();
        QCOMPARE(QString::fromStdString(first.file), QString("mysql-bin.01"));
        QCOMPARE(first.pos, uint64_t{120});
        QCOMPARE(first.endPos, uint64_t{428});
        QVERIFY(first.complete);
        QCOMPARE(first.eventCount, uint64_t{4});  // BEGIN, TABLE_MAP, WRITE_ROWS, XID
        QCOMPARE(first.rowCount, uint64_t{2});
        QCOMPARE(QString::fromStdString(browse::formatLocalTime(first.timestamp)), QString("2017-04-13 06:34:30"));
        size_t rowsEvents = 0;
        for (const auto& trx : transactions) {
            for (const auto& event : trx.events) {
                rowsEvents += event.isRows() ? 1 : 0;
            }
        }
        QCOMPARE(rowsEvents, size_t{11});
    }

    void filters_data() {
        QTest::addColumn<QString>("table");
        QTest::addColumn<QString>("operations");
        QTest::addColumn<int>("events");
        QTest::addRow("one table: rows events only") << "buildings"
                                                     << "" << 6;
        QTest::addRow("one operation") << ""
                                       << "delete" << 1;
        QTest::addRow("ddl naming a table") << "employees"
                                            << "ddl" << 2;
        QTest::addRow("table and operation") << "buildings"
                                             << "update" << 3;
    }

    void filters() {
        QFETCH(QString, table);
        QFETCH(QString, operations);
        QFETCH(int, events);
        browse::LocalBinlogHistory history(zaloraFiles());
        browse::BrowseFilter filter;
        if (!table.isEmpty()) {
            filter.schema = "test_db";
            filter.table = table.toStdString();
        }
        if (!operations.isEmpty()) {
            filter.operations = browse::BrowseFilter::parseOperations(operations.toStdString());
        }
        auto transactions = browseAll(history, filter);
        QCOMPARE(static_cast<int>(eventCount(transactions)), events);
        for (const auto& trx : transactions) {
            for (const auto& event : trx.events) {
                QVERIFY(table.isEmpty() || event.table == table.toStdString() || event.operation == "ddl");
                QVERIFY(operations.isEmpty() || event.operation == operations.toStdString());
            }
        }
    }

    void aKeyHistoryFollowsOneRowAcrossFiles() {
        browse::LocalBinlogHistory history(zaloraFiles());
        browse::BrowseFilter filter;
        filter.schema = "test_db";
        filter.table = "buildings";
        filter.keyValue = "3";  // MySQL 5.6 logs no key: the first column stands for it
        auto transactions = browseAll(history, filter);
        QCOMPARE(eventCount(transactions), size_t{3});
        std::vector<browse::BrowsedEvent> changes;
        for (const auto& trx : transactions) {
            changes.insert(changes.end(), trx.events.begin(), trx.events.end());
        }
        QCOMPARE(QString::fromStdString(changes[0].operation), QString("insert"));
        QCOMPARE(changes[0].rows.size(), size_t{1});  // the insert's other row is key 4
        QCOMPARE(QString::fromStdString(changes[0].rows[0].after.at(1)), QString("'foo'"));
        QCOMPARE(QString::fromStdString(changes[1].rows[0].before.at(1)), QString("'foo'"));
        QCOMPARE(QString::fromStdString(changes[1].rows[0].after.at(1)), QString("'foo2'"));
        QCOMPARE(changes[2].rowCount, uint64_t{3});
        QCOMPARE(changes[2].rows.size(), size_t{1});
        QCOMPARE(QString::fromStdString(changes[2].rows[0].before.at(1)), QString("'foo2'"));
        QCOMPARE(QString::fromStdString(changes[2].columnNames.at(0)), QString("@1"));
    }

    void aTimeIsTheFirstTransactionAtOrAfterIt_data() {
        QTest::addColumn<QString>("time");
        QTest::addColumn<QString>("start");
        QTest::addRow("the first transaction of all") << "2017-04-13 06:34:20"
                                                      << "mysql-bin.01:120";
        QTest::addRow("exactly a transaction's time") << "2017-04-13 06:34:37"
                                                      << "mysql-bin.01:428";
        QTest::addRow("between two transactions of a file") << "2017-04-24 03:50:00"
                                                            << "mysql-bin.03:354";
        QTest::addRow("after a file's last transaction: the next file") << "2017-04-24 04:00:00"
                                                                        << "mysql-bin.05:120";
        QTest::addRow("in the newest file") << "2017-04-24 05:45:40"
                                            << "mysql-bin.06:943";
    }

    void aTimeIsTheFirstTransactionAtOrAfterIt() {
        QFETCH(QString, time);
        QFETCH(QString, start);
        browse::LocalBinlogHistory history(zaloraFiles());
        browse::PointResolver resolver(history);
        auto found = resolver.firstTransactionAtOrAfter(*browse::parseLocalTime(time.toStdString()));
        QCOMPARE(QString::fromStdString(found.start.toString()), start);
        QVERIFY(found.filesProbed <= 4);  // 1 for the oldest file's start + at most 3 halvings of 5 files
    }

    void pointsOutsideTheHistoryOrInsideATransactionAreRefused_data() {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("message");
        QTest::addRow("a time before the oldest file")
            << "2017-04-01 00:00:00"
            << "is before the oldest binlog of the given files (mysql-bin.01, mysql-bin.02, "
               "mysql-bin.03, mysql-bin.05, mysql-bin.06): mysql-bin.01 begins at 2017-04-13 "
               "06:34:12";
        QTest::addRow("a time after the newest transaction") << "2017-05-01 00:00:00"
                                                             << "is after the newest transaction of the given files";
        QTest::addRow("inside a transaction")
            << "mysql-bin.01:197"
            << "mysql-bin.01:197 is in the middle of the transaction at mysql-bin.01:120 (2017-04-13 06:34:30), "
               "which ends at mysql-bin.01:428: starting there would apply half of it; use mysql-bin.01:120 (from its "
               "start) or mysql-bin.01:428 (after it)";
        QTest::addRow("inside an event") << "mysql-bin.01:198"
                                         << "is not where an event starts: the events around it start at "
                                            "mysql-bin.01:197 and mysql-bin.01:258";
        QTest::addRow("a file not in the list") << "mysql-bin.04:4"
                                                << "has no file 'mysql-bin.04'";
        QTest::addRow("beyond a file's end") << "mysql-bin.02:900"
                                             << "is beyond the end of mysql-bin.02";
    }

    void pointsOutsideTheHistoryOrInsideATransactionAreRefused() {
        QFETCH(QString, from);
        QFETCH(QString, message);
        browse::LocalBinlogHistory history(zaloraFiles());
        QString error = errorOf(history, from.toStdString());
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    void aTransactionBoundaryIsAccepted() {
        browse::LocalBinlogHistory history(zaloraFiles());
        QVERIFY(errorOf(history, "mysql-bin.01:428").isEmpty());
        QVERIFY(errorOf(history, "mysql-bin.02:794").isEmpty());  // the file's end
        auto transactions = browseAll(history, {}, "mysql-bin.03:354");
        QCOMPARE(QString::fromStdString(transactions.front().file), QString("mysql-bin.03"));
        QCOMPARE(transactions.front().pos, uint64_t{354});
    }

    void aStopPointEndsTheRange() {
        browse::LocalBinlogHistory history(zaloraFiles());
        browse::BrowseRange range;
        range.stopAt = browse::BrowsePoint{"mysql-bin.03", 354};
        auto transactions = browseAll(history, {}, {}, range);
        QCOMPARE(transactions.size(), size_t{8});  // 4 of 01, 3 of 02, the first of 03
        QCOMPARE(QString::fromStdString(transactions.back().endFile), QString("mysql-bin.03"));
        QCOMPARE(transactions.back().endPos, uint64_t{354});
    }

    void aGtidStartOnFilesSkipsWhatItCovers() {
        browse::LocalBinlogHistory history({std::filesystem::path(test::fixturesDir()) / "zalora" / "mysql-bin.07"});
        auto transactions = browseAll(history, {}, "0-3704-2815");
        QCOMPARE(transactions.size(), size_t{1});
        QCOMPARE(QString::fromStdString(transactions.front().gtid), QString("0-3704-2816"));
        QCOMPARE(transactions.front().rowCount, uint64_t{2});
        QCOMPARE(browseAll(history, {}, "0-3704-2814").size(), size_t{2});
    }

    void aGtidDomainFilterKeepsItsTransactions() {
        browse::LocalBinlogHistory history({std::filesystem::path(test::fixturesDir()) / "zalora" / "mysql-bin.07"});
        browse::BrowseFilter filter;
        filter.gtidDomain = 0;
        QCOMPARE(browseAll(history, filter).size(), size_t{2});
        filter.gtidDomain = 1;
        QCOMPARE(browseAll(history, filter).size(), size_t{0});
    }
};

QTEST_GUILESS_MAIN(EventBrowserFixturesTest)
#include "test_event_browser_fixtures.moc"
