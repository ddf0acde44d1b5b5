// No password in anything the engine writes or answers (docs/design.md, Errors). Scenarios run with
// their own users whose passwords come from a password file (upstream) and an environment variable
// (downstream): a run through every control command with a failing row skipped, `syncscope-cli
// status`, a wrong password on each side, an unreachable upstream. Afterwards every log file, stderr
// and stdout capture, status answer, metrics page, API answer and audit line is searched for every
// password used (the right ones and the wrong one) and none is found.
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

const char* const kUpUser = "secret_up";
const char* const kDownUser = "secret_down";
const char* const kUpPassword = "Up-S3cret-from-file-7788";
const char* const kDownPassword = "Down-S3cret-from-env-9911";
const char* const kWrongPassword = "Wrong-S3cret-4455";
const char* const kEnvVariable = "SYNCSCOPE_TEST_DOWN_SECRET";
constexpr int kCliTimeoutMs = 60000;
constexpr int kWaitMs = 30000;
constexpr int kHttpOk = 200;

}  // namespace

class SecretsTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::vector<std::string> answers_;  // everything the engine and the CLI said outside the log folders
    std::vector<std::string> logDirs_;

    struct Files {
        std::string task;
        std::string source;
        std::string logDir;
    };

    // upstream password from the file `upPasswordFile` (relative to the source file), downstream from
    // the environment variable.
    Files writeFiles(const std::string& name, const std::string& upPassword, int upPort) {
        connectTo(downstreamRoot())->execute("DROP TABLE IF EXISTS dm_meta.`" + name + "_syncer_checkpoint`");
        auto master = connectTo(upstreamRoot())->query("SHOW MASTER STATUS");
        std::string folder = dir_.filePath(QString::fromStdString(name)).toStdString();
        std::filesystem::create_directories(folder);
        Files files{folder + "/task.yaml", folder + "/source.yaml", folder + "/logs"};
        logDirs_.push_back(files.logDir);
        std::ofstream(folder + "/up-password.txt") << upPassword << "\n";
        std::ofstream(files.task) << "name: " << name << "\ntask-mode: incremental\n"
                                  << "target-database: {host: \"127.0.0.1\", port: " << downstreamRoot().port
                                  << ", user: \"" << kDownUser << "\", password: \"${ENV:" << kEnvVariable << "}\"}\n"
                                  << "mysql-instances:\n  - source-id: \"secret-source\"\n"
                                  << "    meta: {binlog-name: \"" << *master.front()[0]
                                  << "\", binlog-pos: " << *master.front()[1] << "}\n"
                                  << "    block-allow-list: \"only-secretdb\"\n"
                                  << "    syncer: {worker-count: 2, checkpoint-flush-interval: 1}\n"
                                  << "block-allow-list:\n  only-secretdb: {do-dbs: [\"secretdb\"]}\n";
        std::ofstream(files.source) << "source-id: \"secret-source\"\nflavor: mariadb\nenable-gtid: false\n"
                                    << "from: {host: \"127.0.0.1\", port: " << upPort << ", user: \"" << kUpUser
                                    << "\", password-file: \"up-password.txt\"}\n";
        return files;
    }

    static QStringList environment() {
        return {QString::fromLatin1(kEnvVariable) + QLatin1Char('=') + QString::fromLatin1(kDownPassword)};
    }

    std::string post(EngineProcess& engine, const std::string& path, const std::string& body = {}) {
        int status = 0;
        std::string answer = engine.post(path, body, &status);
        return std::to_string(status) + " " + answer;
    }

    std::string count(const std::string& table) {
        try {
            return connectTo(downstreamRoot())->queryValue("SELECT COUNT(*) FROM " + table).value_or("NULL");
        } catch (const std::exception& e) {
            return e.what();
        }
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        auto up = connectTo(upstreamRoot());
        auto down = connectTo(downstreamRoot());
        up->execute("SET SESSION sql_log_bin = 0");
        up->execute(std::string("DROP USER IF EXISTS '") + kUpUser + "'@'127.0.0.1'");
        up->execute(std::string("CREATE USER '") + kUpUser + "'@'127.0.0.1' IDENTIFIED BY '" + kUpPassword + "'");
        up->execute(std::string("GRANT REPLICATION SLAVE, BINLOG MONITOR, SELECT ON *.* TO '") + kUpUser +
                    "'@'127.0.0.1'");
        down->execute(std::string("DROP USER IF EXISTS '") + kDownUser + "'@'127.0.0.1'");
        down->execute(std::string("CREATE USER '") + kDownUser + "'@'127.0.0.1' IDENTIFIED BY '" + kDownPassword + "'");
        down->execute(std::string("GRANT ALL PRIVILEGES ON *.* TO '") + kDownUser + "'@'127.0.0.1'");
        for (auto* server : {up.get(), down.get()}) {
            server->execute("SET SESSION sql_log_bin = 0");
            server->execute("DROP DATABASE IF EXISTS secretdb");
            server->execute("CREATE DATABASE secretdb");
            server->execute("CREATE TABLE secretdb.t (id INT PRIMARY KEY, v VARCHAR(40))");
        }
        down->execute("CREATE DATABASE IF NOT EXISTS dm_meta");
    }

    void cleanupTestCase() {
        try {
            connectTo(upstreamRoot())->execute(std::string("DROP USER IF EXISTS '") + kUpUser + "'@'127.0.0.1'");
            connectTo(downstreamRoot())->execute(std::string("DROP USER IF EXISTS '") + kDownUser + "'@'127.0.0.1'");
        } catch (const std::exception& e) {
            qWarning("cleanup: %s", e.what());
        }
    }

    void everyCommandAndAFailedRowWithPasswordsFromFileAndEnvironment() {
        Files files = writeFiles("secret-task", kUpPassword, upstreamReplication().port);
        EngineProcess engine(files.task, files.source, files.logDir);
        QVERIFY2(engine.start({}, environment()), engine.stderrText().c_str());
        QVERIFY2(waitFor([&] { return engine.stage() == "Running"; }, kWaitMs), engine.stderrText().c_str());
        auto up = connectTo(upstreamRoot());
        up->execute("INSERT INTO secretdb.t VALUES (1, 'one'), (2, 'two')");
        QVERIFY2(waitFor([&] { return count("secretdb.t") == "2"; }, kWaitMs), engine.status().dump(2).c_str());
        engine.get("/metrics");
        answers_.push_back(post(engine, "/api/v1/pause"));
        QVERIFY(waitFor([&] { return engine.stage() == "Paused"; }, kWaitMs));
        answers_.push_back(post(engine, "/api/v1/resume"));
        QVERIFY(waitFor([&] { return engine.stage() == "Running"; }, kWaitMs));

        // A row the downstream cannot take (a column it lacks): Error, failed event, skip (audited).
        up->execute("SET SESSION sql_log_bin = 0");
        up->execute("ALTER TABLE secretdb.t ADD c INT");
        up->execute("SET SESSION sql_log_bin = 1");
        up->execute("INSERT INTO secretdb.t VALUES (3, 'three', 3)");
        QVERIFY2(waitFor([&] { return engine.status()["failed_event"].is_object(); }, kWaitMs),
                 engine.status().dump(2).c_str());
        engine.get("/metrics");
        QVERIFY(waitFor([&] { return post(engine, "/api/v1/skip").starts_with(std::to_string(kHttpOk)); }, kWaitMs));
        QVERIFY(waitFor([&] { return engine.stage() == "Running"; }, kWaitMs));
        answers_.push_back(post(engine, "/api/v1/resume"));                    // 409
        answers_.push_back(post(engine, "/api/v1/resume-from", "{bad json"));  // 400
        answers_.push_back(post(engine, "/api/v1/stop"));
        QVERIFY(waitFor([&] { return engine.stage() == "Stopped"; }, kWaitMs));
        json persisted = engine.status()["points"]["global_persisted"];
        QVERIFY2(persisted.is_object(), engine.status().dump(2).c_str());
        answers_.push_back(
            post(engine, "/api/v1/resume-from",
                 json{{"binlog_name", persisted["binlog_name"]}, {"binlog_pos", persisted["binlog_pos"]}}.dump()));
        QVERIFY(waitFor([&] { return engine.stage() == "Running"; }, kWaitMs));
        engine.get("/metrics");
        engine.status();

        // The offline status command reads the same files.
        for (bool asJson : {false, true}) {
            QStringList args{QStringLiteral("status"), QString::fromStdString(files.task), QStringLiteral("--source"),
                             QString::fromStdString(files.source)};
            if (asJson) {
                args << QStringLiteral("--json");
            }
            CliResult cli = runCli(args, kCliTimeoutMs, environment());
            QVERIFY2(cli.exitCode == 0, cli.err.c_str());
            answers_.push_back(cli.out);
            answers_.push_back(cli.err);
        }
        QCOMPARE(engine.terminate(), 0);
        answers_.insert(answers_.end(), engine.answers().begin(), engine.answers().end());
        std::string audit = readWholeFile(files.logDir + "/secret-task-audit.jsonl");
        for (const char* action : {"\"pause\"", "\"resume\"", "\"skip\"", "\"stop\"", "\"resume-from\""}) {
            QVERIFY2(audit.find(action) != std::string::npos, audit.c_str());
        }
    }

    void errorsWithAWrongPasswordOrAnUnreachableServer() {
        // A wrong upstream password from the file: exits 1 with the error.
        Files wrong = writeFiles("secret-wrong", kWrongPassword, upstreamReplication().port);
        CliResult cli = runCli(
            {QStringLiteral("run"), QString::fromStdString(wrong.task), QStringLiteral("--source"),
             QString::fromStdString(wrong.source), QStringLiteral("--log-dir"), QString::fromStdString(wrong.logDir)},
            kCliTimeoutMs, environment());
        QCOMPARE(cli.exitCode, 1);
        QVERIFY2(cli.err.find("Access denied") != std::string::npos, cli.err.c_str());
        answers_.push_back(cli.out);
        answers_.push_back(cli.err);

        // A wrong downstream password from the environment.
        Files wrongDown = writeFiles("secret-wrong-down", kUpPassword, upstreamReplication().port);
        cli = runCli({QStringLiteral("run"), QString::fromStdString(wrongDown.task), QStringLiteral("--source"),
                      QString::fromStdString(wrongDown.source), QStringLiteral("--log-dir"),
                      QString::fromStdString(wrongDown.logDir)},
                     kCliTimeoutMs, {QString::fromLatin1(kEnvVariable) + "=" + QString::fromLatin1(kWrongPassword)});
        QCOMPARE(cli.exitCode, 1);
        QVERIFY2(cli.err.find("target database") != std::string::npos, cli.err.c_str());
        answers_.push_back(cli.out);
        answers_.push_back(cli.err);

        // Unreachable upstream: retried; status, metrics and the stage reason say so.
        Files unreachable = writeFiles("secret-unreachable", kUpPassword, freeLoopbackPort());
        EngineProcess engine(unreachable.task, unreachable.source, unreachable.logDir);
        QVERIFY2(engine.start({}, environment()), engine.stderrText().c_str());
        QVERIFY2(waitFor(
                     [&] {
                         return engine.status().value("stage_reason", std::string()).find("retrying") !=
                                std::string::npos;
                     },
                     kWaitMs),
                 engine.status().dump(2).c_str());
        engine.get("/metrics");
        QCOMPARE(engine.terminate(), 0);
        answers_.insert(answers_.end(), engine.answers().begin(), engine.answers().end());
    }

    // Must stay last: searches what the scenarios above produced.
    void noPasswordInAnyLogStatusAnswerMetricsPageOrAuditLine() {
        const std::vector<std::string> passwords{kUpPassword, kDownPassword, kWrongPassword};
        size_t files = 0;
        size_t bytes = 0;
        bool sawLog = false;
        bool sawAudit = false;
        for (const std::string& logDir : logDirs_) {
            if (!std::filesystem::is_directory(logDir)) {
                continue;
            }
            for (const auto& entry : std::filesystem::recursive_directory_iterator(logDir)) {
                if (!entry.is_regular_file()) {
                    continue;
                }
                std::string text = readWholeFile(entry.path().string());
                ++files;
                bytes += text.size();
                sawLog = sawLog || entry.path().extension() == ".log";
                sawAudit = sawAudit || entry.path().string().ends_with("-audit.jsonl");
                for (const std::string& password : passwords) {
                    QVERIFY2(text.find(password) == std::string::npos,
                             ("a password is in " + entry.path().string()).c_str());
                }
            }
        }
        for (size_t i = 0; i < answers_.size(); ++i) {
            bytes += answers_[i].size();
            // The control API masks known secrets as ***: a mask means the engine put one in its status.
            QVERIFY2(answers_[i].find("***") == std::string::npos,
                     ("a redacted secret is in answer " + std::to_string(i) + ": " + answers_[i]).c_str());
            for (const std::string& password : passwords) {
                QVERIFY2(answers_[i].find(password) == std::string::npos,
                         ("a password is in answer " + std::to_string(i) + ": " + answers_[i]).c_str());
            }
        }
        qInfo("searched %zu files and %zu answers (%zu bytes) for %zu passwords", files, answers_.size(), bytes,
              passwords.size());
        QVERIFY(sawLog);
        QVERIFY(sawAudit);
        QVERIFY(answers_.size() > 20);
    }
};

QTEST_GUILESS_MAIN(SecretsTest)
#include "test_secrets.moc"
