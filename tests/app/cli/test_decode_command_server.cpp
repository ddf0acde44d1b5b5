// `syncscope-cli decode --server` against the private upstream: from a file position and from a GTID
// position it prints the statements written after it as JSON Lines; a wrong password exits 1.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include "engine/source/upstream_connection.h"
#include "tests/support/test_env.h"

using namespace syncscope;

namespace {

const QString kCli = QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli");
constexpr int kTimeoutMs = 30000;

ServerSettings toSettings(const test::ServerSettings& s) {
    ServerSettings settings;
    settings.host = s.host;
    settings.port = s.port;
    settings.user = s.user;
    settings.password = s.password;
    return settings;
}

QString passwordFile(const std::string& password) {
    QString dir = QString::fromStdString(test::outputDir("decode_command_server"));
    QFile file(dir + "/password");
    file.open(QIODevice::WriteOnly | QIODevice::Truncate);
    file.write(QByteArray::fromStdString(password + "\n"));
    return file.fileName();
}

QStringList serverArgs(const std::string& password) {
    auto repl = test::upstreamReplication();
    return {"decode",
            "--server",
            QString::fromStdString(repl.host + ":" + std::to_string(repl.port)),
            "--user",
            QString::fromStdString(repl.user),
            "--password-file",
            passwordFile(password),
            "--json"};
}

struct Run {
    int exitCode = -1;
    QList<QJsonObject> events;
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
    for (const QByteArray& line : process.readAllStandardOutput().split('\n')) {
        if (!line.isEmpty()) {
            run.events.push_back(QJsonDocument::fromJson(line).object());
        }
    }
    run.err = process.readAllStandardError();
    return run;
}

}  // namespace

class DecodeCommandServerTest : public QObject {
    Q_OBJECT

    std::unique_ptr<source::UpstreamConnection> root_;

private slots:
    void initTestCase() {
        root_ = std::make_unique<source::UpstreamConnection>(toSettings(test::upstreamRoot()));
        root_->execute("CREATE DATABASE IF NOT EXISTS cli_decode");
    }

    void streamsFromAFilePositionAsJsonLines() {
        auto status = root_->query("SHOW MASTER STATUS");
        QString from = QString::fromStdString(*status.at(0).at(0) + ":" + *status.at(0).at(1));
        root_->execute("CREATE TABLE cli_decode.t (id INT PRIMARY KEY, name VARCHAR(10))");
        root_->execute("INSERT INTO cli_decode.t VALUES (7, 'seven')");
        // ROTATE, FORMAT_DESCRIPTION, GTID + DDL, GTID + ANNOTATE + TABLE_MAP + WRITE_ROWS + XID
        Run run =
            runCli(serverArgs(test::upstreamReplication().password) + QStringList{"--from", from, "--count", "9"});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.events.size(), 9);
        QCOMPARE(run.events.at(0).value("type").toString(), QString("ROTATE_EVENT"));
        QCOMPARE(run.events.at(3).value("query").toString(),
                 QString("CREATE TABLE cli_decode.t (id INT PRIMARY KEY, name VARCHAR(10))"));
        QJsonObject rows = run.events.at(7);
        QCOMPARE(rows.value("op").toString(), QString("insert"));
        QCOMPARE(rows.value("table").toString(), QString("t"));
        QVERIFY(rows.value("end_pos").toInteger() > rows.value("pos").toInteger());
        QJsonArray after = rows.value("rows").toArray().at(0).toObject().value("after").toArray();
        QCOMPARE(after.at(0).toInteger(), 7);
        QCOMPARE(after.at(1).toString(), QString("seven"));
        QCOMPARE(run.events.at(8).value("type").toString(), QString("XID_EVENT"));
        QCOMPARE(QString::fromStdString(*root_->query("SHOW MASTER STATUS").at(0).at(1)),
                 QString::number(run.events.at(8).value("end_pos").toInteger()));
    }

    void streamsAfterAGtidPosition() {
        std::string gtid = root_->queryValue("SELECT @@gtid_binlog_pos").value_or("");
        root_->execute("INSERT INTO cli_decode.t VALUES (8, 'eight')");
        Run run = runCli(serverArgs(test::upstreamReplication().password) +
                         QStringList{"--gtid", QString::fromStdString(gtid), "--count", "10"});
        QCOMPARE(run.exitCode, 0);
        auto rows = std::find_if(run.events.begin(), run.events.end(),
                                 [](const QJsonObject& e) { return e.value("op").toString() == "insert"; });
        QVERIFY(rows != run.events.end());
        QCOMPARE(rows->value("rows").toArray().at(0).toObject().value("after").toArray().at(0).toInteger(), 8);
        QVERIFY(!rows->value("gtid").toString().isEmpty());
    }

    void aWrongPasswordExitsOneWithAClearMessage() {
        Run run =
            runCli(serverArgs("not-the-password") + QStringList{"--from", "mariadb-bin.000001:4", "--count", "1"});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("Access denied"), run.err.constData());
        QVERIFY(!run.err.contains("not-the-password"));
    }
};

QTEST_GUILESS_MAIN(DecodeCommandServerTest)
#include "test_decode_command_server.moc"
