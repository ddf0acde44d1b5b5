// Passwords a DBA writes upstream never come out of SyncScope: a binlogged CREATE USER, ALTER USER,
// GRANT ... IDENTIFIED BY and SET PASSWORD pass through a running engine (ignored statements, logged),
// then the log folder, every API answer (log tail, status, metrics), `events` and `decode` are searched
// for the passwords: none is found, the statements are there with '<redacted>', and `--show-secrets`
// prints them when a DBA asks.
#include <QtTest>

#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>

#include "tests/integration/outage/engine_process.h"
#include "tests/integration/outage/outage_helpers.h"
#include "tests/support/task_files.h"
#include "tests/support/test_env.h"

using namespace syncscope::test;

namespace {

const char* const kDatabase = "secrets";
const char* const kUser = "'secrets_u'@'127.0.0.1'";
constexpr int kStageTimeoutMs = 90000;
constexpr int kCliTimeoutMs = 60000;
// MariaDB binlogs SET PASSWORD with the password's hash: the hash is the secret looked for there.
std::vector<std::string> kPasswords{"Pw-Create-7q", "Pw-Alter-8r", "Pw-Grant-9s"};
const char* const kSetPassword = "Pw-Set-0t";

// The passwords found in `text` ("" when none).
std::string passwordsIn(const std::string& text) {
    std::string found;
    for (const std::string& password : kPasswords) {
        if (text.find(password) != std::string::npos) {
            found += password + " ";
        }
    }
    return found;
}

std::string everyFileUnder(const QString& dir) {
    std::string all;
    QDirIterator files(dir, QDir::Files, QDirIterator::Subdirectories);
    while (files.hasNext()) {
        all += readWholeFile(files.next().toStdString());
    }
    return all;
}

}  // namespace

class SecretsRedactedTest : public QObject {
    Q_OBJECT

private slots:
    void passwordsInStatementsAreShownNowhere() {
        auto up = connectTo(upstreamRoot());
        for (const auto& server : {upstreamRoot(), downstreamRoot()}) {
            auto connection = connectTo(server);
            connection->execute("SET SESSION sql_log_bin = 0");
            connection->execute(std::string("DROP DATABASE IF EXISTS ") + kDatabase);
            connection->execute(std::string("CREATE DATABASE ") + kDatabase);
            connection->execute(std::string("CREATE TABLE ") + kDatabase + ".t (id INT PRIMARY KEY)");
            connection->execute(std::string("DROP USER IF EXISTS ") + kUser);
        }
        connectTo(downstreamRoot())->execute("DROP DATABASE IF EXISTS dm_meta");
        auto master = up->query("SHOW MASTER STATUS");
        const std::string startFile = *master.front()[0];
        const std::string startPos = *master.front()[1];

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        TaskFileOptions options;
        options.name = "secrets";
        options.binlogName = startFile;
        options.binlogPos = std::stoull(startPos);
        TaskFiles files = writeTaskFiles(dir.path().toStdString(), options);
        const QString logDir = dir.filePath(QStringLiteral("logs"));
        EngineProcess engine(files.task, files.source, logDir.toStdString());
        QVERIFY2(engine.start(), engine.stderrText().c_str());
        QVERIFY2(waitFor([&] { return engine.stage() == "Running"; }, kStageTimeoutMs), engine.stderrText().c_str());

        up->execute(std::string("CREATE USER ") + kUser + " IDENTIFIED BY '" + kPasswords[0] + "'");
        up->execute(std::string("ALTER USER ") + kUser + " IDENTIFIED BY '" + kPasswords[1] + "'");
        up->execute(std::string("GRANT SELECT ON ") + kDatabase + ".* TO " + kUser + " IDENTIFIED BY '" +
                    kPasswords[2] + "'");
        up->execute(std::string("SET PASSWORD FOR ") + kUser + " = PASSWORD('" + kSetPassword + "')");
        kPasswords.push_back(*up->queryValue(std::string("SELECT PASSWORD('") + kSetPassword + "')"));
        up->execute(std::string("INSERT INTO ") + kDatabase + ".t VALUES (1)");  // the marker after them
        QVERIFY2(waitFor(
                     [&] {
                         return connectTo(downstreamRoot())
                                    ->queryValue(std::string("SELECT COUNT(*) FROM ") + kDatabase + ".t") ==
                                std::optional<std::string>("1");
                     },
                     kStageTimeoutMs),
                 engine.status().dump(2).c_str());

        // The log folder: the statements were logged, their passwords were not.
        std::string logs = everyFileUnder(logDir);
        QVERIFY2(passwordsIn(logs).empty(), ("in the log folder: " + passwordsIn(logs)).c_str());
        bool logged = logs.find("IDENTIFIED BY '<redacted>'") != std::string::npos &&
                      logs.find("SET PASSWORD FOR " + std::string(kUser) + "='<redacted>'") != std::string::npos;
        if (!logged) {
            qWarning("%s", logs.c_str());
        }
        QVERIFY2(logged, "the statements are not in the log (printed above)");
        std::string console = engine.stderrText();
        QVERIFY2(passwordsIn(console).empty(), ("on the console: " + passwordsIn(console)).c_str());

        // Every API answer.
        for (const char* path : {"/api/v1/log?tail=1000", "/api/v1/status", "/metrics", "/api/v1/audit?tail=100"}) {
            std::string answer = engine.get(path);
            QVERIFY2(!answer.empty(), path);
            QVERIFY2(passwordsIn(answer).empty(), (std::string(path) + ": " + passwordsIn(answer)).c_str());
        }

        // events and decode, from the task's start: redacted unless --show-secrets (decode --count waits for
        // its events: more transactions follow the statements).
        for (int id = 2; id <= 20; ++id) {
            up->execute(std::string("INSERT INTO ") + kDatabase + ".t VALUES (" + std::to_string(id) + ")");
        }
        auto repl = upstreamReplication();
        QFile passwordFile(dir.filePath(QStringLiteral("repl-password")));
        QVERIFY(passwordFile.open(QIODevice::WriteOnly));
        passwordFile.write(QByteArray::fromStdString(repl.password + "\n"));
        passwordFile.close();
        const QStringList server{"--server",        QString::fromStdString(repl.host + ":" + std::to_string(repl.port)),
                                 "--user",          QString::fromStdString(repl.user),
                                 "--password-file", passwordFile.fileName()};
        const QString from = QString::fromStdString(startFile + ":" + startPos);
        const QStringList commands[] = {QStringList{"events"} << server << "--from" << from << "--limit"
                                                              << "20",
                                        QStringList{"decode"} << server << "--from" << from << "--count"
                                                              << "40",
                                        QStringList{"decode"} << server << "--from" << from << "--count"
                                                              << "40"
                                                              << "--json"};
        for (const QStringList& command : commands) {
            CliResult run = runCli(command, kCliTimeoutMs);
            const std::string name = command.join(' ').toStdString();
            QVERIFY2(run.exitCode == 0, (name + ": " + run.err).c_str());
            QVERIFY2(passwordsIn(run.out + run.err).empty(), (name + ": " + passwordsIn(run.out)).c_str());
            QVERIFY2(run.out.find("'<redacted>'") != std::string::npos, (name + ":\n" + run.out).c_str());
            CliResult shown = runCli(QStringList(command) << "--show-secrets", kCliTimeoutMs);
            QVERIFY2(shown.exitCode == 0, shown.err.c_str());
            for (const std::string& password : kPasswords) {
                QVERIFY2(shown.out.find(password) != std::string::npos,
                         (name + " --show-secrets:\n" + shown.out).c_str());
            }
        }
        QCOMPARE(engine.terminate(), 0);
        std::string logsAfter = everyFileUnder(logDir);
        QVERIFY2(passwordsIn(logsAfter).empty(),
                 ("in the log folder after the stop: " + passwordsIn(logsAfter)).c_str());
        connectTo(upstreamRoot())->execute(std::string("DROP USER IF EXISTS ") + kUser);
    }
};

QTEST_GUILESS_MAIN(SecretsRedactedTest)
#include "test_secrets_redacted.moc"
