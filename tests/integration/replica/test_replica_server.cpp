// engine/replica against a real native MariaDB replica of the test pair's upstream: its channel is read
// from SHOW ALL SLAVES STATUS with the master's position on the same ruler; when its SQL thread fails on
// a row (the row was deleted on the replica, then updated upstream: error 1032), the failing event is
// decoded from the upstream's binlog by our decoder (table, operation, row images); the skip, stop/start
// and CHANGE MASTER commands work and each is audited before it runs; and bad input (an unreachable
// replica, a wrong password, a user without the privilege) gives a clear message.
#include <QtTest>

#include <QTemporaryDir>

#include <fstream>
#include <nlohmann/json.hpp>

#include "engine/replica/replica_channel.h"
#include "engine/replica/replica_server.h"
#include "engine/source/upstream_connection.h"
#include "tests/support/native_replica.h"
#include "tests/support/test_env.h"

using namespace syncscope;
using source::UpstreamConnection;
using test::waitFor;

namespace {

constexpr int kWaitMs = 60000;
constexpr std::chrono::milliseconds kFastPoll{100};

std::string describe(const task::StatusSnapshot& s) {
    return std::string("stage ") + task::stageName(s.stage) + " (" + s.stageReason + "), read " + s.read.text() +
           ", applied " + s.applied.text() + ", upstream " + s.upstream.text() + ", error: " + s.lastError;
}

std::vector<nlohmann::json> auditLines(const std::string& path) {
    std::vector<nlohmann::json> lines;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        lines.push_back(nlohmann::json::parse(line, nullptr, false));
    }
    return lines;
}

}  // namespace

class ReplicaServerTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> replica_;
    QTemporaryDir dir_;

    replica::ReplicaServerOptions options(const test::ServerSettings& replica) {
        replica::ReplicaServerOptions options;
        options.replica = test::engineSettings(replica);
        options.masterCredentials = test::engineSettings(test::upstreamRoot());
        options.auditLogPath = dir_.filePath("replica-audit.jsonl").toStdString();
        options.pollInterval = kFastPoll;
        return options;
    }

    std::string onReplica(const std::string& sql) {
        try {
            return replica_->queryValue(sql).value_or("NULL");
        } catch (const std::exception& e) {
            return std::string("ERROR: ") + e.what();
        }
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QString output;
        QVERIFY2(test::startReplicaAtUpstreamEnd(&output), qPrintable(output));
        up_ = std::make_unique<UpstreamConnection>(test::engineSettings(test::upstreamRoot()));
        replica_ = std::make_unique<UpstreamConnection>(test::engineSettings(test::replicaRoot()));
        up_->execute("DROP DATABASE IF EXISTS replfail");
        up_->execute("CREATE DATABASE replfail");
        up_->execute("CREATE TABLE replfail.t (id INT PRIMARY KEY, v VARCHAR(20))");
        up_->execute("INSERT INTO replfail.t VALUES (1, 'one'), (2, 'two'), (3, 'three')");
        QVERIFY2(waitFor([&] { return onReplica("SELECT COUNT(*) FROM replfail.t") == "3"; }, kWaitMs),
                 onReplica("SELECT COUNT(*) FROM replfail.t").c_str());
    }

    void cleanupTestCase() {
        replica_.reset();
        QString output;
        QVERIFY2(test::runDbpair(QStringLiteral("stop-replica"), &output), qPrintable(output));
    }

    void channelIsReadWithTheMastersPositionOnOneRuler() {
        auto server = std::make_shared<replica::ReplicaServer>(options(test::replicaRoot()));
        replica::ReplicaChannel channel(server, "");
        QVERIFY2(waitFor(
                     [&] {
                         auto s = channel.status();
                         return s->stage == task::Stage::Running && s->upstream.axis && s->applied.axis &&
                                s->applied.pos == s->upstream.pos;
                     },
                     kWaitMs),
                 describe(*channel.status()).c_str());
        auto s = channel.status();
        QCOMPARE(s->sourceId, "127.0.0.1:" + std::to_string(test::upstreamRoot().port));
        QCOMPARE(s->read.file, s->upstream.file);
        QVERIFY(!s->upstreamFiles.empty());
        QVERIFY(s->lastError.empty());
    }

    void failedRowIsDecodedFromTheMastersBinlogAndSkippedWithAnAuditLine() {
        auto server = std::make_shared<replica::ReplicaServer>(options(test::replicaRoot()));
        replica::ReplicaChannel channel(server, "");
        // The replica loses row 2 behind replication's back; the upstream then updates it.
        replica_->execute("SET SESSION sql_log_bin = 0");
        replica_->execute("DELETE FROM replfail.t WHERE id = 2");
        up_->execute("UPDATE replfail.t SET v = 'changed' WHERE id = 2");
        up_->execute("INSERT INTO replfail.t VALUES (4, 'four')");
        QVERIFY2(waitFor([&] { return channel.status()->failedEvent.has_value(); }, kWaitMs),
                 describe(*channel.status()).c_str());
        auto s = channel.status();
        QCOMPARE(s->stage, task::Stage::Error);
        const task::FailedEvent& failed = *s->failedEvent;
        QCOMPARE(failed.errorCode, 1032);
        QVERIFY2(failed.hint.find("could not be read") == std::string::npos, failed.hint.c_str());
        QCOMPARE(failed.schema, std::string("replfail"));
        QCOMPARE(failed.table, std::string("t"));
        QCOMPARE(failed.operation, std::string("update"));
        QCOMPARE(failed.columns, (std::vector<std::string>{"id", "v"}));
        QCOMPARE(failed.before.size(), size_t(1));
        QCOMPARE(failed.before.front().values.at(1), std::optional<std::string>("two"));
        QCOMPARE(failed.after.front().values.at(1), std::optional<std::string>("changed"));

        // Skip is refused while nothing failed on another channel name, and done here.
        QVERIFY(!server->skipFailedEvent("no-such-channel").accepted);
        task::CommandResult skipped = channel.skipFailedEvent();
        QVERIFY2(skipped.accepted, skipped.reason.c_str());
        QVERIFY2(waitFor([&] { return onReplica("SELECT COUNT(*) FROM replfail.t WHERE id = 4") == "1"; }, kWaitMs),
                 describe(*channel.status()).c_str());
        QVERIFY(waitFor([&] { return channel.status()->stage == task::Stage::Running; }, kWaitMs));
        auto audit = auditLines(dir_.filePath("replica-audit.jsonl").toStdString());
        QVERIFY(!audit.empty());
        const nlohmann::json& line = audit.back();
        QCOMPARE(line.value("action", std::string()), std::string("replica-skip"));
        QCOMPARE(line["details"]["event"]["table"].get<std::string>(), std::string("t"));
        QCOMPARE(line["details"]["event"]["before"][0][1].get<std::string>(), std::string("two"));
        QVERIFY2(line.value("position_before", std::string()).find("mariadb-bin.") == 0, line.dump().c_str());

        // Nothing to skip now: refused with the reason, nothing audited.
        const size_t audited = auditLines(dir_.filePath("replica-audit.jsonl").toStdString()).size();
        task::CommandResult again = channel.skipFailedEvent();
        QVERIFY(!again.accepted);
        QVERIFY2(again.reason.find("nothing to skip") != std::string::npos, again.reason.c_str());
        QCOMPARE(auditLines(dir_.filePath("replica-audit.jsonl").toStdString()).size(), audited);
    }

    void stopStartAndChangeMasterAreAudited() {
        auto server = std::make_shared<replica::ReplicaServer>(options(test::replicaRoot()));
        replica::ReplicaChannel channel(server, "");
        QVERIFY(waitFor([&] { return channel.status()->stage == task::Stage::Running; }, kWaitMs));
        QVERIFY(channel.pause().accepted);
        QVERIFY2(waitFor([&] { return channel.status()->stage == task::Stage::Stopped; }, kWaitMs),
                 describe(*channel.status()).c_str());
        up_->execute("INSERT INTO replfail.t VALUES (5, 'five')");
        QVERIFY(channel.resume().accepted);
        QVERIFY(waitFor([&] { return onReplica("SELECT COUNT(*) FROM replfail.t WHERE id = 5") == "1"; }, kWaitMs));

        // CHANGE MASTER to the upstream's current position: what was written meanwhile is not replayed.
        auto master = up_->query("SHOW MASTER STATUS");
        task::ResumeTarget target{*master.front()[0], std::stoull(*master.front()[1]), {}};
        QVERIFY(!channel.resumeFrom({"not a file", 4, {}}).accepted);
        task::CommandResult changed = channel.resumeFrom(target);
        QVERIFY2(changed.accepted, changed.reason.c_str());
        QVERIFY2(waitFor(
                     [&] {
                         auto s = channel.status();
                         return s->stage == task::Stage::Running && s->applied.pos == target.pos;
                     },
                     kWaitMs),
                 describe(*channel.status()).c_str());
        std::vector<std::string> actions;
        for (const auto& line : auditLines(dir_.filePath("replica-audit.jsonl").toStdString())) {
            actions.push_back(line.value("action", std::string()));
        }
        QVERIFY(std::find(actions.begin(), actions.end(), "replica-stop") != actions.end());
        QVERIFY(std::find(actions.begin(), actions.end(), "replica-start") != actions.end());
        QCOMPARE(actions.back(), std::string("replica-change-master"));
    }

    void clicksInTheWrongStateAreRefusedAndChangeNothing() {
        auto server = std::make_shared<replica::ReplicaServer>(options(test::replicaRoot()));
        replica::ReplicaChannel channel(server, "");
        QVERIFY2(waitFor([&] { return channel.status()->stage == task::Stage::Running; }, kWaitMs),
                 describe(*channel.status()).c_str());
        const size_t audited = auditLines(dir_.filePath("replica-audit.jsonl").toStdString()).size();
        task::CommandResult started = channel.start();
        QVERIFY(!started.accepted);
        QVERIFY2(started.reason.find("already running") != std::string::npos, started.reason.c_str());
        task::CommandResult skipped = channel.skipFailedEvent();
        QVERIFY(!skipped.accepted);
        QVERIFY2(skipped.reason.find("nothing to skip") != std::string::npos, skipped.reason.c_str());
        // CHANGE MASTER to a file the master does not have, or past a file's end: refused before STOP SLAVE.
        auto files = up_->query("SHOW BINARY LOGS");
        const std::string lastFile = *files.back()[0];
        const uint64_t lastSize = std::stoull(*files.back()[1]);
        task::CommandResult noFile = channel.resumeFrom({"mariadb-bin.999999", 4, {}});
        QVERIFY(!noFile.accepted);
        QVERIFY2(noFile.reason.find("has no binlog file mariadb-bin.999999") != std::string::npos,
                 noFile.reason.c_str());
        task::CommandResult pastEnd = channel.resumeFrom({lastFile, lastSize + 1000000, {}});
        QVERIFY(!pastEnd.accepted);
        QVERIFY2(pastEnd.reason.find("outside " + lastFile) != std::string::npos, pastEnd.reason.c_str());
        task::CommandResult badGtid = channel.resumeFrom({{}, 0, "0-1-x"});
        QVERIFY(!badGtid.accepted);
        QVERIFY(!server->startThreads("no-such-channel").accepted);
        QCOMPARE(auditLines(dir_.filePath("replica-audit.jsonl").toStdString()).size(), audited);
        QCOMPARE(onReplica("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE COMMAND = 'Slave_SQL'"),
                 std::string("1"));
        QCOMPARE(channel.status()->stage, task::Stage::Running);

        // Stopped: a second stop is refused, nothing audited.
        QVERIFY(channel.stop().accepted);
        QVERIFY(waitFor([&] { return channel.status()->stage == task::Stage::Stopped; }, kWaitMs));
        const size_t afterStop = auditLines(dir_.filePath("replica-audit.jsonl").toStdString()).size();
        task::CommandResult again = channel.stop();
        QVERIFY(!again.accepted);
        QVERIFY2(again.reason.find("already stopped") != std::string::npos, again.reason.c_str());
        QCOMPARE(auditLines(dir_.filePath("replica-audit.jsonl").toStdString()).size(), afterStop);
        QVERIFY(channel.start().accepted);
        QVERIFY(waitFor([&] { return channel.status()->stage == task::Stage::Running; }, kWaitMs));
    }

    void aLostReplicaIsShownLostWithWhenItWasLastSeen() {
        auto server = std::make_shared<replica::ReplicaServer>(options(test::replicaRoot()));
        replica::ReplicaChannel channel(server, "");
        QVERIFY(waitFor([&] { return channel.status()->stage == task::Stage::Running; }, kWaitMs));
        replica_.reset();
        QString output;
        QVERIFY2(test::runDbpair(QStringLiteral("stop-replica"), &output), qPrintable(output));
        QVERIFY2(waitFor([&] { return channel.status()->stage == task::Stage::Error; }, kWaitMs),
                 describe(*channel.status()).c_str());
        auto lost = channel.status();
        QVERIFY2(lost->stageReason.find("connection lost (last seen ") == 0, lost->stageReason.c_str());
        QVERIFY2(lost->lastError.find("reconnecting") != std::string::npos, lost->lastError.c_str());
        task::CommandResult refused = channel.pause();
        QVERIFY(!refused.accepted);
        QVERIFY2(refused.reason.find("not sent") != std::string::npos, refused.reason.c_str());
        // Back: the poller reconnects by itself and the channel runs again.
        QVERIFY2(test::runDbpair(QStringLiteral("start-replica"), &output), qPrintable(output));
        replica_ = std::make_unique<UpstreamConnection>(test::engineSettings(test::replicaRoot()));
        QVERIFY2(waitFor([&] { return channel.status()->stage == task::Stage::Running; }, kWaitMs),
                 describe(*channel.status()).c_str());
    }

    void badInputSaysWhatIsWrong_data() {
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("password");
        QTest::addColumn<bool>("unreachable");
        QTest::addColumn<QString>("expected");
        QTest::addRow("unreachable replica") << "root"
                                             << "" << true << "unreachable";
        QTest::addRow("wrong password") << "root"
                                        << "wrong-password" << false << "login refused";
        QTest::addRow("user without SLAVE MONITOR") << "nomonitor"
                                                    << "nomonitor-pass" << false << "GRANT SLAVE MONITOR";
    }

    void badInputSaysWhatIsWrong() {
        QFETCH(QString, user);
        QFETCH(QString, password);
        QFETCH(bool, unreachable);
        QFETCH(QString, expected);
        replica_->execute("CREATE USER IF NOT EXISTS 'nomonitor'@'127.0.0.1' IDENTIFIED BY 'nomonitor-pass'");
        test::ServerSettings replica = test::replicaRoot();
        replica.user = user.toStdString();
        if (!password.isEmpty()) {
            replica.password = password.toStdString();
        }
        if (unreachable) {
            replica.port = test::freeLoopbackPort();
        }
        auto server = std::make_shared<replica::ReplicaServer>(options(replica));
        QVERIFY(waitFor([&] { return !server->latest().error.empty(); }, kWaitMs));
        const std::string error = server->latest().error;
        QVERIFY2(error.find(expected.toStdString()) != std::string::npos, error.c_str());
        QVERIFY2(error.find(replica.password) == std::string::npos || replica.password.empty(), error.c_str());
        replica::ReplicaChannel channel(server, "");
        QCOMPARE(channel.status()->stage, task::Stage::Error);
        QVERIFY(!channel.status()->lastError.empty());
    }
};

QTEST_GUILESS_MAIN(ReplicaServerTest)
#include "test_replica_server.moc"
