// The event browser against the private upstream, through a binlog dump: `syncscope-cli events` groups
// transactions, filters a table and follows one key's history; a time resolves to the first
// transaction at or after it over rotated files; bad points (a file or a GTID position the upstream has
// purged or never wrote, a position inside a transaction or inside an event, a time outside the history)
// are refused with a message naming what to use instead. `--downstream` checks the rows shown against the downstream
// (equal, missing, different, not deleted, a key history's row at its last change); the key search compares
// typed values and finds exactly the rows the text comparison finds, for keys of many types.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <thread>

#include "engine/browse/browse_start.h"
#include "engine/browse/browse_time.h"
#include "engine/browse/event_browser.h"
#include "engine/browse/key_matcher.h"
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

QString downstreamPasswordFile() {
    QString dir = QString::fromStdString(test::outputDir("browse_server"));
    QFile file(dir + "/downstream-password");
    file.open(QIODevice::WriteOnly | QIODevice::Truncate);
    file.write(QByteArray::fromStdString(test::downstreamRoot().password + "\n"));
    return file.fileName();
}

QStringList downstreamOptions() {
    auto down = test::downstreamRoot();
    return {"--downstream",
            QString::fromStdString(down.host + ":" + std::to_string(down.port)),
            "--downstream-user",
            QString::fromStdString(down.user),
            "--downstream-password-file",
            downstreamPasswordFile()};
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
    QString keysFrom_;    // the position before the key-type tables' rows

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

    void downstreamChecksTheRowsShownAtTheirLastChange() {
        source::UpstreamConnection down(test::engineSettings(test::downstreamRoot()));
        for (source::UpstreamConnection* server : {root_.get(), &down}) {
            server->execute("SET SESSION sql_log_bin = 0");
            server->execute("DROP DATABASE IF EXISTS browse_check");
            server->execute("CREATE DATABASE browse_check");
            server->execute("CREATE TABLE browse_check.t (id INT PRIMARY KEY, v VARCHAR(20))");
            server->execute("SET SESSION sql_log_bin = 1");
        }
        // The downstream holds 1 as the upstream leaves it, 2 with another value, 3 although deleted; 4 is missing.
        down.execute("INSERT INTO browse_check.t VALUES (1, 'one'), (2, 'old'), (3, 'three')");
        const QString from = masterPosition(*root_);
        root_->execute("INSERT INTO browse_check.t VALUES (1, 'one'), (2, 'two'), (3, 'three'), (4, 'four')");
        root_->execute("UPDATE browse_check.t SET v = 'TWO' WHERE id = 2");
        root_->execute("DELETE FROM browse_check.t WHERE id = 3");

        Run text = events(QStringList{"--from", from, "--table", "browse_check.t"} + downstreamOptions());
        QVERIFY2(text.exitCode == 0, text.err.constData());
        QVERIFY2(text.out.contains("# downstream root@"), text.out.constData());
        QVERIFY2(text.out.contains("browse_check.t (4) missing"), text.out.constData());
        QVERIFY2(text.out.contains("browse_check.t (2) different: v"), text.out.constData());
        QVERIFY2(text.out.contains("browse_check.t (3) not deleted"), text.out.constData());
        QVERIFY2(text.out.contains("browse_check.t (1) equal"), text.out.constData());

        Run json = events(QStringList{"--from", from, "--table", "browse_check.t", "--json"} + downstreamOptions());
        QCOMPARE(json.exitCode, 0);
        int equal = 0, missing = 0, different = 0, notDeleted = 0;
        for (const auto& line : json.events) {
            QJsonObject check = line.value("downstream_check").toObject();
            equal += check.value("equal").toInt();
            missing += check.value("missing").toInt();
            different += check.value("different").toInt();
            notDeleted += check.value("not_deleted").toInt();
        }
        QCOMPARE(equal, 1);
        QCOMPARE(missing, 1);
        QCOMPARE(different, 1);
        QCOMPARE(notDeleted, 1);

        // A key history: only that row, checked at its last change (the update), not at its insert.
        Run history = events(QStringList{"--from", from, "--table", "browse_check.t", "--key", "2", "--json"} +
                             downstreamOptions());
        QCOMPARE(history.exitCode, 0);
        QList<QJsonObject> checks;
        for (const auto& line : history.events) {
            if (line.contains("downstream_check")) {
                checks.push_back(line.value("downstream_check").toObject());
            }
        }
        QCOMPARE(checks.size(), 1);
        QCOMPARE(checks[0].value("different").toInt(), 1);
        QCOMPARE(checks[0].value("rows").toArray().size(), 1);
        QCOMPARE(checks[0].value("trx_pos").toInteger(), rowsEvents(history.events).at(1).value("trx_pos").toInteger());

        Run fromFiles = events(QStringList{"--from", from, "--limit", "5000"} + downstreamOptions());
        QCOMPARE(fromFiles.exitCode, 2);  // a page at a time
        QVERIFY2(fromFiles.err.contains("at most 1000"), fromFiles.err.constData());
    }

    void aTypedKeySearchFindsExactlyWhatTheTextComparisonFinds_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("matchesRows");
        QTest::addRow("composite, text with a comma") << "a,b,2026-01-02 03:04:05,7" << true;
        QTest::addRow("composite, unsigned 64-bit") << "plain,2026-01-02 03:04:05,18446744073709551615" << true;
        QTest::addRow("composite, a leading zero") << "plain,2026-01-02 03:04:05,018446744073709551615" << false;
        QTest::addRow("composite, too few parts") << "plain" << false;
        QTest::addRow("negative integer") << "-5" << true;
        QTest::addRow("negative zero") << "-0" << false;
        QTest::addRow("decimal") << "12.50" << true;
        QTest::addRow("decimal without its scale") << "12.5" << false;
        QTest::addRow("text with a comma") << "x,y" << true;
        QTest::addRow("NULL first column of a keyless table") << "NULL" << true;
    }

    void aTypedKeySearchFindsExactlyWhatTheTextComparisonFinds() {
        QFETCH(QString, key);
        QFETCH(bool, matchesRows);
        QString& from = keysFrom_;
        if (from.isEmpty()) {
            root_->execute("DROP DATABASE IF EXISTS browse_keys");
            root_->execute("CREATE DATABASE browse_keys");
            root_->execute(
                "CREATE TABLE browse_keys.composite (name VARCHAR(20), at DATETIME, n BIGINT UNSIGNED, "
                "v INT, PRIMARY KEY (name, at, n))");
            root_->execute("CREATE TABLE browse_keys.signed (id INT PRIMARY KEY, v INT)");
            root_->execute("CREATE TABLE browse_keys.dec (id DECIMAL(6,2) PRIMARY KEY, v INT)");
            root_->execute("CREATE TABLE browse_keys.text (id VARCHAR(10) PRIMARY KEY, v INT)");
            root_->execute("CREATE TABLE browse_keys.keyless (a INT NULL, v INT)");
            from = masterPosition(*root_);
            root_->execute(
                "INSERT INTO browse_keys.composite VALUES ('a,b', '2026-01-02 03:04:05', 7, 1), "
                "('plain', '2026-01-02 03:04:05', 18446744073709551615, 1), ('a', '2026-01-02', 0, 1)");
            root_->execute("UPDATE browse_keys.composite SET v = 2");
            root_->execute("INSERT INTO browse_keys.signed VALUES (-5, 1), (5, 1), (0, 1)");
            root_->execute("INSERT INTO browse_keys.dec VALUES (12.50, 1), (12.5, 2) ON DUPLICATE KEY UPDATE v = 3");
            root_->execute("INSERT INTO browse_keys.text VALUES ('x,y', 1), ('x', 1)");
            root_->execute("INSERT INTO browse_keys.keyless VALUES (NULL, 1), (1, 1)");
            root_->execute("DELETE FROM browse_keys.signed WHERE id = -5");
        }
        browse::ServerBinlogHistory history(test::engineSettings(test::upstreamReplication()));
        auto opened = browse::openFrom(history, browse::parseStartPoint(from.toStdString()));
        browse::BrowseFilter filter;
        filter.schema = "browse_keys";
        filter.keyValue = key.toStdString();
        const browse::KeyMatcher matcher(key.toStdString());
        std::vector<binlog::Event> batch;
        size_t typedRows = 0;
        size_t textRows = 0;
        while (opened.stream->next(batch)) {
            for (const auto& event : batch) {
                browse::BrowsedEvent typed;
                browse::BrowsedEvent text;
                const bool typedShown = filter.describe(event, typed, &matcher);
                const bool textShown = filter.describe(event, text, nullptr);
                QCOMPARE(typedShown, textShown);
                QCOMPARE(typed.rows.size(), text.rows.size());
                typedRows += typed.rows.size();
                textRows += text.rows.size();
            }
        }
        QCOMPARE(typedRows, textRows);
        QCOMPARE(typedRows > 0, matchesRows);  // the rows meant to match do, and the others do not
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
        // --position-only prints where it starts and reads no events; it goes with a time only.
        const QString thirdTime = QString::fromStdString(browse::formatLocalTime(inserts[3].timestamp));
        Run where = events({"--from", thirdTime, "--position-only"});
        QCOMPARE(where.exitCode, 0);
        QCOMPARE(where.out.trimmed(),
                 QByteArray::fromStdString(browse::BrowsePoint{inserts[3].file, inserts[3].pos}.toString() + " " +
                                           inserts[3].gtid + " ") +
                     thirdTime.toUtf8());
        Run notATime = events({"--from", from, "--position-only"});
        QCOMPARE(notATime.exitCode, 2);
        QVERIFY2(notATime.err.contains("--position-only goes with --from"), notATime.err.constData());

        // Files purged by the upstream: a position in one, and a GTID position in one, are refused by name.
        root_->execute("PURGE BINARY LOGS TO '" + inserts[2].file + "'");
        Run purgedFile = events({"--from", QString::fromStdString(inserts[0].file + ":4")});
        QCOMPARE(purgedFile.exitCode, 1);
        QVERIFY2(purgedFile.err.contains("has no file '" + QByteArray::fromStdString(inserts[0].file) + "' (purged"),
                 purgedFile.err.constData());
        QVERIFY(purgedFile.out.isEmpty());
        const std::string beforeFirst =
            inserts[0].gtid.substr(0, inserts[0].gtid.rfind('-') + 1) +
            std::to_string(std::stoull(inserts[0].gtid.substr(inserts[0].gtid.rfind('-') + 1)) - 1);
        Run purgedGtid = events({"--from", QString::fromStdString(beforeFirst)});
        QCOMPARE(purgedGtid.exitCode, 1);
        QVERIFY2(purgedGtid.err.contains("is in a purged binlog"), purgedGtid.err.constData());
        QVERIFY(purgedGtid.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(BrowseServerTest)
#include "test_browse_server.moc"
