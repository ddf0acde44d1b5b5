// A DM cluster through its OpenAPI, against stand-in dm-masters that answer from scenario files and check
// every request and answer against DM's published OpenAPI document (tests/support/dm_scenario_server.py):
// three tasks over two sources, a paused subtask, an error with a blocking DDL, a leader change, an
// unreachable master (lost, last seen), an invalid answer (refused with the field named), start and stop
// (the requests DM documents, audited, refused in the wrong state), TLS, and options that cannot work.
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <httplib.h>

#include <memory>

#include "engine/common/local_time.h"
#include "engine/dmcluster/dm_cluster.h"
#include "engine/dmcluster/dm_task_channel.h"
#include "engine/dmcluster/openapi_reader.h"
#include "tests/support/dm_scenario_server.h"
#include "tests/support/test_env.h"

using namespace syncscope;
using namespace syncscope::dmcluster;

namespace {

constexpr int kWaitMs = 20000;
constexpr int kCertsTimeoutMs = 60000;
constexpr std::chrono::milliseconds kFastPoll{100};
// The scenarios' passwords (target_config and sources): they must appear nowhere SyncScope shows or stores.
const char* const kSecrets[] = {"dm-target-secret-7f3a", "dm-source-secret-91c2"};

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::string snapshotText(const task::StatusSnapshot& s) {
    return s.taskName + "|" + s.sourceId + "|" + s.stageReason + "|" + s.lastError + "|" + s.upstream.text() + "|" +
           s.read.text();
}

}  // namespace

class DmClusterTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString certs_;
    int logs_ = 0;
    int checkedRequests_ = 0;
    int checkedAnswers_ = 0;
    std::vector<std::unique_ptr<test::DmScenarioServer>> servers_;
    QStringList expectedViolations_;  // a violation this test serves on purpose (the invalid answer)

    test::DmScenarioServer& serve(const QString& scenario, int port = 0, bool tls = false, bool clientCert = false) {
        auto server = std::make_unique<test::DmScenarioServer>(
            test::dmScenario(scenario), dir_.filePath(QStringLiteral("exchanges-%1.jsonl").arg(++logs_)), port);
        if (tls) {
            server->serveTls(certs_ + "/server-cert.pem", certs_ + "/server-key.pem",
                             clientCert ? certs_ + "/ca.pem" : QString());
        }
        QString error;
        if (!server->start(&error)) {
            qFatal("%s", qPrintable(error));
        }
        qInfo("%s", qPrintable(server->announcement()));
        servers_.push_back(std::move(server));
        return *servers_.back();
    }

    DmClusterOptions options(const QStringList& urls) {
        DmClusterOptions options;
        for (const auto& url : urls) {
            options.masterUrls.push_back(url.toStdString());
        }
        options.pollInterval = kFastPoll;
        options.timeoutSeconds = 2;
        options.connectTimeoutSeconds = 2;
        options.auditLogPath = dir_.filePath(QStringLiteral("audit.jsonl")).toStdString();
        return options;
    }

    static bool seen(const DmCluster& cluster) {
        ClusterState state = cluster.latest();
        return state.lastSeen && state.error.empty();
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        certs_ = dir_.filePath(QStringLiteral("certs"));
        QProcess certs;
        certs.start(QStringLiteral(SYNCSCOPE_SOURCE_DIR "/scripts/make-test-certs"), {certs_});
        QVERIFY(certs.waitForFinished(kCertsTimeoutMs) && certs.exitCode() == 0);
    }

    // Every exchange of the test's servers was checked against DM's document and broke none of it (but
    // what the test served wrong on purpose); where the document is not here, the reason was printed.
    void cleanup() {
        for (const auto& server : servers_) {
            server->stop();
            if (!server->validating()) {
                qWarning("NOT CHECKED AGAINST DM'S OPENAPI DOCUMENT: %s", qPrintable(server->announcement()));
                QVERIFY2(qEnvironmentVariableIsEmpty("SYNCSCOPE_REQUIRE_DM_OPENAPI"),
                         "SYNCSCOPE_REQUIRE_DM_OPENAPI is set and the document could not be used");
            }
            for (const auto& exchange : server->exchanges()) {
                QVERIFY2(exchange.checked == server->validating(), qPrintable(exchange.request));
                checkedRequests_ += exchange.checked ? 1 : 0;
                checkedAnswers_ += exchange.checked && exchange.outsideDocument.isEmpty() ? 1 : 0;
                for (const auto& violation : exchange.violations) {
                    bool expected = false;
                    for (const auto& part : expectedViolations_) {
                        expected = expected || violation.contains(part);
                    }
                    QVERIFY2(expected, qPrintable(violation));
                }
            }
        }
        servers_.clear();
        expectedViolations_.clear();
    }

    void cleanupTestCase() {
        qInfo("checked against DM's OpenAPI document: %d requests, %d answers", checkedRequests_, checkedAnswers_);
    }

    void aClusterWithThreeTasksOverTwoSourcesIsShownTaskBySubtask() {
        auto& server = serve(QStringLiteral("three_tasks.json"));
        auto cluster = std::make_shared<DmCluster>(options({server.url()}));
        QVERIFY2(test::waitFor([&] { return seen(*cluster); }, kWaitMs), cluster->latest().error.c_str());
        ClusterState state = cluster->latest();
        QCOMPARE(state.tasks.size(), size_t(3));
        QCOMPARE(state.answeringMaster, server.url().toStdString());
        const DmTask* shop = state.task("shop");
        QVERIFY(shop);
        QCOMPARE(shop->subtasks.size(), size_t(2));
        QCOMPARE(shop->sources, (std::vector<std::string>{"mysql-01", "mysql-02"}));
        QCOMPARE(shop->targetUser, std::string("dm_target"));
        QCOMPARE(state.sources.size(), size_t(2));
        QVERIFY(state.sources[1].gtid && state.sources[1].enabled);
        QCOMPARE(state.masters.size(), size_t(3));
        QVERIFY(state.masters[0].leader && !state.masters[1].leader);
        QCOMPARE(state.workers[2].boundStage, std::string("free"));

        DmTaskChannel billing(cluster, "billing", "mysql-01");
        auto subtask = billing.status();
        QCOMPARE(subtask->stage, task::Stage::Running);
        QCOMPARE(subtask->upstream.text(), std::string("mysql-bin.000012:48213"));
        QCOMPARE(subtask->read.text(), std::string("mysql-bin.000012:40002"));
        QCOMPARE(subtask->lagSeconds, 4.0);
        QVERIFY2(contains(subtask->stageReason, "unit sync on worker-1"), subtask->stageReason.c_str());
        QVERIFY(subtask->lastError.empty());

        DmTaskChannel wholeShop(cluster, "shop", "");
        auto whole = wholeShop.status();
        QCOMPARE(whole->stage, task::Stage::Running);
        QCOMPARE(whole->lagSeconds, 1.0);  // the worse of its subtasks'
        QVERIFY2(contains(whole->stageReason, "mysql-01: DM Running") &&
                     contains(whole->stageReason, "mysql-02: DM Running"),
                 whole->stageReason.c_str());
        for (const char* secret : kSecrets) {
            QVERIFY(!contains(snapshotText(*subtask) + snapshotText(*whole), secret));
        }
        // The calls of a poll, each checked against the document by the server.
        QStringList requests;
        for (const auto& exchange : server.exchanges()) {
            requests << exchange.request;
        }
        for (const char* call : {"GET /api/v1/tasks?with_status=true", "GET /api/v1/sources?with_status=true",
                                 "GET /api/v1/cluster/masters", "GET /api/v1/cluster/workers"}) {
            QVERIFY2(requests.contains(QString::fromLatin1(call)), call);
        }
    }

    void aPausedSubtaskIsPausedAndItsTaskRunsOn() {
        auto& server = serve(QStringLiteral("paused_subtask.json"));
        auto cluster = std::make_shared<DmCluster>(options({server.url()}));
        QVERIFY2(test::waitFor([&] { return seen(*cluster); }, kWaitMs), cluster->latest().error.c_str());
        auto paused = DmTaskChannel(cluster, "shop", "mysql-02").status();
        QCOMPARE(paused->stage, task::Stage::Paused);
        QCOMPARE(paused->lagSeconds, 30.0);
        QVERIFY(paused->lastError.empty());
        auto whole = DmTaskChannel(cluster, "shop", "").status();
        QCOMPARE(whole->stage, task::Stage::Running);
        QVERIFY2(contains(whole->stageReason, "mysql-02: DM Paused"), whole->stageReason.c_str());
        QCOMPARE(DmTaskChannel(cluster, "shop", "mysql-01").status()->stage, task::Stage::Running);
    }

    void aTaskWithAnErrorAndABlockingDdlShowsBoth() {
        auto& server = serve(QStringLiteral("error_and_ddl.json"));
        auto cluster = std::make_shared<DmCluster>(options({server.url()}));
        QVERIFY2(test::waitFor([&] { return seen(*cluster); }, kWaitMs), cluster->latest().error.c_str());
        auto failed = DmTaskChannel(cluster, "billing", "mysql-01").status();
        QCOMPARE(failed->stage, task::Stage::Error);  // Paused with an error
        QVERIFY2(contains(failed->lastError, "Error 1054: Unknown column 'vat'"), failed->lastError.c_str());
        QVERIFY2(contains(failed->lastError, "blocking DDL: ALTER TABLE `billing`.`invoices` ADD COLUMN `vat`"),
                 failed->lastError.c_str());
        QVERIFY2(contains(failed->lastError, "unresolved DDL lock billing-`billing`.`invoices`"),
                 failed->lastError.c_str());
        QVERIFY2(contains(failed->lastError, "unresolved sharding group `billing`.`invoices`"),
                 failed->lastError.c_str());
        QCOMPARE(DmTaskChannel(cluster, "billing", "").status()->stage, task::Stage::Error);
        QCOMPARE(DmTaskChannel(cluster, "audit", "").status()->stage, task::Stage::Running);
    }

    void aLeaderChangeMovesToTheMasterThatAnswers() {
        auto& notLeader = serve(QStringLiteral("not_leader.json"));
        auto& leader = serve(QStringLiteral("three_tasks.json"));
        const int firstPort = notLeader.port();
        auto cluster = std::make_shared<DmCluster>(options({notLeader.url(), leader.url()}));
        QVERIFY2(test::waitFor([&] { return seen(*cluster); }, kWaitMs), cluster->latest().error.c_str());
        QCOMPARE(cluster->latest().answeringMaster, leader.url().toStdString());
        QVERIFY(test::waitFor([&] { return cluster->latest().polls >= 3; }, kWaitMs));
        // Remembered: after the first request, the master that answered is asked first.
        QCOMPARE(notLeader.exchanges().size(), 1);
        QVERIFY(!notLeader.exchanges().front().outsideDocument.isEmpty());

        // The leader goes away and the first master becomes the leader.
        leader.stop();
        notLeader.stop();
        auto& newLeader = serve(QStringLiteral("three_tasks.json"), firstPort);
        QVERIFY2(test::waitFor(
                     [&] {
                         ClusterState state = cluster->latest();
                         return state.error.empty() && state.answeringMaster == newLeader.url().toStdString();
                     },
                     kWaitMs),
                 cluster->latest().error.c_str());
        QCOMPARE(DmTaskChannel(cluster, "audit", "mysql-02").status()->stage, task::Stage::Running);
    }

    void anUnreachableMasterIsLostWithWhenItWasLastSeen() {
        auto& server = serve(QStringLiteral("three_tasks.json"));
        const std::string url = server.url().toStdString();
        auto cluster = std::make_shared<DmCluster>(options({server.url()}));
        DmTaskChannel shop(cluster, "shop", "mysql-01");
        QVERIFY2(test::waitFor([&] { return seen(*cluster); }, kWaitMs), cluster->latest().error.c_str());
        QCOMPARE(shop.status()->stage, task::Stage::Running);
        server.stop();
        QVERIFY(test::waitFor([&] { return !cluster->latest().error.empty(); }, kWaitMs));
        ClusterState state = cluster->latest();
        QVERIFY(state.lastSeen);
        auto lost = shop.status();
        QCOMPARE(lost->stage, task::Stage::Error);  // never the last healthy figures
        const std::string seenAt = "lost (last seen " + clockText(*state.lastSeen) + ")";
        QVERIFY2(contains(lost->stageReason, seenAt), lost->stageReason.c_str());
        QVERIFY2(contains(lost->lastError, url) && contains(lost->lastError, "no dm-master answers there"),
                 lost->lastError.c_str());
        QCOMPARE(lost->lagSeconds, 0.0);
        QCOMPARE(state.tasks.size(), size_t(3));  // what was last seen is kept, marked lost
        task::CommandResult refused = shop.stop();
        QVERIFY(!refused.accepted);
        QVERIFY2(contains(refused.reason, "not sent") && contains(refused.reason, "does not answer"),
                 refused.reason.c_str());

        // Never reached at all.
        auto nowhere =
            std::make_shared<DmCluster>(options({QStringLiteral("127.0.0.1:%1").arg(test::freeLoopbackPort())}));
        QVERIFY(test::waitFor([&] { return !nowhere->latest().error.empty(); }, kWaitMs));
        auto never = DmTaskChannel(nowhere, "shop", "").status();
        QCOMPARE(never->stage, task::Stage::Error);
        QVERIFY2(contains(never->stageReason, "never reached"), never->stageReason.c_str());
    }

    void anInvalidAnswerIsRefusedWithTheFieldNamed() {
        auto& server = serve(QStringLiteral("invalid_stage.json"));
        expectedViolations_ << QStringLiteral("data[1].status_list[0].stage");  // served wrong on purpose
        auto cluster = std::make_shared<DmCluster>(options({server.url()}));
        QVERIFY(test::waitFor([&] { return !cluster->latest().error.empty(); }, kWaitMs));
        ClusterState state = cluster->latest();
        QVERIFY(!state.lastSeen);  // nothing of it was taken
        QVERIFY(state.tasks.empty());
        QVERIFY2(contains(state.error, "GET " + server.url().toStdString() + "/api/v1/tasks?with_status=true"),
                 state.error.c_str());
        QVERIFY2(contains(state.error, "data[1].status_list[0].stage: expected string, got integer"),
                 state.error.c_str());
        auto shown = DmTaskChannel(cluster, "billing", "").status();
        QCOMPARE(shown->stage, task::Stage::Error);
        QVERIFY2(contains(shown->lastError, "data[1].status_list[0].stage"), shown->lastError.c_str());
        // The document's check names the same field.
        bool named = false;
        for (const auto& exchange : server.exchanges()) {
            for (const auto& violation : exchange.violations) {
                named = named || violation.contains(QStringLiteral("data[1].status_list[0].stage"));
            }
        }
        QVERIFY(named || !server.validating());
    }

    void theReaderRefusesWhatDmsDocumentDoesNotAllow_data() {
        QTest::addColumn<QString>("answer");
        QTest::addColumn<QString>("named");
        QTest::addRow("no total") << R"({"data": []})"
                                  << "total: missing";
        QTest::addRow("data not an array") << R"({"total": 0, "data": {}})"
                                           << "data: expected array, got object";
        QTest::addRow("stage outside the enumeration")
            << R"({"total": 1, "data": [{"name": "t", "source_name": "s", "worker_name": "w", "stage": "Dancing",
                  "unit": "sync"}]})"
            << "data[0].stage: 'Dancing' is not one of Stopped, Running, Finished, Paused";
        QTest::addRow("a location DM does not write")
            << R"({"total": 1, "data": [{"name": "t", "source_name": "s", "worker_name": "w", "stage": "Running",
                  "unit": "sync", "sync_status": {"total_events": 1, "total_tps": 1, "recent_tps": 1,
                  "master_binlog": "mysql-bin.000001:4", "master_binlog_gtid": "", "syncer_binlog": "",
                  "syncer_binlog_gtid": "", "blocking_ddls": [], "unresolved_groups": [], "synced": true,
                  "binlog_type": "remote", "seconds_behind_master": 0, "io_total_bytes": 0,
                  "dump_io_total_bytes": 0}}]})"
            << "data[0].sync_status.master_binlog: 'mysql-bin.000001:4' is not a location";
        QTest::addRow("a blocking DDL that is not text")
            << R"({"total": 1, "data": [{"name": "t", "source_name": "s", "worker_name": "w", "stage": "Running",
                  "unit": "sync", "sync_status": {"total_events": 1, "total_tps": 1, "recent_tps": 1,
                  "master_binlog": "", "master_binlog_gtid": "", "syncer_binlog": "",
                  "syncer_binlog_gtid": "", "blocking_ddls": [3], "unresolved_groups": [], "synced": true,
                  "binlog_type": "remote", "seconds_behind_master": 0, "io_total_bytes": 0,
                  "dump_io_total_bytes": 0}}]})"
            << "data[0].sync_status.blocking_ddls[0]: expected string, got integer";
    }

    void theReaderRefusesWhatDmsDocumentDoesNotAllow() {
        QFETCH(QString, answer);
        QFETCH(QString, named);
        try {
            readTaskStatus(nlohmann::json::parse(answer.toStdString()));
            QFAIL("accepted");
        } catch (const DmResponseError& e) {
            QVERIFY2(contains(e.what(), named.toStdString()), e.what());
        }
        const DmLocation location = parseLocation("(mysql-bin.000001, 1979)", "g", "f");
        QCOMPARE(location.file, std::string("mysql-bin.000001"));
        QCOMPARE(location.pos, uint64_t(1979));
    }

    // The check itself: a request DM's document does not allow is named, field by field, so a stand-in that
    // passed everything could not go unnoticed.
    void theStandInNamesWhatDmsDocumentDoesNotAllow() {
        auto& server = serve(QStringLiteral("three_tasks.json"));
        if (!server.validating()) {
            QSKIP("DM's OpenAPI document is not at hand here (see the line above)");
        }
        expectedViolations_ << QStringLiteral("source_name_list[0]") << QStringLiteral("query parameter verbose")
                            << QStringLiteral("no path /api/v1/nothing") << QStringLiteral("no POST")
                            << QStringLiteral("does not answer");
        httplib::Client client("127.0.0.1", server.port());
        client.Post("/api/v1/tasks/shop/stop", R"({"source_name_list": [1]})", "application/json");
        client.Get("/api/v1/tasks?verbose=true");
        client.Get("/api/v1/nothing");
        client.Post("/api/v1/cluster/masters", "{}", "application/json");
        QStringList violations;
        for (const auto& exchange : server.exchanges()) {
            violations << exchange.violations;
        }
        const QString all = violations.join(QLatin1Char('\n'));
        for (const char* named : {"POST /api/v1/tasks/{task-name}/stop request body: source_name_list[0]",
                                  "query parameter verbose is not in the document", "no path /api/v1/nothing",
                                  "the document has no POST for /api/v1/cluster/masters"}) {
            QVERIFY2(all.contains(QLatin1String(named)), qPrintable(all));
        }
    }

    void startAndStopSendTheRequestsDmDocumentsAndAreAudited() {
        auto& server = serve(QStringLiteral("three_tasks.json"));
        QFile::remove(dir_.filePath(QStringLiteral("audit.jsonl")));
        auto cluster = std::make_shared<DmCluster>(options({server.url()}));
        QVERIFY2(test::waitFor([&] { return seen(*cluster); }, kWaitMs), cluster->latest().error.c_str());
        DmTaskChannel subtask(cluster, "shop", "mysql-01");
        QVERIFY(!subtask.start().accepted);  // Running already: nothing sent

        task::CommandResult stopped = subtask.pause();
        QVERIFY2(stopped.accepted, stopped.reason.c_str());
        QVERIFY2(test::waitFor([&] { return subtask.status()->stage == task::Stage::Stopped; }, kWaitMs),
                 subtask.status()->stageReason.c_str());
        task::CommandResult again = subtask.stop();
        QVERIFY(!again.accepted);
        QVERIFY2(contains(again.reason, "Stopped already"), again.reason.c_str());
        task::CommandResult started = subtask.resume();
        QVERIFY2(started.accepted, started.reason.c_str());
        QVERIFY(test::waitFor([&] { return subtask.status()->stage == task::Stage::Running; }, kWaitMs));

        task::CommandResult disabled = cluster->disableSource("mysql-02");
        QVERIFY2(disabled.accepted, disabled.reason.c_str());
        task::CommandResult enabled = cluster->enableSource("mysql-01");
        QVERIFY(!enabled.accepted);
        QVERIFY2(contains(enabled.reason, "enabled already"), enabled.reason.c_str());
        QVERIFY(!cluster->startTask("no-such-task", "").accepted);
        QVERIFY(!DmTaskChannel(cluster, "shop", "").skipFailedEvent().accepted);

        QStringList posts;
        for (const auto& exchange : server.exchanges()) {
            if (exchange.request.startsWith(QStringLiteral("POST"))) {
                posts << exchange.request + " " + exchange.body;
            }
        }
        QCOMPARE(posts, (QStringList{R"(POST /api/v1/tasks/shop/stop {"source_name_list":["mysql-01"]})",
                                     R"(POST /api/v1/tasks/shop/start {"source_name_list":["mysql-01"]})",
                                     "POST /api/v1/sources/mysql-02/disable "}));
        bool statusAsked = false;
        for (const auto& exchange : server.exchanges()) {
            statusAsked = statusAsked || exchange.request == QStringLiteral("GET /api/v1/tasks/shop/status");
        }
        QVERIFY(statusAsked);  // the command's effect read at once

        QFile audit(dir_.filePath(QStringLiteral("audit.jsonl")));
        QVERIFY(audit.open(QIODevice::ReadOnly));
        const QString lines = QString::fromUtf8(audit.readAll());
        QCOMPARE(lines.count(QLatin1Char('\n')), 3);
        QVERIFY2(lines.contains(QStringLiteral("\"action\":\"dm stop\"")) &&
                     lines.contains(QStringLiteral("mysql-01 mysql-bin.000012:47990")),
                 qPrintable(lines));
        for (const char* secret : kSecrets) {
            QVERIFY(!lines.contains(QLatin1String(secret)));
        }
    }

    void tlsWithTheCaAndAClientCertificate() {
        auto& server = serve(QStringLiteral("three_tasks.json"), 0, true, true);
        DmClusterOptions good = options({server.url()});
        good.caFile = (certs_ + "/ca.pem").toStdString();
        good.certFile = (certs_ + "/client-cert.pem").toStdString();
        good.keyFile = (certs_ + "/client-key.pem").toStdString();
        auto cluster = std::make_shared<DmCluster>(good);
        QVERIFY2(test::waitFor([&] { return seen(*cluster); }, kWaitMs), cluster->latest().error.c_str());

        DmClusterOptions wrongCa = good;
        wrongCa.caFile = (certs_ + "/other-ca.pem").toStdString();
        DmCluster refused(wrongCa);
        QVERIFY(test::waitFor([&] { return !refused.latest().error.empty(); }, kWaitMs));
        QVERIFY2(contains(refused.latest().error, "not signed by the CA " + wrongCa.caFile),
                 refused.latest().error.c_str());

        auto& plain = serve(QStringLiteral("three_tasks.json"));
        DmClusterOptions httpsToPlain = options({QStringLiteral("https://127.0.0.1:%1").arg(plain.port())});
        httpsToPlain.caFile = good.caFile;
        DmCluster handshake(httpsToPlain);
        QVERIFY(test::waitFor([&] { return !handshake.latest().error.empty(); }, kWaitMs));
        QVERIFY2(contains(handshake.latest().error, "no TLS handshake"), handshake.latest().error.c_str());
    }

    void optionsThatCannotWorkAreRefusedNamingWhat_data() {
        QTest::addColumn<QStringList>("urls");
        QTest::addColumn<QString>("ca");
        QTest::addColumn<QString>("cert");
        QTest::addColumn<QString>("named");
        QTest::addRow("no master") << QStringList{} << ""
                                   << ""
                                   << "at least one dm-master";
        QTest::addRow("no port") << QStringList{"http://10.0.0.1"} << ""
                                 << ""
                                 << "'http://10.0.0.1'";
        QTest::addRow("a path") << QStringList{"10.0.0.1:8261/api"} << ""
                                << ""
                                << "without a path";
        QTest::addRow("credentials") << QStringList{"http://u:p@10.0.0.1:8261"} << ""
                                     << ""
                                     << "credentials in the address";
        QTest::addRow("a port that is none") << QStringList{"10.0.0.1:99999"} << ""
                                             << ""
                                             << "'99999' is not a port";
        QTest::addRow("a CA that is not there") << QStringList{"10.0.0.1:8261"} << "/nonexistent/ca.pem"
                                                << ""
                                                << "CA file '/nonexistent/ca.pem'";
        QTest::addRow("a certificate without its key") << QStringList{"10.0.0.1:8261"} << ""
                                                       << "cert"
                                                       << "needs its key";
    }

    void optionsThatCannotWorkAreRefusedNamingWhat() {
        QFETCH(QStringList, urls);
        QFETCH(QString, ca);
        QFETCH(QString, cert);
        QFETCH(QString, named);
        DmClusterOptions bad = options(urls);
        bad.caFile = ca.toStdString();
        if (!cert.isEmpty()) {
            bad.certFile = (certs_ + "/client-cert.pem").toStdString();
        }
        try {
            DmCluster cluster(bad);
            QFAIL("accepted");
        } catch (const DmClusterError& e) {
            QVERIFY2(contains(e.what(), named.toStdString()), e.what());
            QVERIFY(!contains(e.what(), ":p@"));
        }
    }
};

QTEST_GUILESS_MAIN(DmClusterTest)
#include "test_dm_cluster.moc"
