// What the suites of this folder that run the real engine on the private MariaDB pair share: the application
// named after the suite and the pair connected, a database made afresh on both servers, a task on it from the
// upstream's current position, the main window running that task, and what they read off the window.
#pragma once

#include <QtTest>

#include <QCoreApplication>
#include <QTableWidget>

#include <initializer_list>
#include <memory>
#include <string>

#include "engine/source/upstream_connection.h"
#include "tests/support/task_files.h"
#include "tests/support/test_env.h"
#include "tests/ui/support/real_task.h"
#include "ui/dialogs/window_preview_dialog.h"
#include "ui/main/main_window.h"
#include "ui/main/task_actions.h"
#include "ui/main/task_view.h"
#include "ui/pages/status_header.h"
#include "ui/widgets/stage_badge.h"

namespace syncscope::test::real_gui {

constexpr int kWaitMs = 60000;
constexpr int kWidth = 1280;
constexpr int kHeight = 800;

inline QString screenshotPath(const char* name) {
    return QString::fromStdString(outputDir("ui")) + "/" + name;
}

// The stage the task view's header shows.
inline QString stageShown(ui::MainWindow& window) {
    return window.taskView()->header()->badge()->text();
}

// The Downstream state the preview dialog shows for `table`'s row with key `key`; empty when not listed.
inline QString stateShown(ui::WindowPreviewDialog& dialog, const char* table, const char* key) {
    QTableWidget* rows = dialog.rowsTable();
    for (int row = 0; row < rows->rowCount(); ++row) {
        if (rows->item(row, 0)->text() == QLatin1String(table) && rows->item(row, 1)->text() == QLatin1String(key)) {
            return rows->item(row, 2)->text();
        }
    }
    return {};
}

// For initTestCase: the application named after the suite (its own settings), and the pair connected as root.
inline void connectSuite(const char* suite, std::unique_ptr<source::UpstreamConnection>& up,
                         std::unique_ptr<source::UpstreamConnection>& down) {
    QCoreApplication::setOrganizationName(QStringLiteral("SyncScopeTests"));
    QCoreApplication::setApplicationName(QString::fromUtf8(suite));
    up = connectUpstream();
    down = connectDownstream();
}

// `database` made afresh on both servers, outside their binlogs, with the tables `createTables` (CREATE TABLE
// statements); the downstream's dm_meta dropped, so a task starts without a checkpoint.
inline void freshDatabase(source::UpstreamConnection& up, source::UpstreamConnection& down, const std::string& database,
                          std::initializer_list<const char*> createTables) {
    for (source::UpstreamConnection* server : {&up, &down}) {
        server->execute("SET SESSION sql_log_bin = 0");
        server->execute("DROP DATABASE IF EXISTS " + database);
        server->execute("CREATE DATABASE " + database);
        for (const char* createTable : createTables) {
            server->execute(createTable);
        }
        server->execute("SET SESSION sql_log_bin = 1");
    }
    down.execute("DROP DATABASE IF EXISTS dm_meta");
}

// The options of a task named `name` starting at the upstream's current binlog position.
inline TaskFileOptions taskFromNow(source::UpstreamConnection& up, const std::string& name) {
    const auto [file, pos] = masterPosition(up);
    TaskFileOptions options;
    options.name = name;
    options.binlogName = file;
    options.binlogPos = pos;
    return options;
}

// The window resized and shown, the task of `files` (writing its audit to `audit`) attached and started; returns
// once the window shows it Running. A failure here is the test's: the caller checks QTest::currentTestFailed().
inline void startTaskIn(ui::MainWindow& window, const TaskFiles& files, const QString& audit) {
    window.resize(kWidth, kHeight);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto task = openRealTask(files.task, files.source, audit.toStdString());
    window.attachTask(task, {QString::fromStdString(files.task), QString::fromStdString(files.source), audit});
    window.actions()->start()->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Running"), kWaitMs);
}

}  // namespace syncscope::test::real_gui
