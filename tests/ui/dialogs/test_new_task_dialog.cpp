// The New Task dialog against the private MariaDB pair: both connections are tested off the GUI
// thread with one message per side, a wrong password names its side and saves nothing, and the task
// file and source file it writes load back with the engine's loader (and build a task setup); through
// the main window a saved task is handed on to be opened. Saves the dialog's screenshot for review.
#include <QtTest>

#include <QFile>
#include <QPushButton>
#include <QTemporaryDir>

#include "engine/task/task_setup_builder.h"
#include "tests/support/test_env.h"
#include "ui/dialogs/new_task_dialog.h"
#include "ui/dialogs/precheck_dialog.h"
#include "ui/main/main_window.h"

using namespace syncscope;
using namespace syncscope::ui;

namespace {

ServerSettings toSettings(const test::ServerSettings& s) {
    ServerSettings settings;
    settings.host = s.host;
    settings.port = s.port;
    settings.user = s.user;
    settings.password = s.password;
    return settings;
}

bool waitForTest(NewTaskDialog& dialog) {
    constexpr int kTestTimeoutMs = 30000;
    QSignalSpy tested(&dialog, &NewTaskDialog::connectionsTested);
    return tested.wait(kTestTimeoutMs) && !dialog.isTesting();
}

}  // namespace

class NewTaskDialogTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    // The pair, the target's password in a file beside the task (relative path), the source's typed.
    NewTaskSpec pairSpec() const {
        NewTaskSpec spec;
        spec.name = "orders_sync";
        spec.metaSchema = "gui_newtask_meta";
        spec.target.server = toSettings(test::downstreamRoot());
        spec.target.server.password.clear();
        spec.target.passwordFile = "target-password.txt";
        spec.sourceId = "mariadb-up-01";
        spec.source.server = toSettings(test::upstreamReplication());
        spec.flavor = "mariadb";
        spec.enableGtid = true;
        spec.startGtid = "0-1-1";
        spec.doDbs = {"shop", "billing"};
        spec.workerCount = 4;
        spec.batch = 250;
        spec.checkpointFlushIntervalSeconds = 5;
        return spec;
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("SyncScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_new_task_dialog"));
        QVERIFY(dir_.isValid());
        QFile password(dir_.filePath(QStringLiteral("target-password.txt")));
        QVERIFY(password.open(QIODevice::WriteOnly));
        password.write(QByteArray::fromStdString(test::downstreamRoot().password + "\n"));
    }

    void bothConnectionsAreTestedWithAMessagePerSide() {
        NewTaskDialog dialog;
        dialog.setSpec(pairSpec());
        dialog.setDirectory(dir_.path());
        QVERIFY2(dialog.problem().isEmpty(), qPrintable(dialog.problem()));
        dialog.testConnections();
        QVERIFY(dialog.isTesting());  // in the background, not in the click
        QVERIFY(waitForTest(dialog));
        QVERIFY2(dialog.sourceStatus().startsWith(QStringLiteral("Source (upstream)")),
                 qPrintable(dialog.sourceStatus()));
        QVERIFY2(dialog.sourceStatus().contains(QStringLiteral(": OK, ")), qPrintable(dialog.sourceStatus()));
        QVERIFY2(dialog.sourceStatus().contains(QStringLiteral("MariaDB")), qPrintable(dialog.sourceStatus()));
        QVERIFY2(dialog.targetStatus().startsWith(QStringLiteral("Target (downstream)")),
                 qPrintable(dialog.targetStatus()));
        QVERIFY2(dialog.targetStatus().contains(QStringLiteral(": OK, ")), qPrintable(dialog.targetStatus()));
        QVERIFY(dialog.taskPath().isEmpty());  // a test saves nothing
        QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("orders_sync-task.yaml"))));
    }

    void wrongPasswordNamesTheSideAndSavesNothing() {
        NewTaskDialog dialog;
        NewTaskSpec spec = pairSpec();
        spec.source.server.password = "not-the-password-4711";
        dialog.setSpec(spec);
        dialog.setDirectory(dir_.path());
        dialog.resize(1000, 640);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QSignalSpy saved(&dialog, &NewTaskDialog::taskSaved);
        dialog.saveButton()->click();
        QVERIFY(waitForTest(dialog));
        QVERIFY2(dialog.sourceStatus().startsWith(QStringLiteral("Source (upstream)")),
                 qPrintable(dialog.sourceStatus()));
        QVERIFY2(dialog.sourceStatus().contains(QStringLiteral("1045")), qPrintable(dialog.sourceStatus()));
        QVERIFY(!dialog.sourceStatus().contains(QStringLiteral("not-the-password-4711")));
        QVERIFY2(dialog.targetStatus().contains(QStringLiteral(": OK, ")), qPrintable(dialog.targetStatus()));
        QVERIFY(dialog.errorText().contains(QStringLiteral("Nothing was saved")));
        QCOMPARE(saved.count(), 0);
        QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("orders_sync-task.yaml"))));
        QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("mariadb-up-01-source.yaml"))));
        QVERIFY(dialog.grab().save(QString::fromStdString(test::outputDir("ui")) + "/newtask_wrong_password.png"));

        // The target's side is named too, and a missing password file is said as such.
        spec = pairSpec();
        spec.target.passwordFile = "no-such-password-file";
        dialog.setSpec(spec);
        dialog.testConnections();
        QVERIFY(waitForTest(dialog));
        QVERIFY2(dialog.targetStatus().startsWith(QStringLiteral("Target (downstream)")),
                 qPrintable(dialog.targetStatus()));
        QVERIFY2(dialog.targetStatus().contains(QStringLiteral("no-such-password-file")),
                 qPrintable(dialog.targetStatus()));
        QVERIFY(dialog.sourceStatus().contains(QStringLiteral(": OK, ")));
    }

    // Precheck... checks the fields as they stand (the password read from its file) and saves nothing.
    void precheckRunsOnTheFieldsAsTypedAndSavesNothing() {
        NewTaskDialog dialog;
        NewTaskSpec spec = pairSpec();
        spec.name = "precheck_typed";
        dialog.setSpec(spec);
        dialog.setDirectory(dir_.path());
        QVERIFY(dialog.precheckButton()->isEnabled());
        PrecheckDialog* precheck = dialog.openPrecheck();
        QVERIFY2(precheck != nullptr, qPrintable(dialog.errorText()));
        QSignalSpy finished(precheck, &PrecheckDialog::precheckFinished);
        QVERIFY(finished.wait(30000));
        QCOMPARE(precheck->report().task, std::string("precheck_typed"));
        QVERIFY(precheck->report().withCheck("downstream.connection").empty());  // the password file was read
        QVERIFY(precheck->report().withCheck("upstream.connection").empty());
        QVERIFY(precheck->summary().contains(QStringLiteral("exit code")));
        QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("precheck_typed-task.yaml"))));

        spec.target.passwordFile = "no-such-password-file";
        dialog.setSpec(spec);
        QCOMPARE(dialog.openPrecheck(), nullptr);
        QVERIFY2(dialog.errorText().contains(QStringLiteral("no-such-password-file")), qPrintable(dialog.errorText()));
    }

    void emptyFieldsAreNamed() {
        NewTaskDialog dialog;
        NewTaskSpec spec = pairSpec();
        spec.target.server.user.clear();
        dialog.setSpec(spec);
        dialog.setDirectory(dir_.path());
        QCOMPARE(dialog.problem(), QStringLiteral("Target: the user is empty."));
        spec = pairSpec();
        spec.name.clear();
        dialog.setSpec(spec);
        QCOMPARE(dialog.problem(), QStringLiteral("Task: the name is empty."));
        dialog.setSpec(pairSpec());
        dialog.setDirectory(dir_.filePath(QStringLiteral("no/such/folder")));
        QVERIFY(dialog.problem().startsWith(QStringLiteral("Save in:")));
    }

    void aBadStartGtidIsRefusedByTheLoaderAndNothingIsWritten() {
        NewTaskDialog dialog;
        NewTaskSpec spec = pairSpec();
        spec.name = "bad_gtid";
        spec.startGtid = "not-a-gtid";
        dialog.setSpec(spec);
        dialog.setDirectory(dir_.path());
        dialog.saveButton()->click();
        QVERIFY(waitForTest(dialog));
        QVERIFY2(dialog.errorText().contains(QStringLiteral("binlog-gtid")), qPrintable(dialog.errorText()));
        QVERIFY2(dialog.errorText().contains(QStringLiteral("not a GTID set")), qPrintable(dialog.errorText()));
        QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("bad_gtid-task.yaml"))));
        QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("mariadb-up-01-source.yaml"))));
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
    }

    void savedFilesLoadBackWithTheEngineLoader() {
        NewTaskDialog dialog;
        dialog.setSpec(pairSpec());
        dialog.setDirectory(dir_.path());
        dialog.resize(1000, 640);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QSignalSpy saved(&dialog, &NewTaskDialog::taskSaved);
        dialog.testConnections();
        QVERIFY(waitForTest(dialog));
        QVERIFY(dialog.grab().save(QString::fromStdString(test::outputDir("ui")) + "/newtask_tested.png"));
        dialog.saveButton()->click();
        QVERIFY(waitForTest(dialog));
        QCOMPARE(saved.count(), 1);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(dialog.taskPath(), dir_.filePath(QStringLiteral("orders_sync-task.yaml")));
        QCOMPARE(dialog.sourcePath(), dir_.filePath(QStringLiteral("mariadb-up-01-source.yaml")));

        const config::TaskConfig taskConfig = config::loadTaskConfig(dialog.taskPath().toStdString());
        const config::SourceConfig sourceConfig = config::loadSourceConfig(dialog.sourcePath().toStdString());
        QCOMPARE(taskConfig.name, std::string("orders_sync"));
        QCOMPARE(taskConfig.metaSchema, std::string("gui_newtask_meta"));
        QCOMPARE(taskConfig.targetDatabase.server.port, test::downstreamRoot().port);
        QCOMPARE(taskConfig.targetDatabase.server.password, test::downstreamRoot().password);
        QCOMPARE(taskConfig.targetDatabase.passwordSource.kind, config::PasswordSource::Kind::File);
        QCOMPARE(sourceConfig.sourceId, std::string("mariadb-up-01"));
        QCOMPARE(sourceConfig.flavor, std::string("mariadb"));
        QVERIFY(sourceConfig.enableGtid);
        QCOMPARE(sourceConfig.from.server.user, test::upstreamReplication().user);
        QCOMPARE(sourceConfig.from.server.password, test::upstreamReplication().password);
        // A typed password is in the file: only its owner may read it.
        QCOMPARE(QFile::permissions(dialog.sourcePath()) & (QFile::ReadGroup | QFile::ReadOther),
                 QFileDevice::Permissions());

        std::vector<std::string> warnings;
        const config::InstanceSettings instance = taskConfig.instanceFor(sourceConfig, &warnings);
        QCOMPARE(instance.syncer.workerCount, 4);
        QCOMPARE(instance.syncer.batch, 250);
        QCOMPARE(instance.syncer.checkpointFlushIntervalSeconds, 5);
        QCOMPARE(instance.blockAllow.doDbs, (std::vector<std::string>{"shop", "billing"}));
        QVERIFY(instance.meta.has_value());
        QCOMPARE(instance.meta->binlogGtid, std::string("0-1-1"));
        // What the GUI does when it opens a task.
        const task::TaskSetup setup = task::makeTaskSetup(taskConfig, sourceConfig, warnings);
        QCOMPARE(setup.taskName, std::string("orders_sync"));
    }

    void mainWindowOpensTheSavedTask() {
        QTemporaryDir folder;
        QFile::copy(dir_.filePath(QStringLiteral("target-password.txt")),
                    folder.filePath(QStringLiteral("target-password.txt")));
        MainWindow window;
        QSignalSpy open(&window, &MainWindow::openTaskRequested);
        NewTaskDialog* dialog = window.showNewTaskDialog();
        QVERIFY(dialog->isVisible());
        NewTaskSpec spec = pairSpec();
        spec.name = "from_window";
        dialog->setSpec(spec);
        dialog->setDirectory(folder.path());
        dialog->saveButton()->click();
        QVERIFY(open.wait(30000));
        const auto files = open.at(0).at(0).value<TaskFiles>();
        QCOMPARE(files.taskPath, folder.filePath(QStringLiteral("from_window-task.yaml")));
        QCOMPARE(files.sourcePath, folder.filePath(QStringLiteral("mariadb-up-01-source.yaml")));
        QCOMPARE(QSettings().value(QStringLiteral("tasks/newTaskFolder")).toString(), folder.path());
    }
};

QTEST_MAIN(NewTaskDialogTest)
#include "test_new_task_dialog.moc"
