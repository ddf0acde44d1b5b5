// The skip and resume-from preview through the control API and `syncscope-cli preview`, against
// `syncscope-cli run --listen` on the real pair: with no failed event there is nothing to preview or save;
// bad targets are refused with the reason; a failed row's transaction is previewed (the row missing,
// not comparable downstream) without saving anything; the skip then saves the rows as replayable SQL named in
// the skip's own audit entry, and that SQL, run after the fix (twice), makes the tables equal; a resume-from
// going back lists the window as applied again; one going forward (`syncscope-cli resume-from`) saves the rows
// it skips first, its own audit entry names the file, and the file run (twice) makes the tables equal.
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
#include "tests/support/test_env.h"

using nlohmann::json;
using syncscope::source::UpstreamConnection;
using syncscope::test::readTextFile;
using namespace syncscope::test::control_run;

namespace {

constexpr int kCliTimeoutMs = 120000;
constexpr int kHttpOk = 200;
constexpr int kHttpBadRequest = 400;
constexpr int kHttpConflict = 409;
constexpr int kReadTimeoutSeconds = 60;
const char* const kTaskName = "prv-task";

struct Answer {
    int status = 0;
    std::string body;
    json parsed() const { return json::parse(body, nullptr, false); }
};

}  // namespace

class ControlPreviewTest : public QObject {
    Q_OBJECT

    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> down_;
    QTemporaryDir dir_;
    std::string logDir_;
    std::string taskFile_;
    std::string sourceFile_;
    int port_ = 0;
    QProcess run_;
    std::string beforeFailing_;  // FILE:POS of the transaction boundary before the failing transaction
    std::string beforeFile_;
    uint64_t beforePos_ = 0;

    Answer get(const std::string& path) {
        httplib::Client client("127.0.0.1", port_);
        client.set_read_timeout(kReadTimeoutSeconds);
        auto res = client.Get(path);
        return res ? Answer{res->status, res->body} : Answer{};
    }
    Answer post(const std::string& path, const std::string& body = "") {
        httplib::Client client("127.0.0.1", port_);
        client.set_read_timeout(kReadTimeoutSeconds);
        auto res = body.empty() ? client.Post(path) : client.Post(path, body, "application/json");
        return res ? Answer{res->status, res->body} : Answer{};
    }
    std::string stage() {
        json s = get("/api/v1/status").parsed();
        return s.is_object() ? s.value("stage", std::string()) : std::string();
    }
    bool waitForStage(const std::string& wanted) {
        return syncscope::test::waitFor([&] { return stage() == wanted; });
    }
    static CliResult cli(const QStringList& args) { return runCli(args, kCliTimeoutMs); }
    QString control() const { return QStringLiteral("127.0.0.1:%1").arg(port_); }
    std::vector<std::string> savedSqlFiles() {
        std::vector<std::string> files;
        for (const auto& entry : std::filesystem::directory_iterator(logDir_)) {
            if (entry.path().filename().string().find("-skipped-") != std::string::npos) {
                files.push_back(entry.path().string());
            }
        }
        return files;
    }
    std::vector<json> auditLines() {
        std::vector<json> lines;
        std::ifstream in(logDir_ + "/" + kTaskName + "-audit.jsonl");
        for (std::string line; std::getline(in, line);) {
            lines.push_back(json::parse(line, nullptr, false));
        }
        return lines;
    }
    void runSql(const std::string& sql) { runSqlLines(*down_, sql); }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        connectFresh(up_, down_, "prv",
                     {"CREATE TABLE prv.t1 (id INT PRIMARY KEY, v INT)",
                      "CREATE TABLE prv.t2 (id INT PRIMARY KEY, v VARCHAR(20))"},
                     kTaskName);
        auto master = up_->query("SHOW MASTER STATUS");
        auto up = syncscope::test::upstreamReplication();
        auto down = syncscope::test::downstreamRoot();
        const std::string configDir = dir_.filePath(QStringLiteral("config")).toStdString();
        logDir_ = dir_.filePath(QStringLiteral("logs")).toStdString();
        std::filesystem::create_directories(configDir);
        std::filesystem::create_directories(logDir_);
        taskFile_ = configDir + "/" + kTaskName + ".yaml";
        sourceFile_ = configDir + "/" + kTaskName + "-source.yaml";
        std::ofstream(taskFile_) << "name: " << kTaskName << "\ntask-mode: incremental\n"
                                 << "target-database: {host: \"127.0.0.1\", port: " << down.port << ", user: \""
                                 << down.user << "\", password: \"" << down.password << "\"}\n"
                                 << "mysql-instances:\n  - source-id: \"prv-source\"\n"
                                 << "    meta: {binlog-name: \"" << *master.front()[0]
                                 << "\", binlog-pos: " << *master.front()[1] << "}\n"
                                 << "    block-allow-list: \"only-prv\"\n"
                                 << "    syncer: {checkpoint-flush-interval: 1, worker-count: 2}\n"
                                 << "block-allow-list:\n  only-prv: {do-dbs: [\"prv\"]}\n";
        std::ofstream(sourceFile_) << "source-id: \"prv-source\"\nflavor: mariadb\nenable-gtid: false\n"
                                   << "from: {host: \"127.0.0.1\", port: " << up.port << ", user: \"" << up.user
                                   << "\", password: \"" << up.password << "\"}\n";
        port_ = syncscope::test::freeLoopbackPort();
        startRun(run_, taskFile_, sourceFile_, logDir_, control());
        if (QTest::currentTestFailed()) {
            return;
        }
        QVERIFY2(waitForStage("Running"), readTextFile(logDir_ + "/run-stderr.txt").c_str());
    }

    void withoutAFailedEventNothingIsPreviewedOrSaved() {
        Answer preview = get("/api/v1/preview/skip");
        QCOMPARE(preview.status, kHttpConflict);
        QVERIFY2(preview.parsed()["error"].get<std::string>().find("no failed event") != std::string::npos,
                 preview.body.c_str());
        CliResult text =
            cli({QStringLiteral("preview"), QStringLiteral("skip"), QStringLiteral("--control"), control()});
        QCOMPARE(text.exitCode, 1);
        QVERIFY2(text.err.find("no failed event") != std::string::npos, text.err.c_str());
        QCOMPARE(post("/api/v1/skip").status, kHttpConflict);
        QVERIFY(savedSqlFiles().empty());
        QCOMPARE(stage(), std::string("Running"));
    }

    void badTargetsAreRefusedWithTheReason_data() {
        QTest::addColumn<QString>("query");
        QTest::addColumn<QString>("reason");
        QTest::addRow("no target") << ""
                                   << "binlog_name=FILE&binlog_pos=POS";
        QTest::addRow("file without position") << "?binlog_name=mariadb-bin.000001"
                                               << "go together";
        QTest::addRow("position not a number") << "?binlog_name=mariadb-bin.000001&binlog_pos=12x"
                                               << "binlog_pos";
        QTest::addRow("not a binlog file") << "?binlog_name=orders&binlog_pos=4"
                                           << "binlog file name";
        QTest::addRow("a GTID alone") << "?gtid=0-1-5"
                                      << "binlog_name and binlog_pos";
    }
    void badTargetsAreRefusedWithTheReason() {
        QFETCH(QString, query);
        QFETCH(QString, reason);
        Answer answer = get("/api/v1/preview/resume-from" + query.toStdString());
        QCOMPARE(answer.status, kHttpBadRequest);
        QVERIFY2(answer.parsed()["error"].get<std::string>().find(reason.toStdString()) != std::string::npos,
                 answer.body.c_str());
        QCOMPARE(stage(), std::string("Running"));
    }

    void cliUsageErrorsStartNothing() {
        CliResult noTarget =
            cli({QStringLiteral("preview"), QStringLiteral("resume-from"), QStringLiteral("--control"), control()});
        QCOMPARE(noTarget.exitCode, 2);
        QVERIFY2(noTarget.err.find("FILE:POS") != std::string::npos, noTarget.err.c_str());
        CliResult badTarget = cli({QStringLiteral("preview"), QStringLiteral("resume-from"), QStringLiteral("soon"),
                                   QStringLiteral("--control"), control()});
        QCOMPARE(badTarget.exitCode, 2);
        QVERIFY2(badTarget.err.find("'soon'") != std::string::npos, badTarget.err.c_str());
    }

    void skipPreviewThenSkipSavesTheRowsNamedInItsAuditEntry() {
        auto master = up_->query("SHOW MASTER STATUS");
        beforeFile_ = *master.front()[0];
        beforePos_ = std::stoull(*master.front()[1]);
        // A column the downstream lacks: the transaction's t1 row fails with 1054 and needs the DBA.
        up_->execute("SET SESSION sql_log_bin = 0");
        up_->execute("ALTER TABLE prv.t1 ADD c INT");
        up_->execute("SET SESSION sql_log_bin = 1");
        up_->execute("START TRANSACTION");
        up_->execute("INSERT INTO prv.t1 VALUES (5, 50, 500)");
        up_->execute("INSERT INTO prv.t2 VALUES (1, 'skipped with it')");
        up_->execute("COMMIT");
        QVERIFY(waitForStage("Error"));
        QVERIFY(syncscope::test::waitFor([&] { return get("/api/v1/preview/skip").status == kHttpOk; }));

        json preview = get("/api/v1/preview/skip").parsed()["preview"];
        QCOMPARE(preview["transactions"].get<int>(), 1);
        QVERIFY(preview["skips"].get<bool>());
        bool t1Missing = false;
        for (const json& table : preview["tables"]) {
            for (const json& row : table["rows"]) {
                if (table["table"] == "prv.t1" && row["key"] == json::array({"5"})) {
                    t1Missing = row["state"] == "missing" &&
                                row["differing_columns"][0].get<std::string>().find("not comparable") == 0;
                }
            }
        }
        QVERIFY2(t1Missing, preview.dump(2).c_str());
        CliResult text =
            cli({QStringLiteral("preview"), QStringLiteral("skip"), QStringLiteral("--control"), control()});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.find("is SKIPPED") != std::string::npos && text.out.find("prv.t1") != std::string::npos &&
                     text.out.find("key (5)  missing") != std::string::npos,
                 text.out.c_str());
        CliResult asJson = cli({QStringLiteral("preview"), QStringLiteral("skip"), QStringLiteral("--control"),
                                control(), QStringLiteral("--json")});
        QCOMPARE(asJson.exitCode, 0);
        QCOMPARE(json::parse(asJson.out, nullptr, false)["transactions"].get<int>(), 1);
        QVERIFY2(savedSqlFiles().empty(), "a preview saved something");

        Answer badBody = post("/api/v1/skip", R"({"save_sql": "yes"})");
        QCOMPARE(badBody.status, kHttpBadRequest);
        QCOMPARE(stage(), std::string("Error"));
        QVERIFY(savedSqlFiles().empty());

        Answer skipped = post("/api/v1/skip");
        QCOMPARE(skipped.status, kHttpOk);
        const std::string sqlFile = skipped.parsed()["replay_sql_file"].get<std::string>();
        QCOMPARE(savedSqlFiles(), std::vector<std::string>{sqlFile});
        QVERIFY(waitForStage("Running"));
        json skipEntry;
        bool separateEntry = false;
        QVERIFY(syncscope::test::waitFor([&] {
            for (const json& line : auditLines()) {
                separateEntry = separateEntry || line.value("action", std::string()) == "skip-preview";
                if (line.value("action", std::string()) == "skip") {
                    skipEntry = line;
                }
            }
            return skipEntry.is_object();
        }));
        QVERIFY2(!separateEntry, "the SQL file is named in an entry of its own");
        QCOMPARE(skipEntry["details"]["replay_sql_file"].get<std::string>(), sqlFile);
        QVERIFY2(skipEntry["details"]["preview"]["rows_missing"].get<int>() >= 1, skipEntry.dump(2).c_str());

        // After the DBA's fix, the saved SQL restores what the skip left out; run twice, nothing changes.
        const std::string sql = readTextFile(sqlFile);
        QVERIFY2(sql.find("`prv`.`t1`") != std::string::npos, sql.c_str());
        QCOMPARE(down_->queryValue("SELECT COUNT(*) FROM prv.t1 WHERE id = 5").value_or(""), std::string("0"));
        down_->execute("ALTER TABLE prv.t1 ADD c INT");
        for (int run = 0; run < 2; ++run) {
            runSql(sql);
            QCOMPARE(checksum(*down_, "prv.t1"), checksum(*up_, "prv.t1"));
            QCOMPARE(checksum(*down_, "prv.t2"), checksum(*up_, "prv.t2"));
        }
    }

    void resumeFromGoingBackIsListedAsAppliedAgain() {
        up_->execute("INSERT INTO prv.t2 VALUES (2, 'after the skip')");  // the global point moves past the skip
        QVERIFY(syncscope::test::waitFor(
            [&] { return down_->queryValue("SELECT COUNT(*) FROM prv.t2 WHERE id = 2").value_or("") == "1"; }));
        QCOMPARE(post("/api/v1/pause").status, kHttpOk);
        QVERIFY(waitForStage("Paused"));
        const std::string path =
            "/api/v1/preview/resume-from?binlog_name=" + beforeFile_ + "&binlog_pos=" + std::to_string(beforePos_);
        Answer answer = get(path);
        QCOMPARE(answer.status, kHttpOk);
        json preview = answer.parsed()["preview"];
        QVERIFY(!preview["skips"].get<bool>());
        QVERIFY2(preview["transactions"].get<int>() >= 1, preview.dump(2).c_str());
        QCOMPARE(preview["rows_missing"].get<int>(), 0);  // the replayed SQL restored the skipped rows
        QVERIFY(preview["rows_equal"].get<int>() >= 2);
        CliResult text = cli({QStringLiteral("preview"), QStringLiteral("resume-from"),
                              QString::fromStdString(beforeFile_ + ":" + std::to_string(beforePos_)),
                              QStringLiteral("--control"), control()});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.find("APPLIED AGAIN") != std::string::npos, text.out.c_str());
        QCOMPARE(stage(), std::string("Paused"));  // a preview changes nothing
    }

    void resumeFromGoingForwardSavesTheSkippedRowsNamedInItsAuditEntry() {
        QCOMPARE(stage(), std::string("Paused"));
        const size_t savedBefore = savedSqlFiles().size();
        auto atStart = up_->query("SHOW MASTER STATUS");
        const std::string startFile = *atStart.front()[0];
        const std::string startPos = *atStart.front()[1];
        // Written while the task is paused: a forward resume-from past them skips an insert, an update and a
        // delete, in two tables.
        up_->execute("START TRANSACTION");
        up_->execute("INSERT INTO prv.t1 VALUES (7, 70, 700)");
        up_->execute("UPDATE prv.t2 SET v = 'changed, skipped' WHERE id = 2");
        up_->execute("COMMIT");
        up_->execute("DELETE FROM prv.t2 WHERE id = 1");
        auto master = up_->query("SHOW MASTER STATUS");
        const std::string target = *master.front()[0] + ":" + *master.front()[1];

        // A file the upstream does not have is refused, and nothing is saved for it.
        Answer purged = post("/api/v1/resume-from", R"({"binlog_name": "mariadb-bin.999999", "binlog_pos": 4})");
        QCOMPARE(purged.status, kHttpBadRequest);
        QVERIFY2(purged.parsed()["error"].get<std::string>().find("(purged, or never written)") != std::string::npos,
                 purged.body.c_str());
        QCOMPARE(savedSqlFiles().size(), savedBefore);
        QCOMPARE(stage(), std::string("Paused"));
        // The second event of the transaction above lies inside it; a GTID domain the upstream never wrote is
        // no place either: both refused by name, nothing saved, the persisted point unchanged.
        auto inside = up_->query("SHOW BINLOG EVENTS IN '" + startFile + "' FROM " + startPos + " LIMIT 2");
        const std::string insidePos = *inside.at(1)[1];
        Answer halfway =
            post("/api/v1/resume-from", R"({"binlog_name": ")" + startFile + R"(", "binlog_pos": )" + insidePos + "}");
        QCOMPARE(halfway.status, kHttpBadRequest);
        QVERIFY2(halfway.parsed()["error"].get<std::string>().find("is in the middle of") != std::string::npos,
                 halfway.body.c_str());
        CliResult neverWritten =
            cli({QStringLiteral("resume-from"), QStringLiteral("77-1-5"), QStringLiteral("--control"), control()});
        QCOMPARE(neverWritten.exitCode, 1);
        QVERIFY2(neverWritten.err.find("never wrote domain 77") != std::string::npos, neverWritten.err.c_str());
        QCOMPARE(savedSqlFiles().size(), savedBefore);
        QCOMPARE(stage(), std::string("Paused"));

        CliResult moved = cli(
            {QStringLiteral("resume-from"), QString::fromStdString(target), QStringLiteral("--control"), control()});
        QVERIFY2(moved.exitCode == 0, (moved.out + moved.err).c_str());
        const std::string marker = "replay SQL (in the audit entry too): ";
        const size_t at = moved.out.find(marker);
        QVERIFY2(at != std::string::npos, moved.out.c_str());
        std::string sqlFile = moved.out.substr(at + marker.size());
        sqlFile = sqlFile.substr(0, sqlFile.find('\n'));
        QCOMPARE(savedSqlFiles().size(), savedBefore + 1);
        QVERIFY(std::filesystem::exists(sqlFile));
        QVERIFY(waitForStage("Running"));
        json entry;
        QVERIFY(syncscope::test::waitFor([&] {
            for (const json& line : auditLines()) {
                if (line.value("action", std::string()) == "resume-from") {
                    entry = line;
                }
            }
            return entry.is_object();
        }));
        QCOMPARE(entry["details"]["replay_sql_file"].get<std::string>(), sqlFile);
        QCOMPARE(entry["details"]["preview"]["transactions"].get<int>(), 2);
        QCOMPARE(entry["details"]["preview"]["rows_missing"].get<int>(), 1);
        QCOMPARE(entry["details"]["preview"]["rows_different"].get<int>(), 1);
        QCOMPARE(entry["details"]["preview"]["rows_not_deleted"].get<int>(), 1);

        // The task went on past the skipped rows: the downstream lacks them until the saved SQL runs.
        up_->execute("INSERT INTO prv.t2 VALUES (3, 'after the resume')");
        QVERIFY(syncscope::test::waitFor(
            [&] { return down_->queryValue("SELECT COUNT(*) FROM prv.t2 WHERE id = 3").value_or("") == "1"; }));
        QCOMPARE(down_->queryValue("SELECT COUNT(*) FROM prv.t1 WHERE id = 7").value_or(""), std::string("0"));
        QVERIFY(checksum(*down_, "prv.t2") != checksum(*up_, "prv.t2"));
        const std::string sql = readTextFile(sqlFile);
        QVERIFY2(sql.find("resume-from " + target) != std::string::npos, sql.c_str());
        for (int run = 0; run < 2; ++run) {
            runSql(sql);
            QCOMPARE(checksum(*down_, "prv.t1"), checksum(*up_, "prv.t1"));
            QCOMPARE(checksum(*down_, "prv.t2"), checksum(*up_, "prv.t2"));
        }
    }

    void cleanupTestCase() { stopRun(run_, kCliTimeoutMs); }
};

QTEST_MAIN(ControlPreviewTest)
#include "test_control_preview.moc"
