// A remote engine's history charts start with the engine's own last minutes (issue 14, API revision 4), offscreen:
// `syncscope-cli run --listen` on the real pair applies rows for a few seconds before the GUI adds it. Proves: GET
// /api/v1/history answers the engine's samples (revision 4 lists it; ?since= keeps the later ones; a malformed since
// is 400 naming it; an unknown source 404); the remote engine opened in the task view fills its charts from it with
// samples taken before the GUI connected, the rows per second the engine applied among them.
#include <QtTest>

#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <chrono>

#include "tests/support/task_files.h"
#include "tests/support/test_env.h"
#include "tests/ui/support/real_task.h"
#include "ui/engine/remote_history_loader.h"
#include "ui/fleet/channel_spec.h"
#include "ui/fleet/fleet_model.h"
#include "ui/main/fleet_controller.h"
#include "ui/main/main_window.h"
#include "ui/main/task_view.h"
#include "ui/models/history_recorder.h"

using namespace syncscope;
using namespace syncscope::ui;
using nlohmann::json;
using source::UpstreamConnection;

namespace {

constexpr int kWaitMs = 60000;
constexpr int kHttpOk = 200;
constexpr int kHttpBadRequest = 400;
constexpr int kHttpNotFound = 404;
constexpr size_t kSamplesBeforeTheGui = 4;  // seconds of history the engine has when the GUI connects
constexpr int kRowsPerInsert = 20;
const char* const kSchema = "remotehist";

struct HttpAnswer {
    int status = 0;
    json body;
};

qint64 msecsNow() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace

class RemoteHistoryTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QProcess remote_;
    int port_ = 0;
    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> down_;
    int nextId_ = 1;

    HttpAnswer get(const std::string& path) {
        httplib::Client client("127.0.0.1", port_);
        client.set_read_timeout(std::chrono::seconds(10));
        auto res = client.Get(path.c_str());
        return res ? HttpAnswer{res->status, json::parse(res->body, nullptr, false)} : HttpAnswer{};
    }

    void insertRows() {
        std::string sql = std::string("INSERT INTO ") + kSchema + ".t VALUES ";
        for (int i = 0; i < kRowsPerInsert; ++i) {
            sql += (i ? "," : "") + ("(" + std::to_string(nextId_++) + ", 'row')");
        }
        up_->execute(sql);
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("SyncScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_remote_history"));
        QVERIFY(dir_.isValid());
        up_ = test::connectUpstream();
        down_ = test::connectDownstream();
        for (auto* server : {up_.get(), down_.get()}) {
            server->execute("SET SESSION sql_log_bin = 0");
            server->execute(std::string("DROP DATABASE IF EXISTS ") + kSchema);
            server->execute(std::string("CREATE DATABASE ") + kSchema);
            server->execute(std::string("CREATE TABLE ") + kSchema + ".t (id INT PRIMARY KEY, v VARCHAR(20))");
            server->execute("SET SESSION sql_log_bin = 1");
        }
        down_->execute("CREATE DATABASE IF NOT EXISTS dm_meta");
        down_->execute(std::string("DROP TABLE IF EXISTS dm_meta.") + kSchema + "_syncer_checkpoint");
        auto [file, pos] = test::masterPosition(*up_);
        test::TaskFileOptions options;
        options.name = kSchema;
        options.binlogName = file;
        options.binlogPos = pos;
        options.instanceExtra = "    block-allow-list: \"only\"\n";
        options.topLevelExtra = std::string("block-allow-list:\n  only: {do-dbs: [\"") + kSchema + "\"]}\n";
        test::TaskFiles files = test::writeTaskFiles(dir_.path().toStdString(), options);

        port_ = test::freeLoopbackPort();
        remote_.setProcessChannelMode(QProcess::MergedChannels);
        remote_.setStandardOutputFile(dir_.filePath(QStringLiteral("remote.log")));
        remote_.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"),
                      {QStringLiteral("run"), QString::fromStdString(files.task), QStringLiteral("--source"),
                       QString::fromStdString(files.source), QStringLiteral("--log-dir"), dir_.filePath("logs"),
                       QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(port_)});
        QVERIFY(remote_.waitForStarted());
        QVERIFY2(test::waitFor(
                     [&] {
                         const json status = get("/api/v1/status").body;
                         return status.is_object() && status.value("stage", std::string()) == "Running";
                     },
                     kWaitMs),
                 qPrintable(dir_.filePath(QStringLiteral("remote.log"))));
    }

    void cleanupTestCase() {
        if (remote_.state() == QProcess::Running) {
            remote_.terminate();
            remote_.waitForFinished(kWaitMs);
        }
    }

    void theEngineServesItsHistory() {
        // Rows applied while the engine keeps its samples, until it has a few seconds of them.
        HttpAnswer history;
        QVERIFY2(test::waitFor(
                     [&] {
                         insertRows();
                         history = get("/api/v1/history");
                         return history.status == kHttpOk && history.body["samples"].size() >= kSamplesBeforeTheGui;
                     },
                     kWaitMs),
                 history.body.dump(2).c_str());
        const json& samples = history.body["samples"];
        bool applied = false;
        for (const json& sample : samples) {
            applied = applied || sample["rows_per_second"].get<double>() > 0;
        }
        // The first samples may come before the upstream's first poll (null: unknown), not the latest.
        QVERIFY2(samples.back()["upstream_axis_bytes"].is_number(), samples.back().dump().c_str());
        QVERIFY2(applied, history.body.dump(2).c_str());
        QCOMPARE(history.body["window_seconds"].get<int>(), 600);

        HttpAnswer version = get("/api/v1/version");
        QVERIFY2(version.body["revision"].get<int>() >= 4, version.body.dump().c_str());
        bool listed = false;
        for (const json& endpoint : version.body["endpoints"]) {
            listed = listed || endpoint == "GET /api/v1/history?since=TIME";
        }
        QVERIFY2(listed, version.body.dump().c_str());

        // ?since= keeps the samples taken after it.
        const std::string secondAt = samples[1]["at"].get<std::string>();
        HttpAnswer later = get("/api/v1/history?since=" + secondAt);
        QCOMPARE(later.status, kHttpOk);
        QVERIFY2(!later.body["samples"].empty() && later.body["samples"].size() < samples.size() + 2 &&
                     later.body["samples"][0]["at"].get<std::string>() > secondAt,
                 later.body.dump(2).c_str());

        HttpAnswer malformed = get("/api/v1/history?since=yesterday");
        QCOMPARE(malformed.status, kHttpBadRequest);
        QVERIFY2(malformed.body["error"].get<std::string>().find("since") != std::string::npos &&
                     malformed.body["error"].get<std::string>().find("yesterday") != std::string::npos,
                 malformed.body.dump().c_str());
        QCOMPARE(get("/api/v1/history?source=no-such-source").status, kHttpNotFound);
    }

    void theRemoteEnginesChartsStartWithItsHistory() {
        const qint64 connectedAt = msecsNow();
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        ChannelSpec spec;
        spec.kind = ChannelKind::RemoteEngine;
        spec.host = QStringLiteral("127.0.0.1");
        spec.port = port_;
        window.fleetController()->addChannel(spec);
        FleetModel& fleet = *window.fleetController()->model();
        int row = -1;
        for (int i = 0; i < fleet.rowCount(); ++i) {
            row = fleet.rowAt(i).kind == ChannelKind::RemoteEngine ? i : row;
        }
        QVERIFY(row >= 0);
        QSignalSpy loaded(window.taskView()->historyLoader(), &RemoteHistoryLoader::loaded);
        window.fleetController()->openChannel(row);
        QVERIFY(loaded.wait(kWaitMs));
        QVERIFY2(loaded.front().at(1).toString().isEmpty(), qPrintable(loaded.front().at(1).toString()));
        QVERIFY2(loaded.front().at(0).toInt() >= static_cast<int>(kSamplesBeforeTheGui) - 1,
                 qPrintable(QString::number(loaded.front().at(0).toInt())));

        // Samples from before the GUI connected, the rows the engine applied then among them.
        const std::deque<HistorySample>& samples = window.taskView()->history()->samples();
        QVERIFY(!samples.empty());
        QVERIFY2(samples.front().atMsecs < connectedAt - 2000,
                 qPrintable(QStringLiteral("first sample %1 ms before the GUI connected")
                                .arg(connectedAt - samples.front().atMsecs)));
        bool appliedBefore = false;
        for (const HistorySample& sample : samples) {
            appliedBefore = appliedBefore || (sample.atMsecs < connectedAt && sample.rowsPerSecond > 0);
        }
        QVERIFY(appliedBefore);
        for (size_t i = 1; i < samples.size(); ++i) {
            QVERIFY(samples[i - 1].atMsecs < samples[i].atMsecs);  // one time line, oldest first
        }
    }
};

QTEST_MAIN(RemoteHistoryTest)
#include "test_remote_history.moc"
