// A resume-from a GTID alone, going forward, on a task in GTID mode (`syncscope-cli run --listen` on the real
// pair, `syncscope-cli resume-from GTID`): the rows it skips are saved first as replayable SQL whose header names
// the window (from the persisted global point up to the end of the GTID's transaction), the resume-from's audit
// entry names the file and its counts, the transactions after the GTID are applied and the skipped ones are not,
// and the SQL, run twice, makes the tables equal. A GTID the upstream has not reached changes nothing.
#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/source/upstream_connection.h"
#include "tests/integration/preview/control_run.h"
#include "tests/support/sql_values.h"
#include "tests/support/task_files.h"
#include "tests/support/test_env.h"

using nlohmann::json;
using syncscope::source::UpstreamConnection;
using syncscope::test::readTextFile;
using namespace syncscope::test::control_run;

namespace {

constexpr int kCliTimeoutMs = 120000;
constexpr int kHttpOk = 200;
constexpr int kReadTimeoutSeconds = 60;
const char* const kTaskName = "gtidrf";

// The first domain's GTID of a position, a hundred transactions further than the upstream has written.
std::string beyondHistory(const std::string& gtidPosition) {
    constexpr uint64_t kAhead = 100;
    std::string first = gtidPosition.substr(0, gtidPosition.find(','));
    const size_t dash = first.rfind('-');
    return first.substr(0, dash + 1) + std::to_string(std::stoull(first.substr(dash + 1)) + kAhead);
}

}  // namespace

class GtidResumeFromTest : public QObject {
    Q_OBJECT

    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> down_;
    QTemporaryDir dir_;
    std::string logDir_;
    int port_ = 0;
    QProcess run_;

    json getJson(const std::string& path) {
        httplib::Client client("127.0.0.1", port_);
        client.set_read_timeout(kReadTimeoutSeconds);
        auto res = client.Get(path);
        return res ? json::parse(res->body, nullptr, false) : json();
    }
    int post(const std::string& path) {
        httplib::Client client("127.0.0.1", port_);
        client.set_read_timeout(kReadTimeoutSeconds);
        auto res = client.Post(path);
        return res ? res->status : 0;
    }
    std::string stage() {
        json s = getJson("/api/v1/status");
        return s.is_object() ? s.value("stage", std::string()) : std::string();
    }
    bool waitForStage(const std::string& wanted) {
        return syncscope::test::waitFor([&] { return stage() == wanted; });
    }
    static CliResult cli(const QStringList& args) { return runCli(args, kCliTimeoutMs); }
    QString control() const { return QStringLiteral("127.0.0.1:%1").arg(port_); }
    size_t savedSqlFileCount() {
        size_t count = 0;
        for (const auto& entry : std::filesystem::directory_iterator(logDir_)) {
            count += entry.path().filename().string().find("-skipped-") != std::string::npos ? 1 : 0;
        }
        return count;
    }
    json lastAuditEntry(const std::string& action) {
        json found;
        std::ifstream in(logDir_ + "/" + kTaskName + "-audit.jsonl");
        for (std::string line; std::getline(in, line);) {
            json entry = json::parse(line, nullptr, false);
            if (entry.is_object() && entry.value("action", std::string()) == action) {
                found = entry;
            }
        }
        return found;
    }
    std::string downValue(const std::string& sql) { return down_->queryValue(sql).value_or("NULL"); }
    std::string masterPosition() {
        auto master = up_->query("SHOW MASTER STATUS");
        return *master.front()[0] + ":" + *master.front()[1];
    }
    // FILE:POS of the first GTID event at or after FILE:POS `from`.
    std::string firstGtidEventFrom(const std::string& from) {
        const size_t colon = from.rfind(':');
        const std::string file = from.substr(0, colon);
        for (const auto& row : up_->query("SHOW BINLOG EVENTS IN '" + file + "' FROM " + from.substr(colon + 1))) {
            if (row.size() > 2 && row[2].value_or("") == "Gtid") {
                return file + ":" + row[1].value_or("");
            }
        }
        return "no GTID event after " + from;
    }
    void runSql(const std::string& sql) { runSqlLines(*down_, sql); }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        connectFresh(up_, down_, "gtidrf",
                     {"CREATE TABLE gtidrf.t1 (id INT PRIMARY KEY, v INT)",
                      "CREATE TABLE gtidrf.t2 (id INT PRIMARY KEY, v VARCHAR(20))"},
                     kTaskName);
        logDir_ = dir_.filePath(QStringLiteral("logs")).toStdString();
        std::filesystem::create_directories(logDir_);
        auto master = up_->query("SHOW MASTER STATUS");
        syncscope::test::TaskFileOptions options;
        options.name = kTaskName;
        options.gtidMode = true;
        options.binlogName = *master.front()[0];
        options.binlogPos = std::stoull(*master.front()[1]);
        options.binlogGtid = up_->queryValue("SELECT @@GLOBAL.gtid_binlog_pos").value_or("");
        options.workerCount = 2;
        options.instanceExtra = "    block-allow-list: \"only-gtidrf\"\n";
        options.topLevelExtra = "block-allow-list:\n  only-gtidrf: {do-dbs: [\"gtidrf\"]}\n";
        auto files = syncscope::test::writeTaskFiles(dir_.path().toStdString(), options);
        port_ = syncscope::test::freeLoopbackPort();
        startRun(run_, files.task, files.source, logDir_, control());
        if (QTest::currentTestFailed()) {
            return;
        }
        QVERIFY2(waitForStage("Running"), readTextFile(logDir_ + "/run-stderr.txt").c_str());
    }

    void aGtidForwardResumeFromSavesTheSkippedRowsAndAppliesWhatFollows() {
        up_->execute("INSERT INTO gtidrf.t2 VALUES (1, 'one'), (2, 'two')");
        QVERIFY(syncscope::test::waitFor([&] { return downValue("SELECT COUNT(*) FROM gtidrf.t2") == "2"; }));
        QCOMPARE(post("/api/v1/pause"), kHttpOk);
        QVERIFY(waitForStage("Paused"));
        const size_t savedBefore = savedSqlFileCount();

        // Skipped by the resume-from: an insert and an update in one transaction, a delete in the next.
        up_->execute("START TRANSACTION");
        up_->execute("INSERT INTO gtidrf.t1 VALUES (7, 70)");
        up_->execute("UPDATE gtidrf.t2 SET v = 'changed, skipped' WHERE id = 2");
        up_->execute("COMMIT");
        up_->execute("DELETE FROM gtidrf.t2 WHERE id = 1");
        const std::string target = up_->queryValue("SELECT @@GLOBAL.gtid_binlog_pos").value_or("");
        const std::string targetEnd = masterPosition();
        // Applied after it: the first transaction after the GTID, which starts at its GTID event (a binlog
        // checkpoint event may come between).
        up_->execute("INSERT INTO gtidrf.t1 VALUES (8, 80)");
        const std::string nextStart = firstGtidEventFrom(targetEnd);
        QVERIFY(!target.empty());

        // A GTID beyond what the upstream has written is refused; nothing saved, still paused.
        CliResult beyond = cli({QStringLiteral("resume-from"), QString::fromStdString(beyondHistory(target)),
                                QStringLiteral("--control"), control()});
        QCOMPARE(beyond.exitCode, 1);
        QVERIFY2(beyond.err.find("has only reached") != std::string::npos, beyond.err.c_str());
        QCOMPARE(savedSqlFileCount(), savedBefore);
        QCOMPARE(stage(), std::string("Paused"));

        CliResult moved = cli(
            {QStringLiteral("resume-from"), QString::fromStdString(target), QStringLiteral("--control"), control()});
        QVERIFY2(moved.exitCode == 0, (moved.out + moved.err).c_str());
        const std::string marker = "replay SQL (in the audit entry too): ";
        const size_t at = moved.out.find(marker);
        QVERIFY2(at != std::string::npos, moved.out.c_str());
        std::string sqlFile = moved.out.substr(at + marker.size());
        sqlFile = sqlFile.substr(0, sqlFile.find('\n'));
        QCOMPARE(savedSqlFileCount(), savedBefore + 1);
        QVERIFY(waitForStage("Running"));

        // The audit entry names the SQL and what it holds.
        json entry;
        QVERIFY(syncscope::test::waitFor([&] {
            entry = lastAuditEntry("resume-from");
            return entry.is_object();
        }));
        const std::string entryText = entry.dump(2);
        QCOMPARE(entry["details"]["replay_sql_file"].get<std::string>(), sqlFile);
        QVERIFY2(entry["details"]["preview"]["transactions"].get<int>() == 2, entryText.c_str());
        QVERIFY2(entry["details"]["preview"]["rows_missing"].get<int>() == 1, entryText.c_str());
        QVERIFY2(entry["details"]["preview"]["rows_different"].get<int>() == 1, entryText.c_str());
        QVERIFY2(entry["details"]["preview"]["rows_not_deleted"].get<int>() == 1, entryText.c_str());
        QVERIFY2(entryText.find(target) != std::string::npos, entryText.c_str());

        // The SQL's header names the skipped window: up to the end of the GTID's transaction.
        const std::string sql = readTextFile(sqlFile);
        QVERIFY2(sql.find("resume-from " + nextStart + " (gtid " + target + ")") != std::string::npos, sql.c_str());
        QVERIFY2(sql.find(" up to " + nextStart + ": 2 transaction(s)") != std::string::npos,
                 (nextStart + "\n" + sql).c_str());

        // What follows the GTID is applied; what it skipped is not, until the SQL runs.
        QVERIFY(syncscope::test::waitFor([&] { return downValue("SELECT v FROM gtidrf.t1 WHERE id = 8") == "80"; }));
        up_->execute("INSERT INTO gtidrf.t1 VALUES (9, 90)");
        QVERIFY(syncscope::test::waitFor([&] { return downValue("SELECT v FROM gtidrf.t1 WHERE id = 9") == "90"; }));
        QCOMPARE(downValue("SELECT COUNT(*) FROM gtidrf.t1 WHERE id = 7"), std::string("0"));
        QCOMPARE(downValue("SELECT v FROM gtidrf.t2 WHERE id = 2"), std::string("two"));
        QCOMPARE(downValue("SELECT COUNT(*) FROM gtidrf.t2 WHERE id = 1"), std::string("1"));
        QVERIFY(checksum(*down_, "gtidrf.t1") != checksum(*up_, "gtidrf.t1"));
        for (int run = 0; run < 2; ++run) {
            runSql(sql);
            QCOMPARE(checksum(*down_, "gtidrf.t1"), checksum(*up_, "gtidrf.t1"));
            QCOMPARE(checksum(*down_, "gtidrf.t2"), checksum(*up_, "gtidrf.t2"));
        }
    }

    void cleanupTestCase() { stopRun(run_, kCliTimeoutMs); }
};

QTEST_MAIN(GtidResumeFromTest)
#include "test_gtid_resume_from.moc"
