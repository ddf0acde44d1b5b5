// Opening a DM task with several sources from the GUI's own dialogs, offscreen, over the real engine and the
// private MariaDB pair: File > Open task takes the task file, then its source files in one dialog
// whose title names the task's sources; New task writes a task with a typed first source and a further source
// from an existing file (its own databases). Each opens through the application's opener (app/gui) as the task's
// row with a row per source on the overview and replicates both sources' rows. A further source without
// databases is refused by the dialog with nothing written.
#include <QtTest>

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QLineEdit>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>

#include <fstream>

#include "app/gui/task_opener.h"
#include "engine/source/upstream_connection.h"
#include "tests/support/multi_source_files.h"
#include "tests/support/sql_values.h"
#include "tests/support/test_env.h"
#include "ui/dialogs/more_sources_editor.h"
#include "ui/dialogs/new_task_dialog.h"
#include "ui/fleet/fleet_model.h"
#include "ui/fleet/multi_source_group.h"
#include "ui/main/fleet_controller.h"
#include "ui/main/main_window.h"

using namespace syncscope;
using namespace syncscope::ui;
using source::UpstreamConnection;
using test::valueOf;

namespace {

constexpr int kWaitMs = 60000;
constexpr int kDialogPollMs = 50;
constexpr int kWidth = 1280;
constexpr int kHeight = 800;
constexpr int kRows = 200;

QString describe(const FleetModel& model) {
    QString text;
    for (int row = 0; row < model.rowCount(); ++row) {
        const FleetModel::Row& r = model.rowAt(row);
        text += QStringLiteral("%1 [%2] %3\n").arg(r.label, r.stage, r.lastError);
    }
    return text;
}

// Answers the next file dialog as a DBA does: the names typed in its file field ("a.yaml" "b.yaml" for several),
// in `folder`; its title is kept for the test.
void answerFileDialog(const QString& folder, const QStringList& names, QString* title) {
    QTimer::singleShot(kDialogPollMs, qApp, [=] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        if (dialog == nullptr) {
            answerFileDialog(folder, names, title);  // not shown yet
            return;
        }
        *title = dialog->windowTitle();
        dialog->setDirectory(folder);
        QStringList quoted;
        for (const QString& name : names) {
            quoted << (names.size() > 1 ? QStringLiteral("\"%1\"").arg(name) : name);
        }
        auto* field = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
        QVERIFY(field != nullptr);
        field->setText(quoted.join(QLatin1Char(' ')));
        QMetaObject::invokeMethod(dialog, "accept");  // as the Open button does
    });
}

}  // namespace

class MultiSourceOpenTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> down_;
    int nextId_ = 1;

    void insertRows(const std::string& database) {
        std::string sql = "INSERT INTO " + database + ".orders VALUES ";
        for (int i = 0; i < kRows; ++i) {
            sql += (i ? "," : "") + ("(" + std::to_string(nextId_++) + ", 'order')");
        }
        up_->execute(sql);
    }

    bool equal(const std::string& database) {
        const std::string sql = "SELECT COUNT(*) FROM " + database + ".orders";
        return valueOf(*up_, sql) == valueOf(*down_, sql);
    }

    QAction* openTaskAction(MainWindow& window) {
        for (QAction* action : window.findChildren<QAction*>()) {
            if (action->text() == QStringLiteral("&Open task...")) {
                return action;
            }
        }
        return nullptr;
    }

    void saveShot(QWidget& widget, const QString& name) {
        QApplication::processEvents();
        const QString shot = QString::fromStdString(test::outputDir("ui")) + "/" + name;
        QVERIFY(widget.grab().save(shot));
        qInfo("screenshot: %s", qPrintable(shot));
    }

private slots:
    void initTestCase() {
        QApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
        QVERIFY(dir_.isValid());
        up_ = std::make_unique<UpstreamConnection>(test::engineSettings(test::upstreamRoot()));
        down_ = std::make_unique<UpstreamConnection>(test::engineSettings(test::downstreamRoot()));
        for (UpstreamConnection* server : {up_.get(), down_.get()}) {
            server->execute("SET SESSION sql_log_bin = 0");
            for (const char* database : {"mso_eu", "mso_us", "msn_eu", "msn_us"}) {
                server->execute(std::string("DROP DATABASE IF EXISTS ") + database);
                server->execute(std::string("CREATE DATABASE ") + database);
                server->execute(std::string("CREATE TABLE ") + database +
                                ".orders (id INT PRIMARY KEY, v VARCHAR(20))");
            }
            server->execute("SET SESSION sql_log_bin = 1");
        }
        down_->execute("CREATE DATABASE IF NOT EXISTS dm_meta");
        for (const char* task : {"msopen", "msnew"}) {
            down_->execute(std::string("DROP TABLE IF EXISTS dm_meta.`") + task + "_syncer_checkpoint`");
        }
    }

    void fileOpenTakesSeveralSourceFiles() {
        const std::string dir = dir_.filePath(QStringLiteral("open")).toStdString();
        QVERIFY(QDir().mkpath(QString::fromStdString(dir)));
        auto master = up_->query("SHOW MASTER STATUS");
        const std::string file = *master.front()[0];
        const uint64_t pos = std::stoull(*master.front()[1]);
        test::writeMultiSourceTaskFile(dir, "msopen", test::downstreamRoot(),
                                       {{"orders-eu", "mso_eu", file, pos}, {"orders-us", "mso_us", file, pos}});
        for (const char* source : {"orders-eu", "orders-us"}) {
            test::writeSourceFile(dir, source, test::upstreamReplication());
        }

        MainWindow window;
        gui::connectTaskOpening(window);
        window.resize(kWidth, kHeight);
        window.show();
        QAction* open = openTaskAction(window);
        QVERIFY(open != nullptr);
        QString taskTitle;
        QString sourcesTitle;
        const QString folder = QString::fromStdString(dir);
        answerFileDialog(folder, {QStringLiteral("msopen.yaml")}, &taskTitle);
        QTimer::singleShot(kDialogPollMs, qApp, [&] {
            answerFileDialog(folder, {QStringLiteral("orders-eu.yaml"), QStringLiteral("orders-us.yaml")},
                             &sourcesTitle);
        });
        open->trigger();  // File > Open task: both dialogs are answered while it runs
        QCOMPARE(sourcesTitle, QStringLiteral("Open the 2 source files of task msopen (orders-eu, orders-us), one per "
                                              "source"));

        FleetModel& fleet = *window.fleetController()->model();
        window.fleetController()->refresh();
        QVERIFY2(fleet.rowCount() == 3, qPrintable(describe(fleet) + window.statusBar()->currentMessage()));
        QVERIFY2(fleet.rowAt(0).label.startsWith(QStringLiteral("msopen.yaml (2 sources)")),
                 qPrintable(describe(fleet)));
        QVERIFY2(fleet.rowAt(2).label.contains(QStringLiteral("source orders-us")), qPrintable(describe(fleet)));
        // Kept for the next start with both files (a recent task reopens through the same opener).
        const QString recent = window.recentTasksMenu()->entries().value(0);
        QVERIFY2(recent.startsWith(QString::fromStdString(dir + "/msopen.yaml\n")) &&
                     sourceFileList(recent.section(QLatin1Char('\n'), 1)).size() == 2,
                 qPrintable(recent));

        QVERIFY(fleet.rowAt(0).task->start().accepted);
        insertRows("mso_eu");
        insertRows("mso_us");
        QVERIFY(test::waitFor([&] { return equal("mso_eu") && equal("mso_us"); }, kWaitMs));
        QVERIFY(test::waitFor(
            [&] {
                window.fleetController()->refresh();
                return fleet.rowAt(1).stage == QStringLiteral("Running") &&
                       fleet.rowAt(2).stage == QStringLiteral("Running");
            },
            kWaitMs));
        window.showOverview();
        saveShot(window, QStringLiteral("open_task_several_sources.png"));
        window.detachTask();
    }

    void newTaskWritesAFurtherSourceFromItsFile() {
        const std::string dir = dir_.filePath(QStringLiteral("new")).toStdString();
        QVERIFY(QDir().mkpath(QString::fromStdString(dir)));
        const std::string usFile = test::writeSourceFile(dir, "new-us", test::upstreamReplication());

        MainWindow window;
        gui::connectTaskOpening(window);
        window.resize(kWidth, kHeight);
        window.show();
        NewTaskDialog* dialog = window.showNewTaskDialog();
        const test::ServerSettings up = test::upstreamReplication();
        const test::ServerSettings down = test::downstreamRoot();
        NewTaskSpec spec;
        spec.name = "msnew";
        spec.target.server = test::engineSettings(down);
        spec.sourceId = "new-eu";
        spec.source.server = test::engineSettings(up);
        spec.flavor = "mariadb";
        auto master = up_->query("SHOW MASTER STATUS");
        spec.startBinlogName = *master.front()[0];
        spec.startBinlogPos = uint32_t(std::stoul(*master.front()[1]));
        spec.doDbs = {"msn_eu"};
        spec.workerCount = 2;
        dialog->setSpec(spec);
        dialog->setDirectory(QString::fromStdString(dir));
        QCOMPARE(dialog->moreSources()->addSourceFiles({QString::fromStdString(usFile)}), QString());
        QCOMPARE(dialog->moreSources()->sources().front().sourceId, std::string("new-us"));

        // Without its databases the further source is refused, and nothing is written.
        QSignalSpy tested(dialog, &NewTaskDialog::connectionsTested);
        dialog->testConnections(true);
        QCOMPARE(tested.count(), 1);
        QVERIFY2(dialog->errorText().contains(QStringLiteral("source 'new-us' has no databases")),
                 qPrintable(dialog->errorText()));
        QVERIFY(!QFile::exists(QString::fromStdString(dir + "/msnew-task.yaml")));
        dialog->resize(dialog->sizeHint());
        saveShot(*dialog, QStringLiteral("new_task_more_sources_refused.png"));

        dialog->moreSources()->table()->item(0, MoreSourcesEditor::DatabasesColumn)->setText(QStringLiteral("msn_us"));
        QSignalSpy saved(dialog, &NewTaskDialog::taskSaved);
        dialog->testConnections(true);
        QVERIFY2(saved.wait(kWaitMs), qPrintable(dialog->errorText() + dialog->sourceStatus()));
        const QStringList written = sourceFileList(saved.first().at(1).toString());
        QCOMPARE(written.size(), 2);
        QCOMPARE(written.at(1), QString::fromStdString(usFile));

        FleetModel& fleet = *window.fleetController()->model();
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                window.fleetController()->refresh();
                return fleet.rowCount() == 3;
            }(),
            kWaitMs);
        QVERIFY2(fleet.rowAt(0).label.startsWith(QStringLiteral("msnew-task.yaml (2 sources)")),
                 qPrintable(describe(fleet)));
        QVERIFY(fleet.rowAt(0).task->start().accepted);
        // new-us has no start point in the file (the dialog's start fields are the first source's): it starts at
        // its upstream's position when it connects, so rows are written once it stands somewhere.
        QVERIFY2(test::waitFor(
                     [&] {
                         return fleet.rowAt(1).task->status()->globalPersisted.known() &&
                                fleet.rowAt(2).task->status()->globalPersisted.known();
                     },
                     kWaitMs),
                 qPrintable(describe(fleet)));
        insertRows("msn_eu");
        insertRows("msn_us");
        QVERIFY2(test::waitFor(
                     [&] {
                         window.fleetController()->refresh();
                         return equal("msn_eu") && equal("msn_us");
                     },
                     kWaitMs),
                 qPrintable(describe(fleet)));
        window.detachTask();
    }
};

QTEST_MAIN(MultiSourceOpenTest)
#include "test_multi_source_open.moc"
