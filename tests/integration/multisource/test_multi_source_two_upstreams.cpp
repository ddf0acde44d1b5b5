// A DM task with two sources on two different upstream servers writing into one downstream (issue 14): the test
// pair's upstream and a third MariaDB server (tests/support/second_pair.h: the upstream of a second pair that
// `scripts/dbpair` starts on the ports after the test pair's; its downstream only idles), stopped at the end. Proves:
// both sources' rows equal downstream (count and CHECKSUM TABLE); each source's global row is a point of its own
// upstream's binlog; `status` checks each source against its own upstream; the second upstream paused through the API,
// restarted for maintenance while the first keeps applying, resumed: everything written meanwhile on both arrives.
#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "engine/source/upstream_connection.h"
#include "tests/support/multi_source_files.h"
#include "tests/support/second_pair.h"
#include "tests/support/sql_values.h"
#include "tests/support/test_env.h"

using nlohmann::json;
using syncscope::source::UpstreamConnection;
using syncscope::test::checksumOf;
using syncscope::test::readTextFile;
using syncscope::test::valueOf;

namespace {

constexpr int kCliTimeoutMs = 60000;
constexpr int kHttpOk = 200;
constexpr int kRows = 250;
const char* const kTaskName = "ms3_task";
const char* const kSourceFirst = "ms3-first";
const char* const kSourceSecond = "ms3-second";
const char* const kDatabaseFirst = "ms3_first";
const char* const kDatabaseSecond = "ms3_second";

class MultiSourceTwoUpstreamsTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> second_;
    std::unique_ptr<UpstreamConnection> down_;
    QTemporaryDir dir_;
    std::string configDir_;
    std::string logDir_;
    std::string taskFile_;
    std::string firstSource_;
    std::string secondSource_;
    syncscope::test::ServerSettings secondRoot_;
    int port_ = 0;
    QProcess run_;
    int nextId_ = 1;
    syncscope::test::SecondPair secondPair_;

    bool equalSoon(UpstreamConnection& upstream, const std::string& database) {
        return syncscope::test::waitFor([&] {
            const std::string count = "SELECT COUNT(*) FROM " + database + ".t";
            return valueOf(upstream, count) == valueOf(*down_, count) &&
                   checksumOf(upstream, database + ".t") == checksumOf(*down_, database + ".t");
        });
    }

    void insertRows(UpstreamConnection& upstream, const std::string& database) {
        std::string sql = "INSERT INTO " + database + ".t VALUES ";
        for (int i = 0; i < kRows; ++i) {
            sql += (i ? "," : "") + ("(" + std::to_string(nextId_) + ", 'row " + std::to_string(nextId_) + "')");
            ++nextId_;
        }
        upstream.execute(sql);
    }

    json get(const std::string& path) {
        httplib::Client client("127.0.0.1", port_);
        client.set_read_timeout(std::chrono::seconds(10));
        auto res = client.Get(path.c_str());
        return res ? json::parse(res->body, nullptr, false) : json();
    }

    int post(const std::string& path) {
        httplib::Client client("127.0.0.1", port_);
        client.set_read_timeout(std::chrono::seconds(10));
        auto res = client.Post(path.c_str(), "", "application/json");
        return res ? res->status : 0;
    }

    std::string stageOf(const std::string& sourceId) {
        json s = get("/api/v1/status?source=" + sourceId);
        return s.is_object() ? s.value("stage", std::string()) : std::string();
    }

    std::string globalFileOf(const std::string& sourceId) {
        return valueOf(*down_, std::string("SELECT CONCAT(binlog_name, ':', binlog_pos) FROM dm_meta.`") + kTaskName +
                                   "_syncer_checkpoint` WHERE id = '" + sourceId + "' AND is_global = 1");
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QString output;
        QVERIFY2(secondPair_.start(&output), qPrintable(output));

        configDir_ = dir_.filePath(QStringLiteral("config")).toStdString();
        logDir_ = dir_.filePath(QStringLiteral("logs")).toStdString();
        std::filesystem::create_directories(configDir_);
        std::filesystem::create_directories(logDir_);
        secondRoot_ = syncscope::test::SecondPair::upstreamRoot();
        const auto secondReplication = syncscope::test::SecondPair::upstreamReplication();
        up_ = std::make_unique<UpstreamConnection>(syncscope::test::engineSettings(syncscope::test::upstreamRoot()));
        second_ = std::make_unique<UpstreamConnection>(syncscope::test::engineSettings(secondRoot_));
        down_ =
            std::make_unique<UpstreamConnection>(syncscope::test::engineSettings(syncscope::test::downstreamRoot()));
        const std::pair<UpstreamConnection*, const char*> created[] = {{up_.get(), kDatabaseFirst},
                                                                       {second_.get(), kDatabaseSecond},
                                                                       {down_.get(), kDatabaseFirst},
                                                                       {down_.get(), kDatabaseSecond}};
        for (const auto& [server, database] : created) {
            server->execute("SET SESSION sql_log_bin = 0");
            server->execute(std::string("DROP DATABASE IF EXISTS ") + database);
            server->execute(std::string("CREATE DATABASE ") + database);
            server->execute(std::string("CREATE TABLE ") + database + ".t (id INT PRIMARY KEY, v VARCHAR(40))");
            server->execute("SET SESSION sql_log_bin = 1");
        }
        down_->execute("CREATE DATABASE IF NOT EXISTS dm_meta");
        down_->execute(std::string("DROP TABLE IF EXISTS dm_meta.`") + kTaskName + "_syncer_checkpoint`");
        down_->execute(std::string("DROP TABLE IF EXISTS dm_meta.`") + kTaskName + "_syncscope_paused_sources`");

        firstSource_ =
            syncscope::test::writeSourceFile(configDir_, kSourceFirst, syncscope::test::upstreamReplication());
        secondSource_ = syncscope::test::writeSourceFile(configDir_, kSourceSecond, secondReplication);
        auto firstEnd = up_->query("SHOW MASTER STATUS");
        auto secondEnd = second_->query("SHOW MASTER STATUS");
        taskFile_ = syncscope::test::writeMultiSourceTaskFile(
            configDir_, kTaskName, syncscope::test::downstreamRoot(),
            {{kSourceFirst, kDatabaseFirst, *firstEnd.front()[0], std::stoull(*firstEnd.front()[1])},
             {kSourceSecond, kDatabaseSecond, *secondEnd.front()[0], std::stoull(*secondEnd.front()[1])}});
        port_ = syncscope::test::freeLoopbackPort();
        QVERIFY(port_ > 0);
    }

    void cleanupTestCase() {
        if (run_.state() == QProcess::Running) {
            run_.terminate();
            run_.waitForFinished(kCliTimeoutMs);
        }
        QString output;
        QVERIFY2(secondPair_.stop(&output), qPrintable(output));
    }

    void bothUpstreamsApplyIntoOneDownstream() {
        run_.setStandardErrorFile(QString::fromStdString(logDir_ + "/run-stderr.txt"), QIODevice::Append);
        run_.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"),
                   {QStringLiteral("run"), QString::fromStdString(taskFile_), QStringLiteral("--source"),
                    QString::fromStdString(firstSource_), QStringLiteral("--source"),
                    QString::fromStdString(secondSource_), QStringLiteral("--log-dir"), QString::fromStdString(logDir_),
                    QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(port_)});
        QVERIFY(run_.waitForStarted());
        const std::string stderrFile = logDir_ + "/run-stderr.txt";
        QVERIFY2(syncscope::test::waitFor(
                     [&] { return stageOf(kSourceFirst) == "Running" && stageOf(kSourceSecond) == "Running"; }),
                 readTextFile(stderrFile).c_str());
        for (int round = 0; round < 3; ++round) {
            insertRows(*up_, kDatabaseFirst);
            insertRows(*second_, kDatabaseSecond);
        }
        second_->execute(std::string("UPDATE ") + kDatabaseSecond +
                         ".t SET v = CONCAT(v, ' updated') WHERE id % 5 = 0");
        up_->execute(std::string("DELETE FROM ") + kDatabaseFirst + ".t WHERE id % 7 = 0");
        QVERIFY2(equalSoon(*up_, kDatabaseFirst), readTextFile(stderrFile).c_str());
        QVERIFY2(equalSoon(*second_, kDatabaseSecond), readTextFile(stderrFile).c_str());

        // Each source keeps its own global row (a point of its own upstream's binlog).
        QVERIFY(syncscope::test::waitFor(
            [&] { return globalFileOf(kSourceFirst) != "NULL" && globalFileOf(kSourceSecond) != "NULL"; }));
    }

    void statusChecksEachSourceAgainstItsOwnUpstream() {
        QProcess status;
        status.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"),
                     {QStringLiteral("status"), QString::fromStdString(taskFile_), QStringLiteral("--source"),
                      QString::fromStdString(firstSource_), QStringLiteral("--source"),
                      QString::fromStdString(secondSource_), QStringLiteral("--json")});
        QVERIFY(status.waitForFinished(kCliTimeoutMs));
        QCOMPARE(status.exitCode(), 0);
        json report = json::parse(status.readAllStandardOutput().toStdString(), nullptr, false);
        QVERIFY2(report.is_object() && report["sources"].size() == 2, report.dump(2).c_str());
        const std::string firstServer = report["sources"][0]["upstream"]["server"].get<std::string>();
        const std::string secondServer = report["sources"][1]["upstream"]["server"].get<std::string>();
        QVERIFY2(firstServer.find(":" + std::to_string(syncscope::test::upstreamRoot().port)) != std::string::npos,
                 firstServer.c_str());
        QVERIFY2(secondServer.find(":" + std::to_string(secondRoot_.port)) != std::string::npos, secondServer.c_str());
        QCOMPARE(report["whole_task"]["anomalies"].get<int>(), 0);
    }

    void theSecondUpstreamsMaintenanceLeavesTheFirstApplying() {
        // Pause the second source, restart its upstream (its maintenance), the first keeps applying.
        QCOMPARE(post(std::string("/api/v1/pause?source=") + kSourceSecond), kHttpOk);
        QVERIFY(syncscope::test::waitFor([&] { return stageOf(kSourceSecond) == "Paused"; }));
        second_.reset();
        QString output;
        QVERIFY2(secondPair_.restartUpstream(1, &output), qPrintable(output));
        second_ = std::make_unique<UpstreamConnection>(syncscope::test::engineSettings(secondRoot_));
        insertRows(*up_, kDatabaseFirst);
        insertRows(*second_, kDatabaseSecond);
        QVERIFY(equalSoon(*up_, kDatabaseFirst));
        QCOMPARE(stageOf(kSourceFirst), std::string("Running"));
        QCOMPARE(stageOf(kSourceSecond), std::string("Paused"));

        QCOMPARE(post(std::string("/api/v1/resume?source=") + kSourceSecond), kHttpOk);
        QVERIFY2(equalSoon(*second_, kDatabaseSecond), readTextFile(logDir_ + "/run-stderr.txt").c_str());
        run_.terminate();
        QVERIFY(run_.waitForFinished(kCliTimeoutMs));
        QCOMPARE(run_.exitCode(), 0);
    }
};

}  // namespace

QTEST_GUILESS_MAIN(MultiSourceTwoUpstreamsTest)
#include "test_multi_source_two_upstreams.moc"
