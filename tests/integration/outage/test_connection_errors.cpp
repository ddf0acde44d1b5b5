// What a retry cannot fix stops with a clear error and waits for the DBA (or, without --listen, exits
// 1): a start position the upstream has purged (the error names the position and what the upstream
// still has), a wrong password on either side, a missing grant. An unreachable server is retried with
// backoff, because it may come back. No message carries a password.
#include <QtTest>

#include <QTemporaryDir>

#include <filesystem>
#include <fstream>

#include "tests/integration/outage/engine_process.h"
#include "tests/integration/outage/outage_helpers.h"
#include "tests/support/test_env.h"

using nlohmann::json;
using namespace syncscope::test;

namespace {

constexpr int kCliTimeoutMs = 60000;
constexpr int kWaitMs = 30000;
const char* const kWrongPassword = "wrong-pw-31337";
const char* const kNoGrantUser = "syncscope_nogrant";
const char* const kNoGrantPassword = "nogrant-pw-4242";

struct Files {
    std::string task;
    std::string source;
    std::string logDir;
};

}  // namespace

class ConnectionErrorsTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    Files writeFiles(const std::string& name, const ServerSettings& up, const ServerSettings& down,
                     const std::string& binlogName, uint64_t binlogPos) {
        connectTo(downstreamRoot())->execute("DROP TABLE IF EXISTS dm_meta.`" + name + "_syncer_checkpoint`");
        std::string folder = dir_.filePath(QString::fromStdString(name)).toStdString();
        std::filesystem::create_directories(folder);
        Files files{folder + "/task.yaml", folder + "/source.yaml", folder + "/logs"};
        std::ofstream(files.task) << "name: " << name << "\ntask-mode: incremental\n"
                                  << "target-database: {host: \"127.0.0.1\", port: " << down.port << ", user: \""
                                  << down.user << "\", password: \"" << down.password << "\"}\n"
                                  << "mysql-instances:\n  - source-id: \"err-source\"\n"
                                  << "    meta: {binlog-name: \"" << binlogName << "\", binlog-pos: " << binlogPos
                                  << "}\n"
                                  << "    block-allow-list: \"only-errdb\"\n"
                                  << "block-allow-list:\n  only-errdb: {do-dbs: [\"errdb\"]}\n";
        std::ofstream(files.source) << "source-id: \"err-source\"\nflavor: mariadb\nenable-gtid: false\n"
                                    << "from: {host: \"127.0.0.1\", port: " << up.port << ", user: \"" << up.user
                                    << "\", password: \"" << up.password << "\"}\n";
        return files;
    }

    std::pair<std::string, uint64_t> masterPosition() {
        auto master = connectTo(upstreamRoot())->query("SHOW MASTER STATUS");
        return {*master.front()[0], std::stoull(*master.front()[1])};
    }

    CliResult runWithoutListen(const Files& files) {
        return runCli(
            {QStringLiteral("run"), QString::fromStdString(files.task), QStringLiteral("--source"),
             QString::fromStdString(files.source), QStringLiteral("--log-dir"), QString::fromStdString(files.logDir)},
            kCliTimeoutMs);
    }

    static void verifyNoPassword(const std::string& text) {
        for (const std::string& password : {std::string(kWrongPassword), std::string(kNoGrantPassword),
                                            upstreamReplication().password, downstreamRoot().password}) {
            QVERIFY2(text.find(password) == std::string::npos, ("a password is in: " + text).c_str());
        }
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void aPurgedStartPositionNamesThePositionAndWhatTheUpstreamStillHas() {
        auto up = connectTo(upstreamRoot());
        up->execute("FLUSH BINARY LOGS");
        std::string purged = *up->query("SHOW BINARY LOGS").front()[0];
        up->execute("FLUSH BINARY LOGS");
        auto [current, pos] = masterPosition();
        // A file stays while a dump thread reads it or until the binlog checkpoint has moved past it.
        auto oldest = [&] { return *up->query("SHOW BINARY LOGS").front()[0]; };
        QVERIFY(waitFor(
            [&] {
                up->execute("PURGE BINARY LOGS TO '" + current + "'");
                return oldest() == current;
            },
            kWaitMs));

        Files files = writeFiles("err-purged", upstreamReplication(), downstreamRoot(), purged, 4);
        CliResult cli = runWithoutListen(files);
        qInfo("%s", cli.err.c_str());
        QCOMPARE(cli.exitCode, 1);
        QVERIFY2(cli.err.find(purged + ":4") != std::string::npos, cli.err.c_str());
        QVERIFY2(cli.err.find("the upstream still has " + current + " (SHOW BINARY LOGS)") != std::string::npos,
                 cli.err.c_str());
        QVERIFY2(cli.err.find("1236") != std::string::npos, cli.err.c_str());
        verifyNoPassword(cli.err);
        // Not retried: one attempt in the log.
        std::string log = readWholeFile(files.logDir + "/err-purged.log");
        QVERIFY2(log.find("resuming by itself") == std::string::npos, log.c_str());
    }

    void aWrongPasswordIsNotRetried_data() {
        QTest::addColumn<bool>("upstreamSide");
        QTest::addColumn<QString>("mentions");
        QTest::addRow("upstream") << true << "upstream syncscope_repl@127.0.0.1";
        QTest::addRow("downstream") << false << "target database root@127.0.0.1";
    }

    void aWrongPasswordIsNotRetried() {
        QFETCH(bool, upstreamSide);
        QFETCH(QString, mentions);
        ServerSettings up = upstreamReplication();
        ServerSettings down = downstreamRoot();
        (upstreamSide ? up : down).password = kWrongPassword;
        auto [file, pos] = masterPosition();
        std::string name = upstreamSide ? "err-up-password" : "err-down-password";
        Files files = writeFiles(name, up, down, file, pos);
        CliResult cli = runWithoutListen(files);
        QCOMPARE(cli.exitCode, 1);
        QVERIFY2(cli.err.find(mentions.toStdString()) != std::string::npos, cli.err.c_str());
        QVERIFY2(cli.err.find("Access denied") != std::string::npos, cli.err.c_str());
        QVERIFY2(cli.err.find("check the user name and password") != std::string::npos, cli.err.c_str());
        verifyNoPassword(cli.err);
        verifyNoPassword(readWholeFile(files.logDir + "/" + name + ".log"));
    }

    void aMissingGrantNamesTheGrantAndWaitsForTheDba() {
        auto up = connectTo(upstreamRoot());
        up->execute("SET SESSION sql_log_bin = 0");
        up->execute(std::string("DROP USER IF EXISTS '") + kNoGrantUser + "'@'127.0.0.1'");
        up->execute(std::string("CREATE USER '") + kNoGrantUser + "'@'127.0.0.1' IDENTIFIED BY '" + kNoGrantPassword +
                    "'");
        up->execute(std::string("GRANT SELECT ON *.* TO '") + kNoGrantUser + "'@'127.0.0.1'");
        ServerSettings noGrant = upstreamReplication();
        noGrant.user = kNoGrantUser;
        noGrant.password = kNoGrantPassword;
        auto [file, pos] = masterPosition();
        Files files = writeFiles("err-grant", noGrant, downstreamRoot(), file, pos);
        EngineProcess engine(files.task, files.source, files.logDir);
        QVERIFY2(engine.start(), engine.stderrText().c_str());
        json status;
        QVERIFY2(waitFor(
                     [&] {
                         status = engine.status();
                         return status.value("stage", std::string()) == "Error";
                     },
                     kWaitMs),
                 status.dump(2).c_str());
        std::string reason = status.value("stage_reason", std::string());
        qInfo("%s", reason.c_str());
        QVERIFY2(reason.find("REPLICATION SLAVE") != std::string::npos, reason.c_str());
        QVERIFY2(reason.find(std::string("GRANT REPLICATION SLAVE")) != std::string::npos, reason.c_str());
        QVERIFY2(reason.find(kNoGrantUser) != std::string::npos, reason.c_str());
        verifyNoPassword(reason);
        QVERIFY2(reason.find("retrying") == std::string::npos, reason.c_str());
        QCOMPARE(engine.terminate(), 0);
        up->execute(std::string("DROP USER '") + kNoGrantUser + "'@'127.0.0.1'");
    }

    void anUnreachableServerIsRetriedWithBackoff_data() {
        QTest::addColumn<bool>("upstreamSide");
        QTest::addColumn<QString>("mentions");
        QTest::addRow("upstream") << true << "upstream";
        QTest::addRow("downstream") << false << "target database";
    }

    void anUnreachableServerIsRetriedWithBackoff() {
        QFETCH(bool, upstreamSide);
        QFETCH(QString, mentions);
        ServerSettings up = upstreamReplication();
        ServerSettings down = downstreamRoot();
        int nobody = freeLoopbackPort();
        (upstreamSide ? up : down).port = nobody;
        // The meta position is only needed for the upstream side; a made-up one does for the other.
        std::string name = upstreamSide ? "err-up-unreachable" : "err-down-unreachable";
        Files files = writeFiles(name, up, down, "mariadb-bin.000001", 4);
        EngineProcess engine(files.task, files.source, files.logDir);
        QVERIFY2(engine.start(), engine.stderrText().c_str());
        std::string where = "127.0.0.1:" + std::to_string(nobody);
        json status;
        QVERIFY2(waitFor(
                     [&] {
                         status = engine.status();
                         std::string reason = status.value("stage_reason", std::string());
                         return reason.find(where) != std::string::npos && reason.find("retrying") != std::string::npos;
                     },
                     kWaitMs),
                 status.dump(2).c_str());
        std::string reason = status.value("stage_reason", std::string());
        qInfo("%s", reason.c_str());
        QVERIFY2(reason.find(mentions.toStdString()) != std::string::npos, reason.c_str());
        QVERIFY2(reason.find("host and port") != std::string::npos, reason.c_str());
        verifyNoPassword(reason);
        // Retried more than once, each time after a longer wait.
        QVERIFY2(waitFor(
                     [&] {
                         return readWholeFile(files.logDir + "/" + name + ".log").find("(attempt 2)") !=
                                std::string::npos;
                     },
                     kWaitMs),
                 readWholeFile(files.logDir + "/" + name + ".log").c_str());
        QCOMPARE(engine.terminate(), 0);
    }
};

QTEST_GUILESS_MAIN(ConnectionErrorsTest)
#include "test_connection_errors.moc"
