// A remote engine through the control API (issue 14), against a real ControlServer over a scripted task,
// no database: the status read back over HTTP and HTTPS with a token; API revision 2 (version, audit and
// log tails, a bad tail refused); commands relayed with the engine's answer; and the lost cases: a wrong
// token, a CA that did not sign the certificate, an unreachable address, an engine that goes away (shown
// as an Error with when it was last seen and "reconnecting", never its last healthy snapshot), and back.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <mutex>

#include "engine/control/control_server.h"
#include "engine/remote/remote_task.h"
#include "tests/engine/control/sample_status.h"
#include "tests/support/test_env.h"

using namespace syncscope;

namespace {

const char* const kToken = "remote-test-token-0123456789";
constexpr int kWaitMs = 20000;
constexpr int kCertsTimeoutMs = 60000;
constexpr std::chrono::milliseconds kFastPoll{50};

// Pauses when Running, refuses otherwise: enough to see a command's answer come back.
class ScriptedTask : public task::TaskControl {
public:
    ScriptedTask() { setStage(task::Stage::Running); }
    std::shared_ptr<const task::StatusSnapshot> status() const override {
        std::lock_guard lock(mutex_);
        return snapshot_;
    }
    std::vector<task::Notice> drainNotices(size_t) override { return {}; }
    task::CommandResult start() override { return {false, "start: the task is not New or Stopped"}; }
    task::CommandResult pause() override {
        if (status()->stage != task::Stage::Running) {
            return {false, "cannot pause: the task is not Running"};
        }
        setStage(task::Stage::Paused);
        return {true, "paused"};
    }
    task::CommandResult resume() override {
        setStage(task::Stage::Running);
        return {true, "resumed"};
    }
    task::CommandResult stop() override { return {true, "stopped"}; }
    task::CommandResult skipFailedEvent(const task::SkipEvidence&) override { return {false, "nothing to skip"}; }
    task::CommandResult resumeFrom(const task::ResumeTarget&) override { return {false, "not now"}; }

    void setStage(task::Stage stage) {
        task::StatusSnapshot next = test::sampleStatus();
        next.stage = stage;
        next.failedEvent.reset();
        next.lastError.clear();
        std::lock_guard lock(mutex_);
        next.sequence = ++sequence_;
        snapshot_ = std::make_shared<const task::StatusSnapshot>(std::move(next));
    }

private:
    mutable std::mutex mutex_;
    uint64_t sequence_ = 0;
    std::shared_ptr<const task::StatusSnapshot> snapshot_;
};

std::string describe(const task::StatusSnapshot& s) {
    return std::string(task::stageName(s.stage)) + " (" + s.stageReason + "): " + s.lastError;
}

}  // namespace

class RemoteTaskTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString certs_;
    ScriptedTask task_;

    std::string writeFile(const char* name, const std::string& text) {
        const std::string path = dir_.filePath(name).toStdString();
        std::ofstream(path) << text;
        return path;
    }

    std::unique_ptr<control::ControlServer> serve(bool tls, int port = 0) {
        control::ControlServerOptions options;
        options.port = port;
        options.token = kToken;
        if (tls) {
            options.tlsCertFile = (certs_ + "/server-cert.pem").toStdString();
            options.tlsKeyFile = (certs_ + "/server-key.pem").toStdString();
        }
        options.auditLogPath = dir_.filePath("audit.jsonl").toStdString();
        options.logFilePath = dir_.filePath("task.log").toStdString();
        return std::make_unique<control::ControlServer>(task_, options);
    }

    remote::RemoteEngineOptions remote(int port, bool tls, const QString& ca, const std::string& tokenFile) {
        remote::RemoteEngineOptions options;
        options.host = "127.0.0.1";
        options.port = port;
        options.tls = tls;
        options.caFile = ca.toStdString();
        options.tokenFile = tokenFile;
        options.pollInterval = kFastPoll;
        options.timeoutSeconds = 2;
        return options;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        certs_ = dir_.filePath(QStringLiteral("certs"));
        QProcess certs;
        certs.start(QStringLiteral(SYNCSCOPE_SOURCE_DIR "/scripts/make-test-certs"), {certs_});
        QVERIFY(certs.waitForFinished(kCertsTimeoutMs) && certs.exitCode() == 0);
        writeFile("token", std::string(kToken) + "\n");
        writeFile("wrong-token", "not-the-token-0000000000\n");
        writeFile("audit.jsonl", "{\"action\":\"pause\",\"n\":1}\n{\"action\":\"resume\",\"n\":2}\nnot json\n");
        writeFile("task.log", "line one\nline two\nline three\n");
    }

    void statusAndCommandsOverHttpsWithAToken() {
        task_.setStage(task::Stage::Running);
        auto server = serve(true);
        remote::RemoteTask engine(
            remote(server->port(), true, certs_ + "/ca.pem", dir_.filePath("token").toStdString()));
        QVERIFY2(test::waitFor([&] { return engine.connection().connected; }, kWaitMs),
                 engine.connection().error.c_str());
        auto status = engine.status();
        QCOMPARE(status->stage, task::Stage::Running);
        QCOMPARE(status->taskName, test::sampleStatus().taskName);
        QCOMPARE(status->tables.size(), test::sampleStatus().tables.size());

        task::CommandResult paused = engine.pause();
        QVERIFY2(paused.accepted, paused.reason.c_str());
        QCOMPARE(paused.reason, std::string("paused"));
        QVERIFY(test::waitFor([&] { return engine.status()->stage == task::Stage::Paused; }, kWaitMs));
        task::CommandResult again = engine.pause();  // the engine's refusal comes back as it is
        QVERIFY(!again.accepted);
        QVERIFY2(again.reason.find("not Running") != std::string::npos, again.reason.c_str());
        QVERIFY(engine.resume().accepted);
        QVERIFY(test::waitFor([&] { return engine.status()->stage == task::Stage::Running; }, kWaitMs));

        // The shard DDL lock's unlock and its preview go to the engine with the table name as given (a space and
        // a quote percent-encoded); this engine's refusal comes back as it is.
        for (bool preview : {true, false}) {
            task::CommandResult unlock = engine.unlockShardDdl("sm.t 'x'", preview);
            QVERIFY(!unlock.accepted);
            QVERIFY2(
                unlock.reason.find("shard DDL lock on sm.t 'x': this task merges no shard tables") != std::string::npos,
                unlock.reason.c_str());
        }
    }

    void revisionFourServesTheHistoryOverHttpsWithAToken() {
        task_.setStage(task::Stage::Running);
        auto server = serve(true);
        remote::RemoteTask engine(
            remote(server->port(), true, certs_ + "/ca.pem", dir_.filePath("token").toStdString()));
        std::vector<control::HistoryPoint> history;
        QVERIFY(test::waitFor(
            [&] {
                history = engine.history({});
                return !history.empty();
            },
            kWaitMs));
        QCOMPARE(history.front().lagSeconds, test::sampleStatus().lagSeconds);
        QCOMPARE(history.front().upstreamAxis, test::sampleStatus().upstream.axis);
        QVERIFY(engine.history(test::sampleStatus().takenAt).empty());  // taken at, not after, that time

        remote::RemoteTask wrongToken(
            remote(server->port(), true, certs_ + "/ca.pem", dir_.filePath("wrong-token").toStdString()));
        try {
            wrongToken.history({});
            QFAIL("a refused token read a history");
        } catch (const remote::RemoteEngineError& e) {
            QVERIFY2(std::string(e.what()).find("401") != std::string::npos, e.what());
        }
    }

    void revisionTwoServesVersionAuditAndLogTails() {
        auto server = serve(false);
        httplib::Client client("127.0.0.1", server->port());
        client.set_bearer_token_auth(kToken);
        auto version = client.Get("/api/v1/version");
        QVERIFY(version && version->status == 200);
        auto json = nlohmann::json::parse(version->body);
        QVERIFY(json["revision"].get<int>() >= 2);  // revision 3 added subtasks; revision 2's endpoints stay
        QVERIFY(!json["tls"].get<bool>());
        QVERIFY(json["endpoints"].dump().find("POST /api/v1/until") != std::string::npos);

        auto audit = client.Get("/api/v1/audit?tail=2");
        QVERIFY(audit && audit->status == 200);
        auto lines = nlohmann::json::parse(audit->body)["lines"];
        QCOMPARE(lines.size(), size_t(2));
        QCOMPARE(lines[0]["action"].get<std::string>(), std::string("resume"));  // a JSON line as its object
        QCOMPARE(lines[1].get<std::string>(), std::string("not json"));          // anything else as text
        auto log = client.Get("/api/v1/log?tail=1");
        QVERIFY(log && log->status == 200);
        QCOMPARE(nlohmann::json::parse(log->body)["lines"], nlohmann::json::array({"line three"}));
        for (const char* bad : {"/api/v1/log?tail=abc", "/api/v1/audit?tail=99999", "/api/v1/log?tail="}) {
            auto refused = client.Get(bad);
            QVERIFY(refused);
            QCOMPARE(refused->status, 400);
            QVERIFY2(nlohmann::json::parse(refused->body)["error"].get<std::string>().find("tail must be") !=
                         std::string::npos,
                     refused->body.c_str());
        }
    }

    void aWrongTokenOrCaIsLostWithTheReason_data() {
        QTest::addColumn<QString>("ca");
        QTest::addColumn<QString>("tokenFile");
        QTest::addColumn<QString>("expected");
        QTest::addRow("wrong token") << "ca.pem"
                                     << "wrong-token"
                                     << "refused the token (401)";
        QTest::addRow("CA that did not sign the certificate") << "other-ca.pem"
                                                              << "token"
                                                              << "not signed by the CA";
    }

    void aWrongTokenOrCaIsLostWithTheReason() {
        QFETCH(QString, ca);
        QFETCH(QString, tokenFile);
        QFETCH(QString, expected);
        auto server = serve(true);
        remote::RemoteTask engine(
            remote(server->port(), true, certs_ + "/" + ca, dir_.filePath(tokenFile).toStdString()));
        QVERIFY(test::waitFor([&] { return engine.connection().failedPolls > 0; }, kWaitMs));
        QVERIFY2(engine.connection().error.find(expected.toStdString()) != std::string::npos,
                 engine.connection().error.c_str());
        auto status = engine.status();
        QCOMPARE(status->stage, task::Stage::Error);
        QVERIFY2(status->stageReason.find("never reached") != std::string::npos, describe(*status).c_str());
        QVERIFY2(status->lastError.find(kToken) == std::string::npos, status->lastError.c_str());
        QVERIFY(!engine.pause().accepted);
        QCOMPARE(task_.status()->stage, task::Stage::Running);  // the command did nothing there
    }

    void anUnreadableTokenFileIsRefusedAtOnce() {
        try {
            remote::RemoteTask engine(remote(1, false, {}, "/nonexistent/token"));
            QFAIL("accepted a token file that does not exist");
        } catch (const remote::RemoteEngineError& e) {
            QVERIFY2(std::string(e.what()).find("/nonexistent/token") != std::string::npos, e.what());
        }
    }

    void aLostEngineShowsWhenItWasLastSeenAndComesBack() {
        task_.setStage(task::Stage::Running);
        auto server = serve(false);
        const int port = server->port();
        remote::RemoteTask engine(remote(port, false, {}, dir_.filePath("token").toStdString()));
        QVERIFY(test::waitFor([&] { return engine.connection().connected; }, kWaitMs));
        server.reset();
        QVERIFY(test::waitFor([&] { return !engine.connection().connected; }, kWaitMs));
        auto lost = engine.status();
        QCOMPARE(lost->stage, task::Stage::Error);  // never the last healthy snapshot
        QVERIFY2(lost->stageReason.find("connection lost (last seen ") == 0, describe(*lost).c_str());
        QVERIFY2(lost->lastError.find("reconnecting") != std::string::npos, describe(*lost).c_str());
        QCOMPARE(lost->recentRowsPerSecond, 0.0);
        QCOMPARE(lost->tables.size(), test::sampleStatus().tables.size());  // the last figures stay visible
        task::CommandResult refused = engine.resume();
        QVERIFY(!refused.accepted);
        QVERIFY2(refused.reason.find("not sent") != std::string::npos, refused.reason.c_str());
        auto notices = engine.drainNotices(10);
        QVERIFY(!notices.empty());
        QVERIFY2(notices.back().isError && notices.back().message.find("connection lost") == 0,
                 notices.back().message.c_str());

        server = serve(false, port);
        QVERIFY(test::waitFor([&] { return engine.connection().connected; }, kWaitMs));
        QCOMPARE(engine.status()->stage, task::Stage::Running);
        notices = engine.drainNotices(10);
        QVERIFY(!notices.empty());
        QVERIFY2(notices.front().message.find("restored") != std::string::npos, notices.front().message.c_str());
    }

    void anUnreachableAddressIsNeverReached() {
        remote::RemoteTask engine(remote(test::freeLoopbackPort(), false, {}, {}));
        QVERIFY(test::waitFor([&] { return engine.connection().failedPolls > 0; }, kWaitMs));
        QVERIFY(!engine.connection().lastSeen);
        QVERIFY2(engine.status()->stageReason.find("never reached") != std::string::npos,
                 engine.status()->stageReason.c_str());
    }
};

QTEST_GUILESS_MAIN(RemoteTaskTest)
#include "test_remote_task.moc"
