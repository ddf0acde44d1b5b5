// `syncscope-cli decode` and `bench decode` as a user runs them: exit 0 with one line (or one JSON
// object) per event, 1 with FILE:OFFSET: on stderr for bad input, 2 for bad usage. The input is a
// binlog the local MariaDB 10.11 wrote (tests/app/cli/data): a DDL, an insert of two rows with
// multibyte text, a negative decimal, fractional seconds, NULL and bytes, an update and a delete.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

namespace {

const QString kCli = QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli");
const QString kBinlog = QStringLiteral(SYNCSCOPE_SOURCE_DIR "/tests/app/cli/data/mariadb-bin.000001");
constexpr int kEventsInBinlog = 23;
constexpr int kTimeoutMs = 30000;

struct Run {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Run runCli(const QStringList& args) {
    QProcess process;
    process.start(kCli, args);
    Run run;
    if (!process.waitForFinished(kTimeoutMs)) {
        process.kill();
        process.waitForFinished();
        return run;
    }
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

QList<QByteArray> lines(const QByteArray& text) {
    QList<QByteArray> result = text.split('\n');
    if (!result.isEmpty() && result.back().isEmpty()) {
        result.pop_back();
    }
    return result;
}

QString writeCopy(const QString& name, const QByteArray& bytes) {
    QString dir = QStringLiteral(SYNCSCOPE_BINARY_DIR "/test-output/decode_command");
    QDir().mkpath(dir);
    QFile file(dir + "/" + name);
    file.open(QIODevice::WriteOnly | QIODevice::Truncate);
    file.write(bytes);
    return file.fileName();
}

QByteArray binlogBytes() {
    QFile file(kBinlog);
    file.open(QIODevice::ReadOnly);
    return file.readAll();
}

QJsonObject eventOfType(const QList<QJsonObject>& events, const QString& type) {
    for (const auto& event : events) {
        if (event.value("type").toString() == type) {
            return event;
        }
    }
    return {};
}

}  // namespace

class DecodeCommandTest : public QObject {
    Q_OBJECT

private slots:
    void textModePrintsOneReadableLinePerEvent() {
        Run run = runCli({"decode", kBinlog});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.isEmpty(), run.err.constData());
        auto printed = lines(run.out);
        QCOMPARE(printed.size(), kEventsInBinlog);
        QVERIFY(printed.front().startsWith("mariadb-bin.000001:4-256 FORMAT_DESCRIPTION_EVENT"));
        QVERIFY2(run.out.contains("UPDATE_ROWS_EVENT_V1 update shop.items 1 row: (1, 'K\xc3\xa4se', 3.50, "
                                  "'2024-01-02 03:04:05.678', NULL, x'00ff') -> (1, 'K\xc3\xa4se', 4.00,"),
                 run.out.constData());
        QVERIFY(printed.back().startsWith("mariadb-bin.000001:1767-1816 ROTATE_EVENT to mariadb-bin.000002:4"));
    }

    void jsonLinesParseWithTheExpectedFieldsAndValues() {
        Run run = runCli({"decode", kBinlog, "--json"});
        QCOMPARE(run.exitCode, 0);
        QList<QJsonObject> events;
        for (const QByteArray& line : lines(run.out)) {
            QJsonParseError error;
            QJsonDocument document = QJsonDocument::fromJson(line, &error);
            QVERIFY2(error.error == QJsonParseError::NoError, line.constData());
            QVERIFY(document.isObject());
            QJsonObject event = document.object();
            for (const char* key : {"file", "pos", "end_pos", "type", "timestamp", "server_id"}) {
                QVERIFY2(event.contains(key), (std::string(key) + " missing in " + line.toStdString()).c_str());
            }
            QCOMPARE(event.value("file").toString(), QString("mariadb-bin.000001"));
            QVERIFY(event.value("end_pos").toInteger() > event.value("pos").toInteger());
            events.push_back(event);
        }
        QCOMPARE(events.size(), kEventsInBinlog);

        QJsonObject ddl = events.at(6);
        QCOMPARE(ddl.value("type").toString(), QString("QUERY_EVENT"));
        QCOMPARE(ddl.value("gtid").toString(), QString("0-1-2"));
        QVERIFY(ddl.value("query").toString().startsWith("CREATE TABLE shop.items"));
        QVERIFY(ddl.contains("schema"));

        QJsonObject insert = eventOfType(events, "WRITE_ROWS_EVENT_V1");
        QCOMPARE(insert.value("pos").toInteger(), 1022);
        QCOMPARE(insert.value("end_pos").toInteger(), 1109);
        QCOMPARE(insert.value("gtid").toString(), QString("0-1-3"));
        QCOMPARE(insert.value("schema").toString(), QString("shop"));
        QCOMPARE(insert.value("table").toString(), QString("items"));
        QCOMPARE(insert.value("op").toString(), QString("insert"));
        QCOMPARE(insert.value("columns").toArray(), QJsonArray({"id", "name", "price", "added", "note", "raw"}));
        QJsonArray rows = insert.value("rows").toArray();
        QCOMPARE(rows.size(), 2);
        QVERIFY(rows.at(0).toObject().value("before").isNull());
        QJsonArray first = rows.at(0).toObject().value("after").toArray();
        QCOMPARE(first.at(0).toInteger(), 1);
        QVERIFY(first.at(0).isDouble());  // a number, not a string
        QCOMPARE(first.at(1).toString(), QString::fromUtf8("K\xc3\xa4se"));
        QCOMPARE(first.at(2).toString(), QString("3.50"));  // decimals are exact strings
        QCOMPARE(first.at(3).toString(), QString("2024-01-02 03:04:05.678"));
        QVERIFY(first.at(4).isNull());
        QCOMPARE(first.at(5).toObject().value("hex").toString(), QString("00ff"));
        QJsonArray second = rows.at(1).toObject().value("after").toArray();
        QCOMPARE(second.at(2).toString(), QString("-0.25"));
        QCOMPARE(second.at(4).toString(), QString("green"));

        QJsonObject update = eventOfType(events, "UPDATE_ROWS_EVENT_V1");
        QCOMPARE(update.value("op").toString(), QString("update"));
        QJsonObject change = update.value("rows").toArray().at(0).toObject();
        QCOMPARE(change.value("before").toArray().at(2).toString(), QString("3.50"));
        QCOMPARE(change.value("after").toArray().at(2).toString(), QString("4.00"));

        QJsonObject deletion = eventOfType(events, "DELETE_ROWS_EVENT_V1");
        QCOMPARE(deletion.value("op").toString(), QString("delete"));
        QJsonObject removed = deletion.value("rows").toArray().at(0).toObject();
        QCOMPARE(removed.value("before").toArray().at(1).toString(), QString("tea"));
        QVERIFY(removed.value("after").isNull());
    }

    void startAndStopPositionsSelectEventsAsMariadbBinlogDoes() {
        Run run = runCli({"decode", kBinlog, "--start-position", "1140", "--stop-position", "1472"});
        QCOMPARE(run.exitCode, 0);
        auto printed = lines(run.out);
        QCOMPARE(printed.size(), 6);  // the FORMAT_DESCRIPTION, then the update's transaction
        QVERIFY(printed.at(0).contains("FORMAT_DESCRIPTION_EVENT"));
        QVERIFY(printed.at(1).startsWith("mariadb-bin.000001:1140-1182 GTID_EVENT 0-1-4"));
        QVERIFY(printed.at(5).startsWith("mariadb-bin.000001:1441-1472 XID_EVENT"));
    }

    void countStopsAfterThatManyEvents() {
        Run run = runCli({"decode", kBinlog, "--count", "3"});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(lines(run.out).size(), 3);
    }

    void badInputExitsOneNamingFileAndOffset_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("expected");  // the start of stderr
        QByteArray bytes = binlogBytes();
        QTest::addRow("not a binlog") << writeCopy("notes.txt", "hello, not a binlog at all")
                                      << writeCopy("notes.txt", "hello, not a binlog at all") + ":0: not a binlog file";
        QTest::addRow("truncated inside the rows event") << writeCopy("mariadb-bin.000101", bytes.left(1050))
                                                         << "mariadb-bin.000101:1022: the file ends inside an event";
        QByteArray corrupt = bytes;
        corrupt[1060] = static_cast<char>(corrupt[1060] ^ 0x40);  // inside the insert's row image
        QTest::addRow("a flipped bit fails the checksum")
            << writeCopy("mariadb-bin.000102", corrupt) << "mariadb-bin.000102:1022: ";
        QTest::addRow("missing file") << "/nonexistent/mariadb-bin.000001"
                                      << "/nonexistent/mariadb-bin.000001:0: cannot open";
    }

    void badInputExitsOneNamingFileAndOffset() {
        QFETCH(QString, file);
        QFETCH(QString, expected);
        for (const QStringList& extra : {QStringList(), QStringList{"--json"}}) {
            Run run = runCli(QStringList{"decode", file} + extra);
            QCOMPARE(run.exitCode, 1);
            QVERIFY2(run.err.startsWith(expected.toUtf8()), run.err.constData());
        }
        Run bench = runCli({"bench", "decode", file});
        QCOMPARE(bench.exitCode, 1);
        QVERIFY2(bench.err.startsWith(expected.toUtf8()), bench.err.constData());
    }

    void badUsageExitsTwo_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addRow("no file") << QStringList{"decode"};
        QTest::addRow("unknown option") << QStringList{"decode", kBinlog, "--colour"};
        QTest::addRow("position not a number") << QStringList{"decode", kBinlog, "--start-position", "abc"};
        QTest::addRow("option without value") << QStringList{"decode", kBinlog, "--stop-position"};
        QTest::addRow("server without user") << QStringList{"decode", "--server", "127.0.0.1:3306", "--from", "f:4"};
        QTest::addRow("server with both starts")
            << QStringList{"decode", "--server", "127.0.0.1:3306", "--user", "u", "--password-file", "/dev/null",
                           "--from", "f:4",      "--gtid",         "0-1-1"};
        QTest::addRow("server and files") << QStringList{"decode", kBinlog, "--server", "127.0.0.1:3306"};
        QTest::addRow("bench without file") << QStringList{"bench", "decode"};
        QTest::addRow("bench of something else") << QStringList{"bench", "encode", kBinlog};
    }

    void badUsageExitsTwo() {
        QFETCH(QStringList, args);
        Run run = runCli(args);
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("Usage: syncscope-cli"));
        QVERIFY(run.out.isEmpty());
    }

    void benchDecodeCountsEventsRowsAndBytes() {
        Run run = runCli({"bench", "decode", kBinlog});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("events 23\n"), run.out.constData());
        QVERIFY2(run.out.contains("rows 4\n"), run.out.constData());      // two inserted, one updated, one deleted
        QVERIFY2(run.out.contains("bytes 1812\n"), run.out.constData());  // the file less its 4-byte magic
        for (const char* key : {"seconds ", "MB/s ", "rows/s "}) {
            QVERIFY2(run.out.contains(key), run.out.constData());
        }
    }
};

QTEST_GUILESS_MAIN(DecodeCommandTest)
#include "test_decode_command.moc"
