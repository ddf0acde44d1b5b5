// The overview over real engines, offscreen (issue 14): a local task applying on the MariaDB pair, a
// remote `syncscope-cli run --listen` over HTTPS with a bearer token, MariaDB's own replica of the pair's
// upstream whose SQL thread fails on a row, and bad entries beside them (a wrong token, a CA that did not
// sign the engine's certificate, an unreachable replica): every one shows the right state on the
// overview and the bad ones say why, the others unaffected. The failed replica row is opened, its event
// (decoded from the upstream's binlog) shown, and skipped through the GUI's confirmation; the remote
// engine is paused and resumed through the GUI; the lost connection shows when it was last seen.
#include <QtTest>

#include <QApplication>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>

#include <fstream>

#include "tests/support/native_replica.h"
#include "tests/support/task_files.h"
#include "tests/support/test_env.h"
#include "tests/ui/support/real_task.h"
#include "ui/dialogs/skip_event_dialog.h"
#include "ui/engine/engine_adapter.h"
#include "ui/fleet/fleet_model.h"
#include "ui/main/fleet_controller.h"
#include "ui/main/main_window.h"
#include "ui/main/task_actions.h"
#include "ui/main/task_view.h"
#include "ui/overview/overview_page.h"
#include "ui/pages/failed_event_panel.h"

using namespace syncscope;
using namespace syncscope::ui;
using source::UpstreamConnection;

namespace {

constexpr int kWaitMs = 60000;
constexpr int kWidth = 1280;
constexpr int kHeight = 800;
const char* const kToken = "fleet-test-token-0123456789";

QString screenshotPath(const char* name) {
    return QString::fromStdString(test::outputDir("ui")) + "/" + name;
}

int rowLabelled(const FleetModel& model, const QString& prefix) {
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.rowAt(row).label.startsWith(prefix)) {
            return row;
        }
    }
    return -1;
}

QString describe(const FleetModel& model) {
    QString text;
    for (int row = 0; row < model.rowCount(); ++row) {
        const FleetModel::Row& r = model.rowAt(row);
        text += QStringLiteral("%1 [%2] %3\n").arg(r.label, r.stage, r.lastError);
    }
    return text;
}

}  // namespace

class FleetRealEnginesTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString certs_;
    QProcess remote_;
    int remotePort_ = 0;
    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> down_;
    std::unique_ptr<UpstreamConnection> replica_;

    void resetSchema(const std::string& schema, bool onReplica) {
        for (auto* server : {up_.get(), down_.get()}) {
            server->execute("SET SESSION sql_log_bin = 0");
            server->execute("DROP DATABASE IF EXISTS " + schema);
            server->execute("CREATE DATABASE " + schema);
            server->execute("CREATE TABLE " + schema + ".t (id INT PRIMARY KEY, v VARCHAR(20))");
            server->execute("SET SESSION sql_log_bin = 1");
        }
        if (onReplica) {
            replica_->execute("SET SESSION sql_log_bin = 0");
            replica_->execute("DROP DATABASE IF EXISTS " + schema);
            replica_->execute("CREATE DATABASE " + schema);
            replica_->execute("CREATE TABLE " + schema + ".t (id INT PRIMARY KEY, v VARCHAR(20))");
        }
        down_->execute("CREATE DATABASE IF NOT EXISTS dm_meta");
    }

    test::TaskFiles taskFiles(const std::string& name, const std::string& schema) {
        down_->execute("DROP TABLE IF EXISTS dm_meta." + name + "_syncer_checkpoint");
        auto [file, pos] = test::masterPosition(*up_);
        test::TaskFileOptions options;
        options.name = name;
        options.binlogName = file;
        options.binlogPos = pos;
        options.instanceExtra = "    block-allow-list: \"only\"\n";
        options.topLevelExtra = "block-allow-list:\n  only: {do-dbs: [\"" + schema + "\"]}\n";
        return test::writeTaskFiles(dir_.path().toStdString(), options);
    }

    ChannelSpec remoteSpec(const QString& caFile, const QString& tokenFile) {
        ChannelSpec spec;
        spec.kind = ChannelKind::RemoteEngine;
        spec.host = QStringLiteral("127.0.0.1");
        spec.port = remotePort_;
        spec.tls = true;
        spec.caFile = caFile;
        spec.tokenFile = tokenFile;
        return spec;
    }

    QString writeFile(const QString& name, const std::string& text) {
        const QString path = dir_.filePath(name);
        std::ofstream(path.toStdString()) << text << "\n";
        return path;
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("SyncScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_fleet_real_engines"));
        QVERIFY(dir_.isValid());
        up_ = test::connectUpstream();
        down_ = test::connectDownstream();
        QString output;
        QVERIFY2(test::startReplicaAtUpstreamEnd(&output), qPrintable(output));
        replica_ = std::make_unique<UpstreamConnection>(test::engineSettings(test::replicaRoot()));
        certs_ = dir_.filePath(QStringLiteral("certs"));
        QProcess certs;
        certs.start(QStringLiteral(SYNCSCOPE_SOURCE_DIR "/scripts/make-test-certs"), {certs_});
        QVERIFY(certs.waitForFinished(kWaitMs) && certs.exitCode() == 0);

        // The remote engine: another process, HTTPS with a token.
        resetSchema("fleetremote", true);
        test::TaskFiles files = taskFiles("fleetremote", "fleetremote");
        writeFile(QStringLiteral("token"), kToken);
        remotePort_ = test::freeLoopbackPort();
        remote_.setProcessChannelMode(QProcess::MergedChannels);
        remote_.setStandardOutputFile(dir_.filePath(QStringLiteral("remote.log")));
        remote_.start(
            QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"),
            {QStringLiteral("run"), QString::fromStdString(files.task), QStringLiteral("--source"),
             QString::fromStdString(files.source), QStringLiteral("--log-dir"), dir_.filePath("remote-logs"),
             QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(remotePort_),
             QStringLiteral("--token-file"), dir_.filePath(QStringLiteral("token")), QStringLiteral("--tls-cert"),
             certs_ + "/server-cert.pem", QStringLiteral("--tls-key"), certs_ + "/server-key.pem"});
        QVERIFY(remote_.waitForStarted());

        // The replica's table, created through replication; then a row the replica alone loses.
        up_->execute("DROP DATABASE IF EXISTS fleetrepl");
        up_->execute("CREATE DATABASE fleetrepl");
        up_->execute("CREATE TABLE fleetrepl.t (id INT PRIMARY KEY, v VARCHAR(20))");
        up_->execute("INSERT INTO fleetrepl.t VALUES (1, 'one'), (2, 'two')");
        QVERIFY(test::waitFor([&] { return test::valueOf(*replica_, "SELECT COUNT(*) FROM fleetrepl.t") == "2"; },
                              kWaitMs));
    }

    void cleanupTestCase() {
        if (remote_.state() == QProcess::Running) {
            remote_.terminate();
            remote_.waitForFinished(kWaitMs);
        }
        replica_.reset();
        QString output;
        QVERIFY2(test::runDbpair(QStringLiteral("stop-replica"), &output), qPrintable(output));
    }

    void everyChannelShowsItsStateAndTheFailedReplicaIsSkippedThroughTheGui() {
        resetSchema("fleetlocal", true);
        test::TaskFiles local = taskFiles("fleetlocal", "fleetlocal");
        MainWindow window;
        window.resize(kWidth, kHeight);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.fleetController()->setLocalTaskOpener(
            [this](const ChannelSpec& spec, QString* error) -> std::shared_ptr<task::TaskControl> {
                try {
                    return test::openRealTask(spec.taskPath.toStdString(), spec.sourcePath.toStdString(),
                                              dir_.filePath(QStringLiteral("local-audit.jsonl")).toStdString());
                } catch (const std::exception& e) {
                    *error = QString::fromUtf8(e.what());
                    return nullptr;
                }
            });
        ChannelSpec localSpec;
        localSpec.taskPath = QString::fromStdString(local.task);
        localSpec.sourcePath = QString::fromStdString(local.source);
        window.fleetController()->addChannel(localSpec);
        window.fleetController()->addChannel(remoteSpec(certs_ + "/ca.pem", dir_.filePath(QStringLiteral("token"))));
        // The same engine twice more, each a workspace entry of its own: with a wrong token, and trusting a
        // CA that did not sign the engine's certificate.
        window.fleetController()->model()->addGroup(openChannelGroup(
            remoteSpec(certs_ + "/ca.pem", writeFile(QStringLiteral("wrong-token"), "not-the-token-000000")), {}));
        window.fleetController()->model()->addGroup(
            openChannelGroup(remoteSpec(certs_ + "/other-ca.pem", dir_.filePath(QStringLiteral("token"))), {}));
        ChannelSpec replica;
        replica.kind = ChannelKind::NativeReplica;
        replica.host = QStringLiteral("127.0.0.1");
        replica.port = test::replicaRoot().port;
        replica.user = QString::fromStdString(test::replicaRoot().user);
        replica.password = QString::fromStdString(test::replicaRoot().password);
        replica.auditPath = dir_.filePath(QStringLiteral("replica-audit.jsonl"));
        window.fleetController()->addChannel(replica);
        ChannelSpec unreachable = replica;
        unreachable.port = test::freeLoopbackPort();
        window.fleetController()->addChannel(unreachable);

        // Start the local task; make the replica fail on a row.
        const int localRow = rowLabelled(*window.fleetController()->model(), QStringLiteral("fleetlocal"));
        QVERIFY(localRow >= 0);
        QVERIFY(window.fleetController()->model()->rowAt(localRow).task->start().accepted);
        replica_->execute("SET SESSION sql_log_bin = 0");
        replica_->execute("DELETE FROM fleetrepl.t WHERE id = 2");
        up_->execute("UPDATE fleetrepl.t SET v = 'changed' WHERE id = 2");
        up_->execute("INSERT INTO fleetrepl.t VALUES (3, 'three')");
        up_->execute("INSERT INTO fleetlocal.t VALUES (1, 'local')");
        up_->execute("INSERT INTO fleetremote.t VALUES (1, 'remote')");

        FleetModel& fleet = *window.fleetController()->model();
        auto stageOf = [&](const QString& prefix) {
            const int row = rowLabelled(fleet, prefix);
            return row < 0 ? QString() : fleet.rowAt(row).stage;
        };
        // The two bad entries keep the address as their name (never reached) and are lost.
        auto badRemotes = [&] {
            QList<int> rows;
            for (int row = 0; row < fleet.rowCount(); ++row) {
                if (fleet.rowAt(row).label == QStringLiteral("127.0.0.1:%1").arg(remotePort_) &&
                    fleet.rowAt(row).stage == QStringLiteral("Lost") &&
                    fleet.rowAt(row).lastError.contains(QStringLiteral("https://"))) {
                    rows.append(row);
                }
            }
            return rows;
        };
        const bool settled = test::waitFor(
            [&] {
                window.fleetController()->refresh();
                const int replicaRow = rowLabelled(fleet, QStringLiteral("replica 127.0.0.1:%1").arg(replica.port));
                return stageOf(QStringLiteral("fleetlocal")) == QStringLiteral("Running") &&
                       stageOf(QStringLiteral("fleetremote")) == QStringLiteral("Running") &&
                       badRemotes().size() == 2 && replicaRow >= 0 && fleet.rowAt(replicaRow).snapshot &&
                       fleet.rowAt(replicaRow).snapshot->failedEvent &&
                       stageOf(QStringLiteral("replica 127.0.0.1:%1").arg(unreachable.port)) == QStringLiteral("Lost");
            },
            kWaitMs);
        QVERIFY2(settled, qPrintable(describe(fleet)));
        QVERIFY(test::waitFor([&] { return test::valueOf(*down_, "SELECT COUNT(*) FROM fleetremote.t") == "1"; }));
        const QList<int> bad = badRemotes();
        QVERIFY2(fleet.rowAt(bad[0]).lastError.contains(QStringLiteral("401")), qPrintable(describe(fleet)));
        QVERIFY2(fleet.rowAt(bad[1]).lastError.contains(QStringLiteral("certificate")), qPrintable(describe(fleet)));
        QVERIFY2(fleet.rowAt(rowLabelled(fleet, QStringLiteral("replica 127.0.0.1:%1").arg(unreachable.port)))
                     .lastError.contains(QStringLiteral("unreachable")),
                 qPrintable(describe(fleet)));
        const int replicaRow = rowLabelled(fleet, QStringLiteral("replica 127.0.0.1:%1").arg(replica.port));
        QCOMPARE(fleet.rowAt(replicaRow).stage, QStringLiteral("Error"));
        window.overview()->table()->sortByColumn(FleetModel::StageColumn, Qt::DescendingOrder);
        QTest::qWait(100);
        QVERIFY(window.grab().save(screenshotPath("overview_real_channels.png")));

        // The failed replica channel, opened: its event decoded from the upstream's binlog, then skipped
        // through the GUI's confirmation (the DBA types the table's name).
        window.fleetController()->openChannel(replicaRow);
        QVERIFY(!window.overviewShown());
        FailedEventPanel* panel = window.taskView()->failedEventPanel();
        QTRY_VERIFY_WITH_TIMEOUT(panel->hasEvent(), kWaitMs);
        QVERIFY2(panel->detailsText().contains(QStringLiteral("fleetrepl")), qPrintable(panel->detailsText()));
        QVERIFY2(panel->detailsText().contains(QStringLiteral("changed")), qPrintable(panel->detailsText()));
        QVERIFY(window.grab().save(screenshotPath("replica_failed_event.png")));
        QTimer::singleShot(200, [&] {
            auto* dialog = qobject_cast<SkipEventDialog*>(QApplication::activeModalWidget());
            if (dialog) {
                dialog->confirmationEdit()->setText(panel->skipConfirmationText());
                dialog->skipButton()->click();
            }
        });
        window.actions()->skip()->trigger();
        QVERIFY2(test::waitFor(
                     [&] { return test::valueOf(*replica_, "SELECT COUNT(*) FROM fleetrepl.t WHERE id = 3") == "1"; },
                     kWaitMs),
                 qPrintable(describe(fleet)));
        QVERIFY(test::waitFor(
            [&] {
                window.fleetController()->refresh();
                return fleet.rowAt(replicaRow).stage == QStringLiteral("Running");
            },
            kWaitMs));
        std::ifstream audit(dir_.filePath(QStringLiteral("replica-audit.jsonl")).toStdString());
        std::string line;
        std::getline(audit, line);
        QVERIFY2(line.find("\"replica-skip\"") != std::string::npos && line.find("two") != std::string::npos,
                 line.c_str());

        // The remote engine, paused and resumed from the GUI.
        window.showOverview();
        const int remoteRow = rowLabelled(fleet, QStringLiteral("fleetremote"));
        window.fleetController()->openChannel(remoteRow);
        QTRY_VERIFY_WITH_TIMEOUT(window.actions()->pause()->isEnabled(), kWaitMs);
        window.actions()->pause()->trigger();
        QVERIFY(test::waitFor([&] {
            window.fleetController()->refresh();
            return fleet.rowAt(remoteRow).stage == QStringLiteral("Paused");
        }));
        window.fleetController()->setBatchConfirmer([](const QString&) { return true; });
        window.fleetController()->runBatch(BatchCommand::Resume, {remoteRow});
        QVERIFY(test::waitFor([&] {
            window.fleetController()->refresh();
            return fleet.rowAt(remoteRow).stage == QStringLiteral("Running");
        }));

        // The remote engine goes away: shown lost with when it was last seen, not frozen healthy.
        remote_.terminate();
        QVERIFY(remote_.waitForFinished(kWaitMs));
        QVERIFY(test::waitFor([&] {
            window.fleetController()->refresh();
            return fleet.rowAt(remoteRow).stage == QStringLiteral("Lost");
        }));
        QVERIFY2(fleet.rowAt(remoteRow).lastError.contains(QStringLiteral("last seen")),
                 qPrintable(fleet.rowAt(remoteRow).lastError));
        // The others are unaffected: the replica still runs (its skip held), the local task too.
        QCOMPARE(fleet.rowAt(replicaRow).stage, QStringLiteral("Running"));
        QCOMPARE(fleet.rowAt(localRow).stage, QStringLiteral("Running"));
        window.showOverview();
        QTest::qWait(100);
        QVERIFY(window.grab().save(screenshotPath("overview_remote_lost.png")));
        QVERIFY(fleet.rowAt(localRow).task->stop().accepted);
    }
};

QTEST_MAIN(FleetRealEnginesTest)
#include "test_fleet_real_engines.moc"
