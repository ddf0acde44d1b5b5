// Stop at a point on the real task and the private MariaDB pair: the task pauses by itself exactly at
// the end of the transaction completing a GTID, at the transaction ending at a position, and in front
// of the first transaction at a time; the persisted checkpoint is that transaction end, the status says
// why, the point is cleared once reached, and resume goes on. POST /api/v1/until sets a point and
// refuses a bad one with 400.
#include <QtTest>

#include <QTemporaryDir>

#include <httplib.h>

#include <chrono>
#include <thread>

#include "engine/browse/browse_time.h"
#include "engine/control/control_server.h"
#include "engine/source/upstream_connection.h"
#include "engine/task/task.h"
#include "tests/support/test_env.h"

using syncscope::source::UpstreamConnection;
using namespace syncscope;
using syncscope::test::waitFor;

namespace {

// Transactions one second apart have different binlog times (whole seconds).
constexpr std::chrono::milliseconds kNextSecond{1100};

std::string describe(const task::StatusSnapshot& s) {
    return std::string("stage ") + task::stageName(s.stage) + " (" + s.stageReason + "), applied " + s.applied.text() +
           ", persisted " + s.globalPersisted.text() + " gtid " + s.globalPersisted.gtid + ", error: " + s.lastError;
}

}  // namespace

class StopAtPointTest : public QObject {
    Q_OBJECT

    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> down_;
    QTemporaryDir dir_;

    std::string rows() { return down_->queryValue("SELECT COUNT(*) FROM untiltest.a").value_or("NULL"); }
    void insert(int id) { up_->execute("INSERT INTO untiltest.a VALUES (" + std::to_string(id) + ")"); }
    std::pair<std::string, uint64_t> master() {
        auto status = up_->query("SHOW MASTER STATUS");
        return {*status.front()[0], std::stoull(*status.front()[1])};
    }
    // Paused by itself, at the stop point named `expected` (a resume shows Running first).
    bool pausedAtStopPoint(task::Task& running, const std::string& expected) {
        return waitFor([&] {
            auto s = running.status();
            return s->stage == task::Stage::Paused &&
                   s->stageReason.find("reached the stop point " + expected) != std::string::npos;
        });
    }

private slots:
    void initTestCase() {
        up_ = std::make_unique<UpstreamConnection>(test::engineSettings(test::upstreamRoot()));
        down_ = std::make_unique<UpstreamConnection>(test::engineSettings(test::downstreamRoot()));
        QVERIFY(dir_.isValid());
    }

    void theTaskPausesExactlyAtAGtidAPositionAndATime() {
        for (UpstreamConnection* server : {up_.get(), down_.get()}) {
            server->execute("SET SESSION sql_log_bin = 0");
            server->execute("DROP DATABASE IF EXISTS untiltest");
            server->execute("CREATE DATABASE untiltest");
            server->execute("CREATE TABLE untiltest.a (id INT PRIMARY KEY)");
            server->execute("SET SESSION sql_log_bin = 1");
        }
        down_->execute("CREATE DATABASE IF NOT EXISTS dm_meta");
        down_->execute("DROP TABLE IF EXISTS dm_meta.untiltest_syncer_checkpoint");
        task::TaskSetup setup;
        setup.taskName = "untiltest";
        setup.sourceId = "replica-1";
        setup.upstream = test::engineSettings(test::upstreamReplication());
        setup.downstream = test::engineSettings(test::downstreamRoot());
        setup.enableGtid = true;
        setup.syncer.workerCount = 2;
        setup.heartbeatSeconds = 1;
        setup.auditLogPath = dir_.filePath("untiltest-audit.jsonl").toStdString();
        auto [file, pos] = master();
        setup.metaBinlogName = file;
        setup.metaBinlogPos = pos;
        setup.metaBinlogGtid = up_->queryValue("SELECT @@gtid_binlog_pos").value_or("");

        // A GTID: rows 1 and 2 are applied, row 3 waits.
        insert(1);
        insert(2);
        std::string afterTwo = up_->queryValue("SELECT @@gtid_binlog_pos").value_or("");
        insert(3);
        task::Task running(setup);
        QVERIFY(running.stopAt(afterTwo).accepted);
        QVERIFY(running.status()->stopPoint.find(afterTwo) != std::string::npos ||
                waitFor([&] { return running.status()->stopPoint.find(afterTwo) != std::string::npos; }));
        QVERIFY(running.start().accepted);
        QVERIFY2(pausedAtStopPoint(running, "GTID " + afterTwo), describe(*running.status()).c_str());
        QCOMPARE(rows(), std::string("2"));
        auto s = running.status();
        QVERIFY2(s->stageReason.find("the stop point GTID " + afterTwo) != std::string::npos, describe(*s).c_str());
        QVERIFY2(waitFor([&] { return running.status()->globalPersisted.gtid == afterTwo; }),
                 describe(*running.status()).c_str());
        QVERIFY(waitFor([&] { return running.status()->stopPoint.empty(); }));  // one-shot
        // A point the task has already passed is refused with the reason, and nothing is set.
        task::CommandResult again = running.stopAt(afterTwo);
        QVERIFY(!again.accepted);
        QVERIFY2(again.reason.find("already behind the task") != std::string::npos, again.reason.c_str());
        QVERIFY(running.status()->stopPoint.empty());

        // Resume: row 3 comes. A position: the task stops after the transaction ending there.
        QVERIFY(running.resume().accepted);
        QVERIFY(waitFor([&] { return rows() == "3"; }));
        QVERIFY(running.pause().accepted);
        QVERIFY(waitFor([&] { return running.stage() == task::Stage::Paused; }));
        insert(4);
        auto [fileAfterFour, posAfterFour] = master();
        insert(5);
        QVERIFY(running.stopAt(fileAfterFour + ":" + std::to_string(posAfterFour)).accepted);
        QVERIFY(running.resume().accepted);
        QVERIFY2(pausedAtStopPoint(running, fileAfterFour + ":" + std::to_string(posAfterFour)),
                 describe(*running.status()).c_str());
        QCOMPARE(rows(), std::string("4"));
        QVERIFY2(waitFor([&] {
                     auto now = running.status();
                     return now->globalPersisted.file == fileAfterFour && now->globalPersisted.pos == posAfterFour;
                 }),
                 describe(*running.status()).c_str());

        // A time, set through the API: everything before it is applied, the first transaction at it waits.
        control::ControlServerOptions options;
        control::ControlServer server(running, options);
        httplib::Client client("127.0.0.1", server.port());
        auto bad = client.Post("/api/v1/until", "{\"point\": \"soon\"}", "application/json");
        QVERIFY(bad);
        QCOMPARE(bad->status, 409);  // a well-formed body with a point the task refuses
        QVERIFY2(bad->body.find("is not FILE:POS") != std::string::npos, bad->body.c_str());
        auto malformed = client.Post("/api/v1/until", "{\"when\": 1}", "application/json");
        QVERIFY(malformed);
        QCOMPARE(malformed->status, 400);
        const std::string passed = "{\"point\": \"" + fileAfterFour + ":" + std::to_string(posAfterFour) + "\"}";
        auto behind = client.Post("/api/v1/until", passed, "application/json");
        QVERIFY(behind);
        QCOMPARE(behind->status, 409);
        QVERIFY2(behind->body.find("already behind the task") != std::string::npos, behind->body.c_str());
        std::this_thread::sleep_for(kNextSecond);
        insert(6);
        std::this_thread::sleep_for(kNextSecond);
        auto at = static_cast<uint32_t>(std::stoul(up_->queryValue("SELECT UNIX_TIMESTAMP()").value_or("0")));
        insert(7);
        std::string body = "{\"point\": \"" + browse::formatLocalTime(at) + "\"}";
        auto set = client.Post("/api/v1/until", body, "application/json");
        QVERIFY(set);
        QCOMPARE(set->status, 200);
        QVERIFY(running.resume().accepted);
        QVERIFY2(pausedAtStopPoint(running, browse::formatLocalTime(at)), describe(*running.status()).c_str());
        QCOMPARE(rows(), std::string("6"));
        QVERIFY2(running.status()->stageReason.find(browse::formatLocalTime(at)) != std::string::npos,
                 describe(*running.status()).c_str());
        QVERIFY(running.resume().accepted);
        QVERIFY(waitFor([&] { return rows() == "7"; }));
        QVERIFY(running.stop().accepted);
        running.waitUntilStopped();
    }
};

QTEST_GUILESS_MAIN(StopAtPointTest)
#include "test_stop_at_point.moc"
