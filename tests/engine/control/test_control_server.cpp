// The control server against a scripted task: routes, status codes (200, 400, 401, 404, 409, 413), the
// bearer token, the loopback rule, a POST as curl sends it without a body, a JSON reason in every
// refusal, that no secret leaves in any answer, and that a skip or a forward resume-from saves its rows first.
#include <QtTest>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <mutex>

#include "engine/control/control_server.h"
#include "engine/task/evidenced_resume_from.h"
#include "tests/engine/control/prometheus_text_parser.h"
#include "tests/engine/control/sample_status.h"
#include "tests/support/raw_http.h"

using namespace syncscope;

namespace {

const char* const kToken = "0123456789abcdef-token";
const char* const kReadToken = "read-only-token-fedcba9876543210";
const char* const kSecret = "hunter2-secret-password";
constexpr uint64_t kInsideATransaction = 197;  // where the scripted binlog has no transaction boundary

// Accepts or refuses each command as told, and remembers what it was asked.
class ScriptedTask : public task::TaskControl, public task::EvidencedResumeFrom {
public:
    std::shared_ptr<const task::StatusSnapshot> status() const override {
        std::lock_guard lock(mutex_);
        return snapshot_;
    }
    std::vector<task::Notice> drainNotices(size_t) override { return {}; }
    task::CommandResult start() override { return answer("start"); }
    task::CommandResult pause() override { return answer("pause"); }
    task::CommandResult resume() override { return answer("resume"); }
    task::CommandResult stop() override { return answer("stop"); }
    using task::TaskControl::skipFailedEvent;
    task::CommandResult skipFailedEvent(const task::SkipEvidence& evidence) override {
        {
            std::lock_guard lock(mutex_);
            lastEvidence = evidence;
        }
        return answer("skip");
    }
    task::CommandResult resumeFrom(const task::ResumeTarget& target) override { return resumeFrom(target, {}); }
    task::CommandResult resumeFrom(const task::ResumeTarget& target, const task::SkipEvidence& evidence) override {
        std::lock_guard lock(mutex_);
        lastTarget = target;
        lastEvidence = evidence;
        calls.push_back("resume-from");
        return {accept, accept ? "resuming" : "cannot resume from a position while the task is Running"};
    }

    void setStatus(task::StatusSnapshot status) {
        std::lock_guard lock(mutex_);
        snapshot_ = std::make_shared<const task::StatusSnapshot>(std::move(status));
    }

    bool accept = true;
    std::vector<std::string> calls;
    task::ResumeTarget lastTarget;
    task::SkipEvidence lastEvidence;

private:
    task::CommandResult answer(const std::string& command) {
        std::lock_guard lock(mutex_);
        calls.push_back(command);
        return {accept, accept ? command + " done" : "cannot " + command + " while the task is Running"};
    }

    mutable std::mutex mutex_;
    std::shared_ptr<const task::StatusSnapshot> snapshot_ = std::make_shared<const task::StatusSnapshot>();
};

// Answers as a previewer over a real task would, or fails as one that cannot read a server does.
class ScriptedPreviewer : public control::CommandPreviewer {
public:
    std::string resumeTargetProblem(const task::StatusSnapshot&, const task::ResumeTarget& target) override {
        return target.pos == kInsideATransaction ? "mysql-bin.000003:" + std::to_string(target.pos) +
                                                       " is in the middle of the transaction at mysql-bin.000003:120"
                                                 : std::string();
    }
    nlohmann::json previewSkip(const task::StatusSnapshot&) override { return answer("skip"); }
    nlohmann::json previewResumeFrom(const task::StatusSnapshot&, const task::ResumeTarget& target) override {
        return answer("resume-from " + target.file + ":" + std::to_string(target.pos));
    }
    task::SkipEvidence saveSkippedRows(const task::StatusSnapshot&) override {
        answer("save");
        return {savedFile, {{"rows_missing", 1}}};
    }
    task::SkipEvidence saveResumeFromSkippedRows(const task::StatusSnapshot&,
                                                 const task::ResumeTarget& target) override {
        answer("save resume-from " + target.file + ":" + std::to_string(target.pos));
        return {savedFile, {{"rows_missing", 2}}};
    }

    std::string failure;  // set: every call throws this
    std::string savedFile = "/var/log/syncscope/t-skipped-1.sql";
    std::vector<std::string> calls;

private:
    nlohmann::json answer(const std::string& call) {
        calls.push_back(call);
        if (!failure.empty()) {
            throw Error(failure);
        }
        return {{"asked", call}};
    }
};

}  // namespace

class ControlServerTest : public QObject {
    Q_OBJECT

private:
    ScriptedTask task_;
    std::unique_ptr<control::ControlServer> server_;

    httplib::Client client(bool withToken = true) {
        httplib::Client c("127.0.0.1", server_->port());
        c.set_connection_timeout(5);  // a broken server fails the test instead of hanging it
        c.set_read_timeout(10);
        if (withToken) {
            c.set_bearer_token_auth(kToken);
        }
        return c;
    }

private slots:
    void init() {
        task_.accept = true;
        task_.calls.clear();
        task_.lastEvidence = {};
        task::StatusSnapshot status = test::sampleStatus();
        status.lastError += std::string(" (password ") + kSecret + ")";  // as if an error message leaked one
        task_.setStatus(status);
        control::ControlServerOptions options;
        options.token = kToken;
        options.secrets = {kSecret, ""};
        server_ = std::make_unique<control::ControlServer>(task_, options);
        QVERIFY(server_->port() > 0);
    }

    void cleanup() { server_.reset(); }

    void statusIsTheSnapshotAsJson() {
        auto res = client().Get("/api/v1/status");
        QVERIFY(res);
        QCOMPARE(res->status, 200);
        QCOMPARE(QString::fromStdString(res->get_header_value("Content-Type")), QStringLiteral("application/json"));
        auto json = nlohmann::json::parse(res->body);
        QCOMPARE(json["syncer_binlog"].get<std::string>(), std::string("(mysql-bin.000002, 2500)"));
        QCOMPARE(json["failed_event"]["error_code"].get<int>(), 1054);
    }

    void noSecretInAnyAnswer() {
        auto c = client();
        for (const char* path : {"/api/v1/status", "/metrics"}) {
            auto res = c.Get(path);
            QVERIFY(res);
            QVERIFY2(res->body.find(kSecret) == std::string::npos, path);
        }
        auto json = nlohmann::json::parse(c.Get("/api/v1/status")->body);
        QVERIFY(json["last_error"].get<std::string>().ends_with("(password ***)"));
    }

    void metricsPassTheStrictParser() {
        auto res = client().Get("/metrics");
        QVERIFY(res);
        QCOMPARE(res->status, 200);
        QVERIFY(res->get_header_value("Content-Type").starts_with("text/plain; version=0.0.4"));
        test::PrometheusPage page = test::parsePrometheusText(res->body);
        QVERIFY2(page.error.empty(), page.error.c_str());
        QCOMPARE(page.value("syncscope_stage", {{"stage", "Error"}}), std::optional<double>(1));
        // The server saw the task in Error with a needs-the-DBA failure.
        QCOMPARE(page.value("syncscope_errors_total", {{"class", "needs_dba"}}), std::optional<double>(1));
    }

    void commandsAnswer200WhenAcceptedAnd409WithTheReasonWhenRefused_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("command");
        QTest::addRow("start") << "/api/v1/start"
                               << "start";
        QTest::addRow("pause") << "/api/v1/pause"
                               << "pause";
        QTest::addRow("resume") << "/api/v1/resume"
                                << "resume";
        QTest::addRow("stop") << "/api/v1/stop"
                              << "stop";
        QTest::addRow("skip") << "/api/v1/skip"
                              << "skip";
    }

    void commandsAnswer200WhenAcceptedAnd409WithTheReasonWhenRefused() {
        QFETCH(QString, path);
        QFETCH(QString, command);
        auto c = client();
        auto res = c.Post(path.toStdString().c_str());
        QVERIFY(res);
        QCOMPARE(res->status, 200);
        auto json = nlohmann::json::parse(res->body);
        QCOMPARE(json["accepted"].get<bool>(), true);
        QCOMPARE(json["result"].get<std::string>(), command.toStdString() + " done");
        QCOMPARE(json["stage"].get<std::string>(), std::string("Error"));

        task_.accept = false;
        res = c.Post(path.toStdString().c_str(), "{}", "application/json");
        QVERIFY(res);
        QCOMPARE(res->status, 409);
        json = nlohmann::json::parse(res->body);
        QCOMPARE(json["accepted"].get<bool>(), false);
        QCOMPARE(json["reason"].get<std::string>(), "cannot " + command.toStdString() + " while the task is Running");

        res = c.Post(path.toStdString().c_str(), R"({"now": true})", "application/json");
        QVERIFY(res);
        QCOMPARE(res->status, 400);
        QCOMPARE(task_.calls.size(), size_t{2});  // the bad body never reached the task
    }

    void resumeFromPassesTheTargetOrAnswers400() {
        auto c = client();
        auto res = c.Post("/api/v1/resume-from", R"({"binlog_name": "mysql-bin.000002", "binlog_pos": 2500})",
                          "application/json");
        QVERIFY(res);
        QCOMPARE(res->status, 200);
        QCOMPARE(task_.lastTarget.file, std::string("mysql-bin.000002"));
        QCOMPARE(task_.lastTarget.pos, uint64_t{2500});

        res = c.Post("/api/v1/resume-from", R"({"gtid": "0-1-10"})", "application/json");
        QVERIFY(res);
        QCOMPARE(res->status, 200);
        QCOMPARE(task_.lastTarget.gtid, std::string("0-1-10"));

        res = c.Post("/api/v1/resume-from", R"({"binlog_pos": 2500})", "application/json");
        QVERIFY(res);
        QCOMPARE(res->status, 400);
        QVERIFY(nlohmann::json::parse(res->body)["error"].get<std::string>().find("go together") != std::string::npos);

        task_.accept = false;
        res = c.Post("/api/v1/resume-from", R"({"gtid": "0-1-10"})", "application/json");
        QVERIFY(res);
        QCOMPARE(res->status, 409);
        QCOMPARE(task_.calls.size(), size_t{3});
    }

    void everyRequestWithoutTheTokenIsRefused401_data() {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("authorization");
        QTest::addRow("status, no header") << "GET"
                                           << "/api/v1/status"
                                           << "";
        QTest::addRow("metrics, no header") << "GET"
                                            << "/metrics"
                                            << "";
        QTest::addRow("pause, wrong token") << "POST"
                                            << "/api/v1/pause"
                                            << "Bearer wrong-token-0123456789";
        QTest::addRow("stop, token as basic") << "POST"
                                              << "/api/v1/stop" << (QStringLiteral("Basic ") + kToken);
        QTest::addRow("skip, token prefix") << "POST"
                                            << "/api/v1/skip"
                                            << "Bearer 0123456789abcdef";
        QTest::addRow("unknown path") << "GET"
                                      << "/api/v1/secrets"
                                      << "";
    }

    void everyRequestWithoutTheTokenIsRefused401() {
        QFETCH(QString, method);
        QFETCH(QString, path);
        QFETCH(QString, authorization);
        auto c = client(false);
        httplib::Headers headers;
        if (!authorization.isEmpty()) {
            headers.emplace("Authorization", authorization.toStdString());
        }
        auto res = method == "GET" ? c.Get(path.toStdString().c_str(), headers)
                                   : c.Post(path.toStdString().c_str(), headers, "", "application/json");
        QVERIFY(res);
        QCOMPARE(res->status, 401);
        QVERIFY(res->body.find("syncscope") == std::string::npos);
        QVERIFY(task_.calls.empty());
    }

    // A read-only token reads everything and commands nothing: 403 naming the control token it lacks; the
    // control token does both; none or a wrong one is 401 saying which token the request needed.
    void aReadOnlyTokenReadsAndCommandsNothing() {
        server_.reset();
        control::ControlServerOptions options;
        options.token = kToken;
        options.readToken = kReadToken;
        server_ = std::make_unique<control::ControlServer>(task_, options);
        httplib::Client reader("127.0.0.1", server_->port());
        reader.set_connection_timeout(5);
        reader.set_read_timeout(10);
        reader.set_bearer_token_auth(kReadToken);
        for (const char* path : {"/api/v1/status", "/metrics", "/api/v1/version", "/api/v1/log?tail=5"}) {
            auto res = reader.Get(path);
            QVERIFY(res);
            QVERIFY2(res->status == 200, path);
        }
        for (const char* path : {"/api/v1/pause", "/api/v1/resume", "/api/v1/stop", "/api/v1/skip"}) {
            auto res = reader.Post(path, "{}", "application/json");
            QVERIFY(res);
            QCOMPARE(res->status, 403);
            QVERIFY2(res->body.find("needs the control token") != std::string::npos, res->body.c_str());
        }
        QVERIFY(task_.calls.empty());
        auto controlled = client().Post("/api/v1/pause", "", "application/json");
        QVERIFY(controlled);
        QCOMPARE(controlled->status, 200);
        auto nobody = client(false).Get("/api/v1/status");
        QVERIFY(nobody);
        QCOMPARE(nobody->status, 401);
        QVERIFY2(nobody->body.find("read token or the control token") != std::string::npos, nobody->body.c_str());
        auto nobodyCommands = client(false).Post("/api/v1/pause", "", "application/json");
        QVERIFY(nobodyCommands);
        QCOMPARE(nobodyCommands->status, 401);
        QVERIFY2(nobodyCommands->body.find("needs the control token") != std::string::npos,
                 nobodyCommands->body.c_str());
    }

    void aReadOnlyTokenNeedsAControlTokenOfItsOwn() {
        server_.reset();
        control::ControlServerOptions options;
        options.readToken = kReadToken;
        QVERIFY_THROWS_EXCEPTION(control::ControlServerError, control::ControlServer(task_, options));
        options.token = kReadToken;
        QVERIFY_THROWS_EXCEPTION(control::ControlServerError, control::ControlServer(task_, options));
        options.token = kToken;
        options.readToken = "short";
        QVERIFY_THROWS_EXCEPTION(control::ControlServerError, control::ControlServer(task_, options));
    }

    void commandWithoutBodyOrContentLengthIsAccepted_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("command");
        QTest::addRow("pause as curl -X POST sends it") << "/api/v1/pause"
                                                        << "pause";
        QTest::addRow("resume as curl -X POST sends it") << "/api/v1/resume"
                                                         << "resume";
        QTest::addRow("skip as curl -X POST sends it") << "/api/v1/skip"
                                                       << "skip";
    }

    // No Content-Length and no Transfer-Encoding means no body (RFC 9112 6.3); the server used to wait
    // for one until its read timeout and then answer a bare 400.
    void commandWithoutBodyOrContentLengthIsAccepted() {
        QFETCH(QString, path);
        QFETCH(QString, command);
        std::string request = "POST " + path.toStdString() +
                              " HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: curl/7.88.1\r\nAccept: */*\r\n"
                              "Authorization: Bearer " +
                              kToken + "\r\n\r\n";
        test::RawHttpAnswer answer = test::rawHttpExchange(server_->port(), request);
        QVERIFY2(answer.problem.empty(), answer.problem.c_str());
        QCOMPARE(answer.status, 200);
        auto json = nlohmann::json::parse(answer.body);
        QCOMPARE(json["accepted"].get<bool>(), true);
        QCOMPARE(json["result"].get<std::string>(), command.toStdString() + " done");
        QCOMPARE(task_.calls, std::vector<std::string>{command.toStdString()});
    }

    void everyRefusalCarriesAJsonReason_data() {
        const std::string auth = std::string("Authorization: Bearer ") + kToken + "\r\n";
        const std::string host = "Host: 127.0.0.1\r\n";
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("reasonMentions");
        QTest::addRow("resume-from without a body")
            << QByteArray::fromStdString("POST /api/v1/resume-from HTTP/1.1\r\n" + host + auth + "\r\n") << 400
            << "resume-from";
        QTest::addRow("pause with arguments")
            << QByteArray::fromStdString("POST /api/v1/pause HTTP/1.1\r\n" + host + auth +
                                         "Content-Length: 15\r\n\r\n{\"force\": true}")
            << 400 << "no arguments";
        QTest::addRow("malformed request line")
            << QByteArray::fromStdString("PAUSE-NOW\r\n" + host + "\r\n") << 400 << "could not be read";
        QTest::addRow("body larger than the limit")
            << QByteArray::fromStdString("POST /api/v1/resume-from HTTP/1.1\r\n" + host + auth +
                                         "Content-Length: 100000000\r\n\r\n{}")
            << 413 << "larger than";
        QTest::addRow("wrong token") << QByteArray::fromStdString("POST /api/v1/pause HTTP/1.1\r\n" + host +
                                                                  "Authorization: Bearer not-the-token-0000\r\n\r\n")
                                     << 401 << "bearer token";
        QTest::addRow("unknown endpoint")
            << QByteArray::fromStdString("POST /api/v1/pause-all HTTP/1.1\r\n" + host + auth + "\r\n") << 404
            << "/api/v1/pause-all";
        QTest::addRow("GET of a command")
            << QByteArray::fromStdString("GET /api/v1/pause HTTP/1.1\r\n" + host + auth + "\r\n") << 404
            << "GET /api/v1/pause";
    }

    void everyRefusalCarriesAJsonReason() {
        QFETCH(QByteArray, request);
        QFETCH(int, status);
        QFETCH(QString, reasonMentions);
        test::RawHttpAnswer answer = test::rawHttpExchange(server_->port(), request.toStdString());
        QVERIFY2(answer.problem.empty(), answer.problem.c_str());
        QCOMPARE(answer.status, status);
        auto json = nlohmann::json::parse(answer.body, nullptr, false);
        QVERIFY2(json.is_object() && json["error"].is_string(), answer.body.c_str());
        QVERIFY2(json["error"].get<std::string>().find(reasonMentions.toStdString()) != std::string::npos,
                 answer.body.c_str());
        QVERIFY(task_.calls.empty());
    }

    void refusedCommandCarriesErrorBesideReason() {
        task_.accept = false;
        auto res = client().Post("/api/v1/stop");
        QVERIFY(res);
        QCOMPARE(res->status, 409);
        auto json = nlohmann::json::parse(res->body);
        QCOMPARE(json["error"].get<std::string>(), std::string("stop: cannot stop while the task is Running"));
    }

    void unknownEndpointIs404() {
        auto res = client().Get("/api/v1/nothing");
        QVERIFY(res);
        QCOMPARE(res->status, 404);
        QVERIFY(nlohmann::json::parse(res->body)["error"].get<std::string>().find("/api/v1/nothing") !=
                std::string::npos);
    }

    void nonLoopbackAddressWithoutATokenIsRefusedBeforeBinding() {
        control::ControlServerOptions options;
        options.host = "0.0.0.0";
        try {
            control::ControlServer refused(task_, options);
            QFAIL("served on 0.0.0.0 without a token");
        } catch (const control::ControlServerError& e) {
            QVERIFY2(std::string(e.what()).find("token") != std::string::npos, e.what());
        }
    }

    void stopRightAfterStartDoesNotHang() {
        // httplib ignores stop() until its serving thread has started; a server destroyed at once used to
        // leave that thread accepting and the destructor joining it forever (seen in CI).
        control::ControlServerOptions options;
        options.token = kToken;
        for (int i = 0; i < 200; ++i) {
            control::ControlServer quick(task_, options);
            QVERIFY(quick.port() > 0);
        }
    }

    void shortTokenIsRefused() {
        control::ControlServerOptions options;
        options.token = "short";
        QVERIFY_THROWS_EXCEPTION(control::ControlServerError, control::ControlServer(task_, options));
    }

    void portInUseIsAClearError() {
        control::ControlServerOptions options;
        options.port = server_->port();
        options.token = kToken;
        try {
            control::ControlServer second(task_, options);
            QFAIL("bound a port in use");
        } catch (const control::ControlServerError& e) {
            QVERIFY2(std::string(e.what()).find(std::to_string(server_->port())) != std::string::npos, e.what());
        }
    }

    void loopbackWithoutATokenNeedsNoHeader() {
        server_.reset();
        server_ = std::make_unique<control::ControlServer>(task_, control::ControlServerOptions{});
        auto res = client(false).Get("/api/v1/status");
        QVERIFY(res);
        QCOMPARE(res->status, 200);
    }
    void skipSavesTheSkippedRowsFirstAndTheTaskAuditsTheFile() {
        auto previewer = withPreviewer();
        auto res = client().Post("/api/v1/skip");
        QVERIFY(res);
        QCOMPARE(res->status, 200);
        QCOMPARE(previewer->calls, std::vector<std::string>{"save"});
        QCOMPARE(task_.lastEvidence.replaySqlFile, std::string("/var/log/syncscope/t-skipped-1.sql"));
        auto json = nlohmann::json::parse(res->body);
        QCOMPARE(json["replay_sql_file"].get<std::string>(), task_.lastEvidence.replaySqlFile);
        QCOMPARE(json["preview"]["rows_missing"].get<int>(), 1);
    }

    void skipIsRefusedUntouchedWhenTheRowsCannotBeSaved() {
        auto previewer = withPreviewer();
        previewer->failure = "cannot connect to the upstream 127.0.0.1:1";
        auto res = client().Post("/api/v1/skip");
        QVERIFY(res);
        QCOMPARE(res->status, 502);
        const std::string error = nlohmann::json::parse(res->body)["error"].get<std::string>();
        QVERIFY2(error.find("nothing changed") != std::string::npos && error.find("127.0.0.1:1") != std::string::npos &&
                     error.find("save_sql") != std::string::npos,
                 error.c_str());
        QVERIFY(task_.calls.empty());
    }

    void skipWithSaveSqlFalseSavesNothing() {
        auto previewer = withPreviewer();
        auto res = client().Post("/api/v1/skip", R"({"save_sql": false})", "application/json");
        QVERIFY(res);
        QCOMPARE(res->status, 200);
        QVERIFY(previewer->calls.empty());
        QVERIFY(task_.lastEvidence.replaySqlFile.empty());
        QCOMPARE(task_.calls, std::vector<std::string>{"skip"});
    }

    void previewsAreServedOnlyWithAPreviewer() {
        auto res = client().Get("/api/v1/preview/skip");
        QVERIFY(res);
        QCOMPARE(res->status, 404);
        QVERIFY(nlohmann::json::parse(res->body)["error"].get<std::string>().find("no previews") != std::string::npos);
        auto previewer = withPreviewer();
        res = client().Get("/api/v1/preview/resume-from?binlog_name=mysql-bin.000002&binlog_pos=120");
        QVERIFY(res);
        QCOMPARE(res->status, 200);
        QCOMPARE(nlohmann::json::parse(res->body)["preview"]["asked"].get<std::string>(),
                 std::string("resume-from mysql-bin.000002:120"));
        QVERIFY(task_.calls.empty());
    }

    void resumeFromForwardSavesTheSkippedRowsFirstAndTheTaskAuditsTheFile() {
        auto previewer = withPreviewer();
        setStage(task::Stage::Paused);
        auto res = client().Post("/api/v1/resume-from", R"({"binlog_name": "mysql-bin.000003", "binlog_pos": 900})",
                                 "application/json");
        QVERIFY(res);
        QCOMPARE(res->status, 200);
        QCOMPARE(previewer->calls, std::vector<std::string>{"save resume-from mysql-bin.000003:900"});
        QCOMPARE(task_.calls, std::vector<std::string>{"resume-from"});
        QCOMPARE(task_.lastEvidence.replaySqlFile, previewer->savedFile);
        auto json = nlohmann::json::parse(res->body);
        QCOMPARE(json["replay_sql_file"].get<std::string>(), previewer->savedFile);
        QCOMPARE(json["preview"]["rows_missing"].get<int>(), 2);
    }

    void resumeFromIsRefusedUntouchedWhenTheRowsCannotBeSaved() {
        auto previewer = withPreviewer();
        setStage(task::Stage::Stopped);
        previewer->failure = "cannot connect to the upstream 127.0.0.1:1";
        auto res = client().Post("/api/v1/resume-from", R"({"gtid": "0-1-10"})", "application/json");
        QVERIFY(res);
        QCOMPARE(res->status, 502);
        const std::string error = nlohmann::json::parse(res->body)["error"].get<std::string>();
        QVERIFY2(error.find("nothing changed") != std::string::npos && error.find("127.0.0.1:1") != std::string::npos &&
                     error.find("save_sql") != std::string::npos,
                 error.c_str());
        QVERIFY(task_.calls.empty());
    }

    void resumeFromSavesNothingWhenTheTaskWouldRefuseItOrWhenTold_data() {
        QTest::addColumn<int>("stage");
        QTest::addColumn<QString>("body");
        QTest::addColumn<int>("httpStatus");
        const QString target = QStringLiteral(R"("binlog_name": "mysql-bin.000003", "binlog_pos": 900)");
        QTest::addRow("running: the task refuses (409), the target is not even checked")
            << static_cast<int>(task::Stage::Running)
            << QStringLiteral(R"({"binlog_name": "mysql-bin.000003", "binlog_pos": 197})") << 409;
        QTest::addRow("paused, save_sql false")
            << static_cast<int>(task::Stage::Paused) << QStringLiteral(R"({%1, "save_sql": false})").arg(target) << 200;
        QTest::addRow("save_sql not a boolean")
            << static_cast<int>(task::Stage::Paused) << QStringLiteral(R"({%1, "save_sql": "no"})").arg(target) << 400;
    }

    void resumeFromSavesNothingWhenTheTaskWouldRefuseItOrWhenTold() {
        QFETCH(int, stage);
        QFETCH(QString, body);
        QFETCH(int, httpStatus);
        auto previewer = withPreviewer();
        setStage(static_cast<task::Stage>(stage));
        task_.accept = httpStatus != 409;
        auto res = client().Post("/api/v1/resume-from", body.toStdString(), "application/json");
        QVERIFY(res);
        QCOMPARE(res->status, httpStatus);
        QVERIFY(previewer->calls.empty());
        QVERIFY(task_.lastEvidence.replaySqlFile.empty());
    }

    void resumeFromInsideATransactionIsRefusedUntouched() {
        auto previewer = withPreviewer();
        setStage(task::Stage::Paused);
        auto res = client().Post("/api/v1/resume-from", R"({"binlog_name": "mysql-bin.000003", "binlog_pos": 197})",
                                 "application/json");
        QVERIFY(res);
        QCOMPARE(res->status, 400);
        const std::string error = nlohmann::json::parse(res->body)["error"].get<std::string>();
        QVERIFY2(error.find("nothing changed") != std::string::npos && error.find("middle of") != std::string::npos,
                 error.c_str());
        QVERIFY(previewer->calls.empty());
        QVERIFY(task_.calls.empty());
    }

    void resumeFromRefusedByTheTaskRemovesItsSavedFile() {
        auto previewer = withPreviewer();
        setStage(task::Stage::Paused);
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        previewer->savedFile = folder.filePath(QStringLiteral("t-skipped-2.sql")).toStdString();
        QFile saved(QString::fromStdString(previewer->savedFile));
        QVERIFY(saved.open(QIODevice::WriteOnly));
        saved.close();
        task_.accept = false;  // as when the stage changed between the status read and the command
        auto res = client().Post("/api/v1/resume-from", R"({"binlog_name": "mysql-bin.000003", "binlog_pos": 900})",
                                 "application/json");
        QVERIFY(res);
        QCOMPARE(res->status, 409);
        QCOMPARE(previewer->calls.size(), size_t{1});
        QVERIFY(!QFile::exists(QString::fromStdString(previewer->savedFile)));
        QVERIFY(!nlohmann::json::parse(res->body).contains("replay_sql_file"));
    }

private:
    void setStage(task::Stage stage) {
        task::StatusSnapshot status = *task_.status();
        status.stage = stage;
        task_.setStatus(status);
    }

    std::shared_ptr<ScriptedPreviewer> withPreviewer() {
        server_.reset();
        auto previewer = std::make_shared<ScriptedPreviewer>();
        control::ControlServerOptions options;
        options.token = kToken;
        options.previewer = previewer;
        server_ = std::make_unique<control::ControlServer>(task_, options);
        return previewer;
    }
};

QTEST_GUILESS_MAIN(ControlServerTest)
#include "test_control_server.moc"
