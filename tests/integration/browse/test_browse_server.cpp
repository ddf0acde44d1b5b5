// The event browser against the private upstream, through a binlog dump: `syncscope-cli events` groups
// transactions, filters a table and follows one key's history; a time resolves to the first
// transaction at or after it over rotated files; bad points (a purged file, a GTID the upstream never
// wrote, a position inside a transaction or inside an event, a time outside the history) are refused
// with a message naming what to use instead.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <thread>

#include "engine/browse/browse_start.h"
#include "engine/browse/browse_time.h"
#include "engine/browse/event_browser.h"
#include "engine/browse/point_resolver.h"
#include "engine/browse/server_binlog_history.h"
#include "engine/source/upstream_connection.h"
#include "tests/support/test_env.h"

using namespace syncscope;

namespace {

const QString kCli = QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli");
constexpr int kTimeoutMs = 60000;
constexpr int kRotatedFiles = 5;
// Transactions one file apart must differ in their second: event times are whole seconds.
constexpr std::chrono::milliseconds kBetweenFiles{1100};

struct Run {
    int exitCode = -1;
    QList<QJsonObject> events;
    QByteArray out;
    QByteArray err;
};

QString passwordFile() {
    QString dir = QString::fromStdString(test::outputDir("browse_server"));
    QFile file(dir + "/password");
    file.open(QIODevice::WriteOnly | QIODevice::Truncate);
    file.write(QByteArray::fromStdString(test::upstreamReplication().password + "\n"));
    return file.fileName();
}

Run events(const QStringList& args) {
    auto repl = test::upstreamReplication();
    QStringList all{"events",
                    "--server",
                    QString::fromStdString(repl.host + ":" + std::to_string(repl.port)),
                    "--user",
                    QString::fromStdString(repl.user),
                    "--password-file",
                    passwordFile()};
    QProcess process;
    process.start(kCli, all + args);
    Run run;
    if (!process.waitForFinished(kTimeoutMs)) {
        process.kill();
        process.waitForFinished();
        return run;
    }
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = process.readAllStandardOutput();
    for (const QByteArray& line : run.out.split('\n')) {
        if (line.startsWith('{')) {
            run.events.push_back(QJsonDocument::fromJson(line).object());
        }
    }
    run.err = process.readAllStandardError();
    return run;
}

QString masterPosition(source::UpstreamConnection& root) {
    auto status = root.query("SHOW MASTER STATUS");
    return QString::fromStdString(*status.at(0).at(0) + ":" + *status.at(0).at(1));
}

QList<QJsonObject> rowsEvents(const QList<QJsonObject>& events) {
    QList<QJsonObject> rows;
    for (const auto& event : events) {
        if (event.contains("rows")) {
            rows.push_back(event);
        }
    }
    return rows;
}

}  // namespace

class BrowseServerTest : public QObject {
    Q_OBJECT

    std::unique_ptr<source::UpstreamConnection> root_;
    QString before_;      // the position before the orders workload
    QString gtidBefore_;  // the GTID position before it

private slots:
    void initTestCase() {
        root_ = std::make_unique<source::UpstreamConnection>(test::engineSettings(test::upstreamRoot()));
        root_->execute("DROP DATABASE IF EXISTS browse_it");
        root_->execute("CREATE DATABASE browse_it");
        root_->execute("CREATE TABLE browse_it.orders (id INT PRIMARY KEY, qty INT)");
        root_->execute("CREATE TABLE browse_it.other (id INT PRIMARY KEY)");
        before_ = masterPosition(*root_);
        gtidBefore_ = QString::fromStdString(root_->queryValue("SELECT @@gtid_binlog_pos").value_or(""));
        root_->execute("INSERT INTO browse_it.orders VALUES (1, 1), (2, 1)");
        root_->execute("INSERT INTO browse_it.other VALUES (1)");
        root_->execute("UPDATE browse_it.orders SET qty = 2 WHERE id = 1");
        root_->execute("DELETE FROM browse_it.orders WHERE id = 2");
    }

    void eventsFromAPositionAreGroupedByTransaction() {
        Run run = events({"--from", before_, "--json"});
        QCOMPARE(run.exitCode, 0);
        auto rows = rowsEvents(run.events);
        QCOMPARE(rows.size(), 4);
        QCOMPARE(rows[0].value("op").toString(), QString("insert"));
        QCOMPARE(rows[0].value("rows").toInt(), 2);
        QCOMPARE(rows[1].value("table").toString(), QString("other"));
        QCOMPARE(rows[2].value("op").toString(), QString("update"));
        QCOMPARE(rows[3].value("op").toString(), QString("delete"));
        // Every event of the first transaction names its start; the GTID event is the first of them.
        QString firstGtid = rows[0].value("gtid").toString();
        QVERIFY(!firstGtid.isEmpty());
        QCOMPARE(run.events.first().value("type").toString(), QString("GTID_EVENT"));
        QCOMPARE(run.events.first().value("pos").toInteger(), rows[0].value("trx_pos").toInteger());
        QVERIFY(rows[1].value("trx_pos").toInteger() > rows[0].value("trx_pos").toInteger());
        // The text form: a line per transaction, an indented line per event.
        Run text = events({"--from", before_, "--table", "browse_it.orders"});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("# " + firstGtid.toUtf8() + " at "), text.out.constData());
        QVERIFY2(text.out.contains(" browse_it.orders insert 2 rows"), text.out.constData());
        QVERIFY2(!text.out.contains("browse_it.other"), text.out.constData());
    }

    void aGtidStartShowsWhatCameAfterIt() {
        Run run = events({"--from", gtidBefore_, "--table", "browse_it.orders", "--json", "--limit", "1"});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.events.size(), 1);
        QCOMPARE(run.events[0].value("op").toString(), QString("insert"));
    }

    void aKeyHistoryListsEveryChangeOfOneRowWithItsImages() {
        Run run = events({"--from", before_, "--table", "browse_it.orders", "--key", "1", "--json"});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.events.size(), 2);
        QJsonObject insert = run.events[0].value("row_images").toArray().at(0).toObject();
        QCOMPARE(run.events[0].value("row_images").toArray().size(), 1);  // row 2 of the insert is not key 1
        QCOMPARE(insert.value("key").toString(), QString("1"));
        QVERIFY(insert.value("before").isNull());
        QCOMPARE(insert.value("after").toArray().at(1).toString(), QString("1"));
        QJsonObject update = run.events[1].value("row_images").toArray().at(0).toObject();
        QCOMPARE(update.value("before").toArray().at(1).toString(), QString("1"));
        QCOMPARE(update.value("after").toArray().at(1).toString(), QString("2"));
        QCOMPARE(run.events[1].value("columns").toArray().at(1).toString(), QString("qty"));
    }

    void badPointsAreRefusedWithWhatToUseInstead_data() {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("message");
        QTest::addRow("a purged (or never written) file") << "mariadb-bin.000000:4"
                                                          << "purged, or never written";
        QTest::addRow("a gtid beyond the history") << "0-1-999999999"
                                                   << "has only reached";
        QTest::addRow("a domain never written") << "77-1-5"
                                                << "never wrote domain 77";
        QTest::addRow("a time before the oldest binlog") << "2000-01-01 00:00:00"
                                                         << "is before the oldest binlog";
        QTest::addRow("a time after the newest transaction") << "2099-01-01 00:00:00"
                                                             << "is after the newest transaction";
    }

    void badPointsAreRefusedWithWhatToUseInstead() {
        QFETCH(QString, from);
        QFETCH(QString, message);
        Run run = events({"--from", from});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(message.toUtf8()), run.err.constData());
        QVERIFY(run.out.isEmpty());
    }

    void aPositionInsideATransactionOrAnEventIsRefused() {
        Run all = events({"--from", before_, "--json", "--limit", "1"});
        QCOMPARE(all.exitCode, 0);
        QJsonObject rows = rowsEvents(all.events).at(0);
        QString file = rows.value("file").toString();
        QString inside = file + ":" + QString::number(rows.value("pos").toInteger());
        Run run = events({"--from", inside});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("is in the middle of transaction " + rows.value("gtid").toString().toUtf8()),
                 run.err.constData());
        QVERIFY2(run.err.contains("use " + file.toUtf8() + ":" + QByteArray::number(rows.value("trx_pos").toInteger())),
                 run.err.constData());
        Run notAnEvent = events({"--from", file + ":" + QString::number(rows.value("pos").toInteger() + 1)});
        QCOMPARE(notAnEvent.exitCode, 1);
        QVERIFY2(notAnEvent.err.contains("is not where an event starts"), notAnEvent.err.constData());
    }

    void aTimeResolvesToTheFirstTransactionAtOrAfterItOverRotatedFiles() {
        root_->execute("CREATE TABLE browse_it.times (id INT PRIMARY KEY)");
        QString from = masterPosition(*root_);
        for (int i = 0; i < kRotatedFiles; ++i) {
            std::this_thread::sleep_for(kBetweenFiles);
            root_->execute("INSERT INTO browse_it.times VALUES (" + std::to_string(i) + ")");
            root_->execute("FLUSH BINARY LOGS");
        }
        browse::ServerBinlogHistory history(test::engineSettings(test::upstreamReplication()));
        auto opened = browse::openFrom(history, browse::parseStartPoint(from.toStdString()));
        browse::BrowseFilter filter;
        filter.schema = "browse_it";
        filter.table = "times";
        browse::TransactionCollector collector;
        browse::EventBrowser(filter, history.files()).browse(*opened.stream, collector);
        auto& inserts = collector.transactions();
        QCOMPARE(static_cast<int>(inserts.size()), kRotatedFiles);
        for (const auto& insert : inserts) {
            browse::PointResolver resolver(history);
            auto found = resolver.firstTransactionAtOrAfter(insert.timestamp);
            QCOMPARE(QString::fromStdString(found.gtid), QString::fromStdString(insert.gtid));
            QCOMPARE(QString::fromStdString(found.start.toString()),
                     QString::fromStdString(browse::BrowsePoint{insert.file, insert.pos}.toString()));
            QVERIFY(found.end.offset > found.start.offset);
            // A binary search: it reads the start of a few files, not of every one.
            QVERIFY2(found.filesProbed <= 2 + static_cast<uint64_t>(std::log2(history.files().size())) + 1,
                     qPrintable(QString::number(found.filesProbed)));
        }
        // A second after the last insert: nothing is newer (the last file holds no transaction).
        try {
            browse::PointResolver(history).firstTransactionAtOrAfter(inserts.back().timestamp + 1);
            QFAIL("a time after the newest transaction was resolved");
        } catch (const browse::BrowseError& e) {
            QVERIFY2(QString(e.what()).contains("is after the newest transaction") &&
                         QString(e.what()).contains(QString::fromStdString(inserts.back().gtid)),
                     e.what());
        }
        // The CLI says what a time resolved to.
        Run run = events({"--from", QString::fromStdString(browse::formatLocalTime(inserts[3].timestamp)), "--table",
                          "browse_it.times", "--json", "--limit", "1"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(
            run.err.contains("the first transaction at or after it: " + QByteArray::fromStdString(inserts[3].gtid)),
            run.err.constData());
        QCOMPARE(run.events.size(), 1);
        QCOMPARE(run.events[0].value("gtid").toString(), QString::fromStdString(inserts[3].gtid));
    }
};

QTEST_GUILESS_MAIN(BrowseServerTest)
#include "test_browse_server.moc"
