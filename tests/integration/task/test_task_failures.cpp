// A row that fails in the middle of a multi-row event, inside a multi-statement transaction: the task
// stops on exactly that row, no persisted point covers it, every resume fails on it again, and
// skipFailedEvent skips that transaction only, with an audit line holding its position and rows.
#include <QtTest>

#include <QTemporaryDir>

#include <chrono>
#include <fstream>
#include <functional>
#include <thread>

#include <nlohmann/json.hpp>

#include "engine/source/upstream_connection.h"
#include "engine/task/task.h"
#include "tests/support/test_env.h"

using syncscope::source::UpstreamConnection;
using namespace syncscope;
using syncscope::test::waitFor;

namespace {

std::string valueOf(UpstreamConnection& connection, const std::string& sql) {
    try {
        return connection.queryValue(sql).value_or("NULL");
    } catch (const std::exception& e) {
        return std::string("ERROR: ") + e.what();
    }
}

}  // namespace

class TaskFailuresTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> down_;
    QTemporaryDir dir_;

    task::TaskSetup makeSetup(const std::string& name) {
        task::TaskSetup setup;
        setup.taskName = name;
        setup.sourceId = "replica-1";
        setup.upstream = test::engineSettings(test::upstreamReplication());
        setup.downstream = test::engineSettings(test::downstreamRoot());
        setup.syncer.workerCount = 4;
        setup.syncer.batch = 10;
        setup.syncer.checkpointFlushIntervalSeconds = 1;
        setup.auditLogPath = dir_.filePath(QString::fromStdString(name + "-audit.jsonl")).toStdString();
        auto master = up_->query("SHOW MASTER STATUS");
        setup.metaBinlogName = *master.front()[0];
        setup.metaBinlogPos = std::stoull(*master.front()[1]);
        return setup;
    }

    void createTables(const std::string& schema) {
        for (UpstreamConnection* server : {up_.get(), down_.get()}) {
            server->execute("SET SESSION sql_log_bin = 0");
            server->execute("DROP DATABASE IF EXISTS " + schema);
            server->execute("CREATE DATABASE " + schema);
            server->execute("CREATE TABLE " + schema + ".a (id INT PRIMARY KEY, v VARCHAR(20))");
            server->execute("CREATE TABLE " + schema + ".b (id INT PRIMARY KEY, v VARCHAR(20))");
            server->execute("SET SESSION sql_log_bin = 1");
        }
    }

    static bool failedOn(task::Task& running, const std::string& value) {
        auto status = running.status();
        if (status->stage != task::Stage::Error || !status->failedEvent) {
            return false;
        }
        for (const auto& image : status->failedEvent->after) {
            if (!image.values.empty() && image.values.front() == value) {
                return true;
            }
        }
        return false;
    }

private slots:
    void init() {
        up_ = std::make_unique<UpstreamConnection>(test::engineSettings(test::upstreamRoot()));
        down_ = std::make_unique<UpstreamConnection>(test::engineSettings(test::downstreamRoot()));
        QVERIFY(dir_.isValid());
    }

    void failingRowInMultiRowEventInsideTransactionIsReportedAndNeverCovered() {
        createTables("failtest");
        task::TaskSetup setup = makeSetup("failtest");
        // Row 3's value does not fit downstream: it fails in normal and in safe mode alike (a duplicate
        // key would not: safe mode's REPLACE overwrites it, as DM's does).
        down_->execute("ALTER TABLE failtest.a MODIFY v VARCHAR(3)");
        down_->execute("DROP DATABASE IF EXISTS dm_meta");

        up_->execute("INSERT INTO failtest.b VALUES (1, 'before')");
        auto beforeTxn = up_->query("SHOW MASTER STATUS");
        uint64_t failingTransactionStart = std::stoull(*beforeTxn.front()[1]);
        up_->execute("BEGIN");
        up_->execute("INSERT INTO failtest.b VALUES (2, 'in-txn')");
        up_->execute("INSERT INTO failtest.a VALUES (1, 'x'), (2, 'x'), (3, 'too long'), (4, 'x')");
        up_->execute("INSERT INTO failtest.b VALUES (3, 'in-txn')");
        up_->execute("COMMIT");
        up_->execute("INSERT INTO failtest.b VALUES (4, 'after')");

        task::Task running(setup);
        QVERIFY(running.start().accepted);
        QVERIFY2(waitFor([&] { return failedOn(running, "3"); }), running.status()->lastError.c_str());
        auto status = running.status();
        QCOMPARE(status->failedEvent->table, std::string("a"));
        QCOMPARE(status->failedEvent->operation, std::string("insert"));
        QCOMPARE(status->failedEvent->errorCode, 1406);  // data too long
        QVERIFY(running.waitingForDba());
        std::string failedPosition = status->failedEvent->position.text();

        auto checkNoPointCovers = [&] {
            auto rows = down_->query("SELECT cp_schema, cp_table, binlog_pos FROM dm_meta.failtest_syncer_checkpoint");
            QVERIFY(!rows.empty());
            for (const auto& row : rows) {
                QVERIFY2(std::stoull(*row[2]) <= failingTransactionStart,
                         ("point " + *row[0] + "." + *row[1] + " at " + *row[2] +
                          " is inside or past the failed "
                          "transaction starting at " +
                          std::to_string(failingTransactionStart))
                             .c_str());
            }
        };
        checkNoPointCovers();

        // A resume meets the same row again; so does a second one.
        for (int attempt = 0; attempt < 2; ++attempt) {
            QVERIFY(running.resume().accepted);
            QVERIFY(waitFor([&] { return running.stage() == task::Stage::Running; }, 5000) ||
                    running.stage() == task::Stage::Error);
            bool failedAgain = waitFor([&] { return failedOn(running, "3") && running.waitingForDba(); });
            auto again = running.status();
            QVERIFY2(failedAgain, (std::string("stage ") + task::stageName(again->stage) + " (" + again->stageReason +
                                   "), waiting for the DBA: " + (running.waitingForDba() ? "yes" : "no") +
                                   ", last error: " + again->lastError)
                                      .c_str());
            QCOMPARE(again->failedEvent->position.text(), failedPosition);
            checkNoPointCovers();
        }

        // Skip: exactly that transaction is skipped; the one after it applies.
        task::CommandResult skipped = running.skipFailedEvent();
        QVERIFY2(skipped.accepted, skipped.reason.c_str());
        QVERIFY2(waitFor([&] { return valueOf(*down_, "SELECT v FROM failtest.b WHERE id = 4") == "after"; }),
                 running.status()->lastError.c_str());
        QCOMPARE(valueOf(*down_, "SELECT COUNT(*) FROM failtest.a WHERE id = 3"), std::string("0"));
        QCOMPARE(valueOf(*down_, "SELECT v FROM failtest.b WHERE id = 1"), std::string("before"));
        QVERIFY(running.stop().accepted);
        running.waitUntilStopped();
        QCOMPARE(running.stage(), task::Stage::Stopped);
        QVERIFY(!running.start().reason.empty() || running.stage() != task::Stage::Stopped);
        running.stop();
        running.waitUntilStopped();

        // The audit log holds the skip with the failed event's position and row images.
        std::ifstream audit(setup.auditLogPath);
        std::string line;
        bool sawSkip = false;
        while (std::getline(audit, line)) {
            auto entry = nlohmann::json::parse(line);
            QVERIFY(entry.contains("time") && entry.contains("user") && entry.contains("action"));
            if (entry["action"] == "skip") {
                sawSkip = true;
                QCOMPARE(entry["details"]["position"].get<std::string>(), failedPosition);
                QCOMPARE(entry["details"]["table"].get<std::string>(), std::string("a"));
                QCOMPARE(entry["details"]["rows"][0]["after"][0].get<std::string>(), std::string("3"));
            }
        }
        QVERIFY2(sawSkip, "no skip line in the audit log");
    }

    void commandsRefusedInTheWrongStateChangeNothing() {
        createTables("statetest");
        task::Task idle(makeSetup("statetest"));
        QCOMPARE(idle.stage(), task::Stage::New);
        for (auto refused : {idle.pause(), idle.resume(), idle.stop(), idle.skipFailedEvent(),
                             idle.resumeFrom({"mariadb-bin.000001", 4, ""})}) {
            QVERIFY(!refused.accepted);
            QVERIFY2(refused.reason.find("New") != std::string::npos, refused.reason.c_str());
        }
        QCOMPARE(idle.stage(), task::Stage::New);
        QVERIFY(idle.start().accepted);
        QVERIFY(waitFor([&] { return idle.status()->stage == task::Stage::Running; }));
        QVERIFY(!idle.start().accepted);
        QVERIFY(!idle.resume().accepted);
        QVERIFY(!idle.skipFailedEvent().accepted);
        QVERIFY(!idle.resumeFrom({"mariadb-bin.000001", 4, ""}).accepted);
        QVERIFY(idle.pause().accepted);
        QVERIFY(waitFor([&] { return idle.stage() == task::Stage::Paused; }));
        auto badTarget = idle.resumeFrom({"no-suffix", 10, ""});
        QVERIFY(!badTarget.accepted);
        QVERIFY2(badTarget.reason.find("no-suffix") != std::string::npos, badTarget.reason.c_str());
        QCOMPARE(idle.stage(), task::Stage::Paused);
        QVERIFY(idle.stop().accepted);
        idle.waitUntilStopped();
        QCOMPARE(idle.stage(), task::Stage::Stopped);
    }
};

QTEST_GUILESS_MAIN(TaskFailuresTest)
#include "test_task_failures.moc"
