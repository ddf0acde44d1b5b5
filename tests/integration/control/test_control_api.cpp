// `syncscope-cli run --listen` against the private MariaDB pair, driven through every endpoint and
// state of the control API (including the 401s, 400s and 409s), `/metrics` read by a strict parser,
// `syncscope-cli status` beside it, and finally every log file, answer, metrics page and audit line
// the suite produced searched for the test passwords.
#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "engine/common/server_settings.h"
#include "engine/source/upstream_connection.h"
#include "tests/engine/control/prometheus_text_parser.h"
#include "tests/support/raw_http.h"
#include "tests/support/test_env.h"

using nlohmann::json;
using syncscope::source::UpstreamConnection;

namespace {

constexpr int kCliTimeoutMs = 60000;
constexpr int kWaitTimeoutMs = 30000;
constexpr int kPollMs = 100;
constexpr int kHttpOk = 200;
constexpr int kHttpBadRequest = 400;
constexpr int kHttpUnauthorized = 401;
constexpr int kHttpConflict = 409;
const char* const kTaskName = "ctl-task";
const char* const kToken = "ctl-test-token-0123456789";

bool waitFor(const std::function<bool()>& condition, int timeoutMs = kWaitTimeoutMs) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    while (std::chrono::steady_clock::now() < deadline) {
        if (condition()) {
            return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(kPollMs));
    }
    return condition();
}

std::string readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

struct Answer {
    int status = 0;
    std::string body;
    json parsed() const { return json::parse(body, nullptr, false); }
};

struct CliResult {
    int exitCode = -1;
    std::string out;
    std::string err;
};

class ControlApiTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> down_;
    QTemporaryDir dir_;
    std::string configDir_;
    std::string logDir_;
    std::string taskFile_;
    std::string sourceFile_;
    int port_ = 0;
    QProcess run_;
    std::vector<std::string> answers_;  // every body and CLI output the suite received

    std::string sqlValue(UpstreamConnection& connection, const std::string& sql) {
        try {
            return connection.queryValue(sql).value_or("NULL");
        } catch (const std::exception& e) {
            return std::string("ERROR: ") + e.what();
        }
    }

    void writeFiles(const std::string& binlogName, uint64_t binlogPos) {
        auto up = syncscope::test::upstreamReplication();
        auto down = syncscope::test::downstreamRoot();
        configDir_ = dir_.filePath(QStringLiteral("config")).toStdString();
        logDir_ = dir_.filePath(QStringLiteral("logs")).toStdString();
        std::filesystem::create_directories(configDir_);
        taskFile_ = configDir_ + "/" + kTaskName + ".yaml";
        sourceFile_ = configDir_ + "/" + kTaskName + "-source.yaml";
        std::ofstream task(taskFile_);
        task << "name: " << kTaskName << "\n"
             << "task-mode: incremental\n"
             << "target-database: {host: \"127.0.0.1\", port: " << down.port << ", user: \"" << down.user
             << "\", password: \"" << down.password << "\"}\n"
             << "mysql-instances:\n"
             << "  - source-id: \"ctl-source\"\n"
             << "    meta: {binlog-name: \"" << binlogName << "\", binlog-pos: " << binlogPos << "}\n"
             << "    block-allow-list: \"only-ctl\"\n"
             << "    syncer: {checkpoint-flush-interval: 1, worker-count: 2}\n"
             << "block-allow-list:\n"
             << "  only-ctl: {do-dbs: [\"ctl\"]}\n";
        std::ofstream source(sourceFile_);
        source << "source-id: \"ctl-source\"\nflavor: mariadb\nenable-gtid: false\n"
               << "from: {host: \"127.0.0.1\", port: " << up.port << ", user: \"" << up.user << "\", password: \""
               << up.password << "\"}\n";
        std::ofstream token(configDir_ + "/token");
        token << kToken << "\n";
    }

    httplib::Client client(bool withToken = true) const {
        httplib::Client c("127.0.0.1", port_);
        c.set_connection_timeout(std::chrono::seconds(5));
        c.set_read_timeout(std::chrono::seconds(10));
        if (withToken) {
            c.set_bearer_token_auth(kToken);
        }
        return c;
    }

    Answer get(const std::string& path, bool withToken = true) {
        auto res = client(withToken).Get(path.c_str());
        if (!res) {
            return {};
        }
        answers_.push_back(res->body);
        return {res->status, res->body};
    }

    Answer post(const std::string& path, const std::string& body = "", bool withToken = true) {
        auto res = client(withToken).Post(path.c_str(), body, "application/json");
        if (!res) {
            return {};
        }
        answers_.push_back(res->body);
        return {res->status, res->body};
    }

    json status() { return get("/api/v1/status").parsed(); }

    std::string stage() {
        json s = status();
        return s.is_object() ? s.value("stage", std::string()) : std::string();
    }

    bool waitForStage(const std::string& wanted) {
        return waitFor([&] { return stage() == wanted; });
    }

    syncscope::test::PrometheusPage metrics() {
        Answer page = get("/metrics");
        return syncscope::test::parsePrometheusText(page.body);
    }

    CliResult runCli(const QStringList& args) {
        QProcess process;
        process.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"), args);
        CliResult result;
        if (!process.waitForFinished(kCliTimeoutMs)) {
            process.kill();
            process.waitForFinished();
            result.exitCode = -2;
        } else {
            result.exitCode = process.exitCode();
        }
        result.out = process.readAllStandardOutput().toStdString();
        result.err = process.readAllStandardError().toStdString();
        answers_.push_back(result.out);
        answers_.push_back(result.err);
        return result;
    }

    CliResult statusCli(bool asJson) {
        QStringList args{QStringLiteral("status"), QString::fromStdString(taskFile_), QStringLiteral("--source"),
                         QString::fromStdString(sourceFile_)};
        if (asJson) {
            args << QStringLiteral("--json");
        }
        return runCli(args);
    }

    std::vector<json> auditLines() {
        std::vector<json> lines;
        std::ifstream in(logDir_ + "/" + kTaskName + "-audit.jsonl");
        std::string line;
        while (std::getline(in, line)) {
            lines.push_back(json::parse(line, nullptr, false));
        }
        return lines;
    }

    bool runIsAlive() const { return run_.state() == QProcess::Running; }

    // The persisted global point as the status API gives it.
    std::pair<std::string, uint64_t> persistedGlobal() {
        json point = status()["points"]["global_persisted"];
        if (!point.is_object()) {
            return {};
        }
        return {point["binlog_name"].get<std::string>(), point["binlog_pos"].get<uint64_t>()};
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        up_ = std::make_unique<UpstreamConnection>(syncscope::test::engineSettings(syncscope::test::upstreamRoot()));
        down_ =
            std::make_unique<UpstreamConnection>(syncscope::test::engineSettings(syncscope::test::downstreamRoot()));
        for (UpstreamConnection* server : {up_.get(), down_.get()}) {
            server->execute("SET SESSION sql_log_bin = 0");
            server->execute("DROP DATABASE IF EXISTS ctl");
            server->execute("CREATE DATABASE ctl");
            server->execute("CREATE TABLE ctl.t1 (id INT PRIMARY KEY, v INT)");
            server->execute("CREATE TABLE ctl.t2 (id INT PRIMARY KEY, v VARCHAR(20))");
            server->execute("SET SESSION sql_log_bin = 1");
        }
        down_->execute("CREATE DATABASE IF NOT EXISTS dm_meta");
        down_->execute(std::string("DROP TABLE IF EXISTS dm_meta.`") + kTaskName + "_syncer_checkpoint`");
        auto master = up_->query("SHOW MASTER STATUS");
        QVERIFY(!master.empty());
        writeFiles(*master.front()[0], std::stoull(*master.front()[1]));

        port_ = syncscope::test::freeLoopbackPort();
        QVERIFY(port_ > 0);
        std::filesystem::create_directories(logDir_);
        run_.setStandardOutputFile(QString::fromStdString(logDir_ + "/run-stdout.txt"));
        run_.setStandardErrorFile(QString::fromStdString(logDir_ + "/run-stderr.txt"));
        run_.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"),
                   {QStringLiteral("run"), QString::fromStdString(taskFile_), QStringLiteral("--source"),
                    QString::fromStdString(sourceFile_), QStringLiteral("--log-dir"), QString::fromStdString(logDir_),
                    QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(port_),
                    QStringLiteral("--token-file"), QString::fromStdString(configDir_ + "/token")});
        QVERIFY(run_.waitForStarted());
        QVERIFY2(waitForStage("Running"), readFile(logDir_ + "/run-stderr.txt").c_str());
    }

    void cleanupTestCase() {
        if (runIsAlive()) {
            run_.terminate();
            run_.waitForFinished(kCliTimeoutMs);
        }
    }

    void statusAndMetricsFollowTheStreamWhileRunning() {
        // The start is audited like every other action.
        const auto audited = auditLines();
        QVERIFY(!audited.empty());
        QCOMPARE(audited.front().value("action", std::string()), std::string("start"));
        up_->execute("INSERT INTO ctl.t1 VALUES (1, 10), (2, 20), (3, 30)");
        QVERIFY(waitFor([&] { return sqlValue(*down_, "SELECT COUNT(*) FROM ctl.t1") == "3"; }));
        // The persisted global point reaches the upstream's position within a flush interval or two.
        auto master = up_->query("SHOW MASTER STATUS");
        std::string masterText = "(" + *master.front()[0] + ", " + *master.front()[1] + ")";
        // The upstream's position is polled every second; an idle stream flushes on its interval, so the
        // persisted point reaches the upstream's position, and the live row counter follows the workers.
        QVERIFY2(waitFor([&] {
                     json now = status();
                     return now.value("master_binlog", std::string()) == masterText &&
                            now.value("syncer_binlog", std::string()) == masterText &&
                            now["points"]["global_in_memory"].is_object() &&
                            now["points"]["global_in_memory"]["binlog_pos"].get<uint64_t>() ==
                                std::stoull(*master.front()[1]) &&
                            now.value("total_rows", uint64_t{0}) == 3;
                 }),
                 status().dump(2).c_str());
        json s = status();
        QCOMPARE(s["stage"].get<std::string>(), std::string("Running"));
        QCOMPARE(s["task"].get<std::string>(), std::string(kTaskName));
        QCOMPARE(s["master_binlog"].get<std::string>(), masterText);
        // syncer_binlog is the persisted global point.
        json persisted = s["points"]["global_persisted"];
        QVERIFY2(persisted.is_object(), s.dump(2).c_str());
        std::string persistedText = "(" + persisted["binlog_name"].get<std::string>() + ", " +
                                    std::to_string(persisted["binlog_pos"].get<uint64_t>()) + ")";
        QCOMPARE(s["syncer_binlog"].get<std::string>(), persistedText);
        QCOMPARE(persistedText, masterText);
        QCOMPARE(s["synced"].get<bool>(), true);
        QCOMPARE(s["total_rows"].get<uint64_t>(), uint64_t{3});
        QVERIFY2(s["last_flush"]["at"].is_string(), s.dump(2).c_str());
        QVERIFY2(s["last_flush"]["duration_ms"].is_number() && s["last_flush"]["duration_ms"].get<double>() >= 0,
                 s.dump(2).c_str());
        QVERIFY(s["points"]["upstream"]["axis_bytes"].is_number());
        bool sawTable = false;
        for (const auto& table : s["tables"]) {
            if (table["schema"] == "ctl" && table["table"] == "t1") {
                sawTable = true;
                QCOMPARE(table["ahead_of_global"].get<bool>(), false);
                QVERIFY(table["in_memory"].is_object());
            }
        }
        QVERIFY2(sawTable, s.dump(2).c_str());
        QVERIFY(s["failed_event"].is_null());

        syncscope::test::PrometheusPage page = metrics();
        QVERIFY2(page.error.empty(), page.error.c_str());
        QCOMPARE(page.value("syncscope_stage", {{"stage", "Running"}}), std::optional<double>(1));
        QCOMPARE(page.value("syncscope_stage", {{"stage", "Error"}}), std::optional<double>(0));
        QCOMPARE(page.value("syncscope_rows_applied_total"), std::optional<double>(3));
        QCOMPARE(page.value("syncscope_position_offset_bytes", {{"point", "global_persisted"}}),
                 std::optional<double>(std::stod(*master.front()[1])));
        QVERIFY(page.value("syncscope_last_flush_timestamp_seconds").value_or(0) > 0);
        QCOMPARE(page.value("syncscope_position_offset_bytes", {{"point", "global_in_memory"}}),
                 std::optional<double>(std::stod(*master.front()[1])));
        QCOMPARE(page.value("syncscope_position_offset_bytes", {{"point", "upstream"}}),
                 std::optional<double>(std::stod(*master.front()[1])));
        QCOMPARE(page.value("syncscope_failed_event"), std::optional<double>(0));
    }

    void commandsTheRunningStateDoesNotAllowAnswer409WithTheReason_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("body");
        QTest::addRow("resume") << "/api/v1/resume"
                                << "";
        QTest::addRow("skip") << "/api/v1/skip"
                              << "";
        QTest::addRow("start") << "/api/v1/start"
                               << "";
        QTest::addRow("resume-from") << "/api/v1/resume-from"
                                     << R"({"binlog_name": "mariadb-bin.000001", "binlog_pos": 4})";
    }

    void commandsTheRunningStateDoesNotAllowAnswer409WithTheReason() {
        QFETCH(QString, path);
        QFETCH(QString, body);
        Answer answer = post(path.toStdString(), body.toStdString());
        QCOMPARE(answer.status, kHttpConflict);
        json reply = answer.parsed();
        QCOMPARE(reply["accepted"].get<bool>(), false);
        QVERIFY2(reply["reason"].get<std::string>().find("Running") != std::string::npos, answer.body.c_str());
        QCOMPARE(stage(), std::string("Running"));
    }

    void badBodiesAnswer400AndChangeNothing_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("body");
        QTest::addRow("resume-from, not json") << "/api/v1/resume-from"
                                               << "binlog_pos=4";
        QTest::addRow("resume-from, empty object") << "/api/v1/resume-from"
                                                   << "{}";
        QTest::addRow("resume-from, name only") << "/api/v1/resume-from"
                                                << R"({"binlog_name": "mariadb-bin.000001"})";
        QTest::addRow("resume-from, pos as text") << "/api/v1/resume-from"
                                                  << R"({"binlog_name": "mariadb-bin.000001", "binlog_pos": "4"})";
        QTest::addRow("pause with arguments") << "/api/v1/pause"
                                              << R"({"force": true})";
        QTest::addRow("stop with garbage") << "/api/v1/stop"
                                           << "now!";
    }

    void badBodiesAnswer400AndChangeNothing() {
        QFETCH(QString, path);
        QFETCH(QString, body);
        size_t auditBefore = auditLines().size();
        Answer answer = post(path.toStdString(), body.toStdString());
        QCOMPARE(answer.status, kHttpBadRequest);
        QVERIFY(answer.parsed()["error"].is_string());
        QCOMPARE(stage(), std::string("Running"));
        QCOMPARE(auditLines().size(), auditBefore);
    }

    void requestsWithoutTheTokenAnswer401() {
        QCOMPARE(get("/api/v1/status", false).status, kHttpUnauthorized);
        QCOMPARE(get("/metrics", false).status, kHttpUnauthorized);
        QCOMPARE(post("/api/v1/pause", "", false).status, kHttpUnauthorized);
        QCOMPARE(post("/api/v1/stop", "", false).status, kHttpUnauthorized);
        QCOMPARE(stage(), std::string("Running"));
    }

    void pauseHoldsRowsBackAndResumeAppliesThem() {
        Answer paused = post("/api/v1/pause");
        QCOMPARE(paused.status, kHttpOk);
        QVERIFY(waitForStage("Paused"));
        QCOMPARE(post("/api/v1/pause").status, kHttpConflict);
        QCOMPARE(post("/api/v1/skip").status, kHttpConflict);
        up_->execute("INSERT INTO ctl.t1 VALUES (4, 40)");
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        QCOMPARE(sqlValue(*down_, "SELECT COUNT(*) FROM ctl.t1"), std::string("3"));
        syncscope::test::PrometheusPage page = metrics();
        QVERIFY2(page.error.empty(), page.error.c_str());
        QCOMPARE(page.value("syncscope_stage", {{"stage", "Paused"}}), std::optional<double>(1));

        QCOMPARE(post("/api/v1/resume").status, kHttpOk);
        QVERIFY(waitFor([&] { return sqlValue(*down_, "SELECT COUNT(*) FROM ctl.t1") == "4"; }));
        QCOMPARE(stage(), std::string("Running"));
    }

    // curl -X POST sends neither a body nor Content-Length (issue 10.14): accepted at once, not a bare 400.
    void pauseAndResumeWithoutBodyOrContentLengthAsCurlSendsThem() {
        for (const char* command : {"pause", "resume"}) {
            std::string request = std::string("POST /api/v1/") + command +
                                  " HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: curl/7.88.1\r\nAccept: */*\r\n"
                                  "Authorization: Bearer " +
                                  kToken + "\r\n\r\n";
            syncscope::test::RawHttpAnswer answer = syncscope::test::rawHttpExchange(port_, request);
            QVERIFY2(answer.problem.empty(), answer.problem.c_str());
            answers_.push_back(answer.body);
            QCOMPARE(answer.status, kHttpOk);
            QVERIFY2(json::parse(answer.body, nullptr, false).value("accepted", false), answer.body.c_str());
            QVERIFY(waitForStage(std::string(command) == "pause" ? "Paused" : "Running"));
        }
        std::string noBody = "POST /api/v1/resume-from HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " +
                             std::string(kToken) + "\r\n\r\n";
        syncscope::test::RawHttpAnswer refused = syncscope::test::rawHttpExchange(port_, noBody);
        QCOMPARE(refused.status, kHttpBadRequest);
        QVERIFY2(json::parse(refused.body, nullptr, false)["error"].is_string(), refused.body.c_str());
        QCOMPARE(stage(), std::string("Running"));
    }

    void failedRowKeepsTheApiServingUntilTheDbaSkipsIt() {
        // A column the downstream lacks: the row fails with 1054 and needs the DBA.
        up_->execute("SET SESSION sql_log_bin = 0");
        up_->execute("ALTER TABLE ctl.t1 ADD c INT");
        up_->execute("SET SESSION sql_log_bin = 1");
        up_->execute("INSERT INTO ctl.t1 VALUES (5, 50, 500)");
        auto master = up_->query("SHOW MASTER STATUS");
        uint64_t afterFailing = std::stoull(*master.front()[1]);

        QVERIFY2(waitForStage("Error"), status().dump(2).c_str());
        QVERIFY2(waitFor([&] { return status()["failed_event"].is_object(); }), status().dump(2).c_str());
        json failed = status()["failed_event"];
        QCOMPARE(failed["error_code"].get<int>(), 1054);
        QCOMPARE(failed["schema"].get<std::string>(), std::string("ctl"));
        QCOMPARE(failed["table"].get<std::string>(), std::string("t1"));
        QCOMPARE(failed["operation"].get<std::string>(), std::string("insert"));
        QCOMPARE(failed["after"][0][0].get<std::string>(), std::string("5"));
        QCOMPARE(failed["after"][0][2].get<std::string>(), std::string("500"));
        QVERIFY(failed["sql"].get<std::string>().find("`ctl`.`t1`") != std::string::npos);
        QVERIFY(runIsAlive());
        auto [file, pos] = persistedGlobal();
        QVERIFY2(pos < afterFailing, "the persisted global point covers the failed row");

        syncscope::test::PrometheusPage page = metrics();
        QVERIFY2(page.error.empty(), page.error.c_str());
        QCOMPARE(page.value("syncscope_stage", {{"stage", "Error"}}), std::optional<double>(1));
        QCOMPARE(page.value("syncscope_failed_event"), std::optional<double>(1));
        QVERIFY(page.value("syncscope_errors_total", {{"class", "needs_dba"}}).value_or(0) >= 1);

        // Error does not allow resume-from; resume is allowed and meets the same row again.
        QCOMPARE(post("/api/v1/resume-from",
                      R"({"binlog_name": ")" + file + R"(", "binlog_pos": )" + std::to_string(pos) + "}")
                     .status,
                 kHttpConflict);
        size_t resumesBefore = auditLines().size();
        QCOMPARE(post("/api/v1/resume").status, kHttpOk);
        QVERIFY(auditLines().size() == resumesBefore + 1);
        QVERIFY(waitFor([&] {
            json s = status();
            return s["stage"] == "Error" && s["failed_event"].is_object() &&
                   s["failed_event"]["error_code"].get<int>() == 1054;
        }));
        QVERIFY(runIsAlive());
        QCOMPARE(sqlValue(*down_, "SELECT COUNT(*) FROM ctl.t1"), std::string("4"));

        // The DBA skips exactly that transaction; the stream goes on.
        // The skip is accepted once the resumed session has met the row again and stopped on it.
        Answer skipped;
        QVERIFY(waitFor([&] {
            skipped = post("/api/v1/skip");
            return skipped.status == kHttpOk;
        }));
        QVERIFY2(skipped.parsed()["result"].get<std::string>().find("skipping") != std::string::npos,
                 skipped.body.c_str());
        QVERIFY(waitForStage("Running"));
        up_->execute("INSERT INTO ctl.t2 VALUES (1, 'after the skip')");
        QVERIFY(waitFor([&] { return sqlValue(*down_, "SELECT COUNT(*) FROM ctl.t2") == "1"; }));
        QCOMPARE(sqlValue(*down_, "SELECT COUNT(*) FROM ctl.t1"), std::string("4"));
        QCOMPARE(post("/api/v1/skip").status, kHttpConflict);

        bool auditedSkip = false;
        for (const json& line : auditLines()) {
            if (line.is_object() && line.value("action", std::string()) == "skip") {
                auditedSkip = line.dump().find("500") != std::string::npos;
            }
        }
        QVERIFY2(auditedSkip, "the skip is not in the audit log with the row image");
    }

    void stopKeepsServingAndResumeFromStartsAgain() {
        QCOMPARE(post("/api/v1/stop").status, kHttpOk);
        QVERIFY(waitForStage("Stopped"));
        QVERIFY(runIsAlive());
        for (const char* path : {"/api/v1/stop", "/api/v1/pause", "/api/v1/resume", "/api/v1/skip"}) {
            Answer refused = post(path);
            QVERIFY2(refused.status == kHttpConflict, path);
            QVERIFY2(refused.parsed()["reason"].get<std::string>().find("Stopped") != std::string::npos,
                     refused.body.c_str());
        }

        // status without the engine's help agrees with the API on the persisted point.
        auto master = up_->query("SHOW MASTER STATUS");
        std::string masterText = "(" + *master.front()[0] + ", " + *master.front()[1] + ")";
        QVERIFY(waitFor([&] { return status().value("master_binlog", std::string()) == masterText; }));
        json api = status();
        CliResult cli = statusCli(true);
        QVERIFY2(cli.exitCode == 0, cli.err.c_str());
        json offline = json::parse(cli.out, nullptr, false);
        QVERIFY2(offline.is_object(), cli.out.c_str());
        QCOMPARE(offline["syncer_binlog"].get<std::string>(), api["syncer_binlog"].get<std::string>());
        QCOMPARE(offline["master_binlog"].get<std::string>(), api["master_binlog"].get<std::string>());
        // The distance is the upstream's position minus the persisted global point (one file here).
        int64_t behind = static_cast<int64_t>(api["points"]["upstream"]["binlog_pos"].get<uint64_t>()) -
                         static_cast<int64_t>(api["points"]["global_persisted"]["binlog_pos"].get<uint64_t>());
        QCOMPARE(offline["behind_upstream"]["bytes"].get<int64_t>(), behind);
        QCOMPARE(offline["behind_upstream"]["files"].get<int64_t>(), int64_t{0});
        QCOMPARE(offline["synced"].get<bool>(), behind == 0);
        QVERIFY(offline["exit_safe"].is_object());
        QCOMPARE(offline["anomalies"].get<size_t>(), size_t{0});
        QVERIFY(offline["tables"].size() >= 2);
        CliResult text = statusCli(false);
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.find("global") != std::string::npos && text.out.find("exit-safe") != std::string::npos &&
                     text.out.find(std::to_string(behind) + " bytes, 0 files behind the upstream") != std::string::npos,
                 text.out.c_str());

        auto [file, pos] = persistedGlobal();
        Answer resumed = post("/api/v1/resume-from", json{{"binlog_name", file}, {"binlog_pos", pos}}.dump());
        QCOMPARE(resumed.status, kHttpOk);
        QVERIFY(waitForStage("Running"));
        up_->execute("INSERT INTO ctl.t2 VALUES (2, 'after resume-from')");
        QVERIFY(waitFor([&] { return sqlValue(*down_, "SELECT COUNT(*) FROM ctl.t2") == "2"; }));
        bool auditedResumeFrom = false;
        for (const json& line : auditLines()) {
            auditedResumeFrom = auditedResumeFrom || (line.is_object() && line.value("action", "") == "resume-from");
        }
        QVERIFY(auditedResumeFrom);
    }

    void sigtermEndsTheServingProcessWithExit0() {
        QVERIFY(runIsAlive());
        run_.terminate();
        QVERIFY(run_.waitForFinished(kCliTimeoutMs));
        QCOMPARE(run_.exitStatus(), QProcess::NormalExit);
        QCOMPARE(run_.exitCode(), 0);
        httplib::Client gone("127.0.0.1", port_);
        QVERIFY(!gone.Get("/api/v1/status"));
    }

    void statusFlagsATablePointAheadOfTheGlobalPointWithTheSkipWindow() {
        // The engine is gone: the upstream moves on without it.
        up_->execute("INSERT INTO ctl.t2 VALUES (3, 'unreplicated')");
        json before = json::parse(statusCli(true).out, nullptr, false);
        QVERIFY(before.is_object());
        QVERIFY(before["behind_upstream"]["bytes"].get<int64_t>() > 100);
        QCOMPARE(before["synced"].get<bool>(), false);
        std::string file = before["global"]["binlog_name"].get<std::string>();
        uint64_t pos = before["global"]["binlog_pos"].get<uint64_t>();
        constexpr uint64_t kAhead = 100;
        // As DM's bug left them: a table point past the global point.
        down_->execute(std::string("INSERT INTO dm_meta.`") + kTaskName +
                       "_syncer_checkpoint` (id, cp_schema, cp_table, binlog_name, binlog_pos, binlog_gtid, "
                       "table_info, is_global) VALUES ('ctl-source', 'ctl', 'ghost', '" +
                       file + "', " + std::to_string(pos + kAhead) + ", '', 'null', 0)");
        CliResult cli = statusCli(true);
        QCOMPARE(cli.exitCode, 0);
        json after = json::parse(cli.out, nullptr, false);
        QVERIFY2(after.is_object() && after["anomalies"].get<size_t>() >= 1, cli.out.c_str());
        bool flagged = false;
        for (const auto& table : after["tables"]) {
            if (table["table"] != "ghost") {
                continue;
            }
            flagged = table["ahead_of_global"].get<bool>();
            for (const auto& anomaly : table["anomalies"]) {
                if (anomaly["kind"] == "table-ahead-of-global") {
                    QCOMPARE(anomaly["skip_window"]["bytes"].get<int64_t>(), static_cast<int64_t>(kAhead));
                }
            }
        }
        QVERIFY2(flagged, cli.out.c_str());
        CliResult text = statusCli(false);
        QVERIFY2(text.out.find("ctl.ghost") != std::string::npos &&
                     text.out.find("AHEAD OF THE GLOBAL POINT") != std::string::npos &&
                     text.out.find("a resume would skip") != std::string::npos,
                 text.out.c_str());
        down_->execute(std::string("DELETE FROM dm_meta.`") + kTaskName +
                       "_syncer_checkpoint` WHERE cp_table = 'ghost'");
    }

    void statusCommandErrorsAndUsage_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("mentions");
        QTest::addRow("no source") << QStringList{"status", "task.yaml"} << 2 << "--source";
        QTest::addRow("unknown option") << QStringList{"status", "t.yaml", "--source", "s.yaml", "--fast"} << 2
                                        << "--fast";
        QTest::addRow("missing task file")
            << QStringList{"status", "/nonexistent/task.yaml", "--source", "s.yaml"} << 1 << "/nonexistent/task.yaml";
        QTest::addRow("run: token file without listen")
            << QStringList{"run", "t.yaml", "--source", "s.yaml", "--token-file", "tok"} << 2 << "--listen";
        QTest::addRow("run: bad listen address")
            << QStringList{"run", "TASK", "--source", "SOURCE", "--listen", "127.0.0.1:http"} << 1 << "127.0.0.1:http";
        QTest::addRow("run: non-loopback without token")
            << QStringList{"run", "TASK", "--source", "SOURCE", "--listen", "0.0.0.0:0"} << 1 << "token";
    }

    void statusCommandErrorsAndUsage() {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, mentions);
        args.replaceInStrings(QStringLiteral("TASK"), QString::fromStdString(taskFile_));
        args.replaceInStrings(QStringLiteral("SOURCE"), QString::fromStdString(sourceFile_));
        args << QStringLiteral("--log-dir") << QString::fromStdString(logDir_);
        if (args.first() == QStringLiteral("status")) {
            args.removeLast();
            args.removeLast();
        }
        CliResult cli = runCli(args);
        QCOMPARE(cli.exitCode, exitCode);
        QVERIFY2(QString::fromStdString(cli.err).contains(mentions), cli.err.c_str());
    }

    // Must stay the last test: it reads what every test before it produced.
    void noPasswordInAnyLogStatusAnswerMetricsPageOrAuditLine() {
        const std::vector<std::string> passwords{syncscope::test::upstreamReplication().password,
                                                 syncscope::test::downstreamRoot().password,
                                                 syncscope::test::upstreamRoot().password};
        size_t filesRead = 0;
        bool sawLog = false;
        bool sawAudit = false;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(logDir_)) {
            if (!entry.is_regular_file()) {
                continue;
            }
            std::string text = readFile(entry.path());
            ++filesRead;
            sawLog = sawLog || entry.path().extension() == ".log";
            sawAudit = sawAudit || entry.path().string().ends_with("-audit.jsonl");
            for (const auto& password : passwords) {
                QVERIFY2(text.find(password) == std::string::npos,
                         ("a password is in " + entry.path().string()).c_str());
            }
        }
        QVERIFY(sawLog);
        QVERIFY(sawAudit);
        QVERIFY(filesRead >= 3);
        std::set<std::string> actions;
        std::string audit;
        for (const json& line : auditLines()) {
            actions.insert(line.value("action", std::string()));
            audit += line.dump() + "\n";
        }
        for (const char* action : {"pause", "resume", "skip", "stop", "resume-from"}) {
            QVERIFY2(actions.count(action) == 1, (std::string(action) + " is not audited:\n" + audit).c_str());
        }
        QVERIFY(answers_.size() > 50);
        for (size_t i = 0; i < answers_.size(); ++i) {
            for (const auto& password : passwords) {
                QVERIFY2(answers_[i].find(password) == std::string::npos,
                         ("a password is in answer " + std::to_string(i) + ": " + answers_[i]).c_str());
            }
        }
    }
};

}  // namespace

QTEST_GUILESS_MAIN(ControlApiTest)
#include "test_control_api.moc"
