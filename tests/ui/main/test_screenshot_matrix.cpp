// The main window as a DBA first sees it, at 1280x800 and 1920x1080, in the light and the dark palette:
// a healthy running task, a task with tables ahead of the global point, a failed task, a task resumed
// after its load, the audit tab, and a shard DDL lock waiting for a shard table of another source (shard-mode). Each
// picture is saved for review (test-output/ui/matrix_*.png) and checked for what must hold at a glance: the ruler's
// labels cover nothing, the Flag column is on screen without scrolling, positions are never cut inside their numbers,
// the tab that matters is the one selected, and the audit lists the start with its time and position in full; the shard
// lock is on its tab, the header and the ruler, and the tables ahead of its held global point read as expected, not
// red.
#include <QtTest>

#include <QHeaderView>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <cmath>

#include "engine/task/audit_log.h"
#include "tests/support/test_env.h"
#include "tests/ui/support/settle_window.h"
#include "tests/ui/support/simulated_task.h"
#include "ui/engine/engine_adapter.h"
#include "ui/main/color_scheme.h"
#include "ui/main/main_window.h"
#include "ui/main/task_actions.h"
#include "ui/main/task_view.h"
#include "ui/models/audit_model.h"
#include "ui/models/checkpoint_anomaly.h"
#include "ui/models/shard_lock_model.h"
#include "ui/models/table_checkpoint_model.h"
#include "ui/pages/audit_page.h"
#include "ui/pages/load_page.h"
#include "ui/pages/shard_locks_page.h"
#include "ui/pages/status_header.h"
#include "ui/pages/table_checkpoints_page.h"
#include "ui/widgets/position_ruler.h"

using namespace syncscope;
using namespace syncscope::ui;
using syncscope::test::settle;
using syncscope::test::SimulatedTask;

namespace {

enum class Scene { Healthy, TablesAhead, Failed, ResumedAfterLoad, Audit, OnlineChange, ShardLock };

const char* sceneName(Scene scene) {
    switch (scene) {
        case Scene::Healthy:
            return "healthy";
        case Scene::TablesAhead:
            return "tables_ahead";
        case Scene::Failed:
            return "failed";
        case Scene::ResumedAfterLoad:
            return "resumed_after_load";
        case Scene::Audit:
            return "audit";
        case Scene::OnlineChange:
            return "online_change";
        case Scene::ShardLock:
            return "shard_lock";
    }
    return "?";
}

// The engine's own audit lines for a day of a task's life: start, pause, resume, skip, stop, start.
void writeAudit(const std::string& path) {
    task::AuditLog log(path);
    const char* actions[][3] = {{"start", "", "from the checkpoint table, or the task's start point"},
                                {"pause", "mysql-bin.000002:4194304", "mysql-bin.000002:4194304"},
                                {"resume", "mysql-bin.000002:4194304", "mysql-bin.000002:4194304"},
                                {"skip", "mysql-bin.000002:4198000", "transaction at mysql-bin.000002:4198000 skipped"},
                                {"stop", "mysql-bin.000003:200000", "mysql-bin.000003:200000"},
                                {"start", "mysql-bin.000003:200000", "from mysql-bin.000003:200000"}};
    for (const auto& [action, before, after] : actions) {
        task::AuditEntry entry;
        entry.action = action;
        entry.task = "orders-to-dw";
        entry.sourceId = "mariadb-01";
        entry.positionBefore = before;
        entry.positionAfter = after;
        log.append(entry);
    }
}

// shard-mode: sm_1.t and sm_2.t of this source (tables 0 and 1) and sm_3.t of mariadb-02 merge into sm.t. The first
// two read an ADD COLUMN, sm_3.t has not yet: this source's global point holds before the DDL while its other
// tables run ahead of it.
void holdForShardLock(SimulatedTask& task) {
    task.renameTable(0, "sm_1", "t");
    task.renameTable(1, "sm_2", "t");
    task.putTableAhead(1, 5200, 4);
    task.putTableAhead(3, 2400, 12);
    task.putTableAhead(8, 1'200'000, 340);
    const auto status = task.status();
    const task::PointView& held = status->globalPersisted;
    auto after = [&held](uint64_t bytes) { return held.file + ":" + std::to_string(held.pos + bytes); };
    const int64_t now = std::chrono::duration_cast<std::chrono::seconds>(status->takenAt.time_since_epoch()).count();
    task::ShardLockStatus lock;
    lock.target = {"sm", "t"};
    lock.ddls = {"ALTER TABLE `sm`.`t` ADD COLUMN `c` INT NOT NULL DEFAULT 7"};
    lock.arrived = {{"mariadb-01", {"sm_1", "t"}, after(180), now - 150},
                    {"mariadb-01", {"sm_2", "t"}, after(5200), now - 95}};
    lock.waitingFor = {{"mariadb-02", {"sm_3", "t"}, "", 0}};
    lock.since = now - 150;
    task.setShardLocks({lock});
}

load::LoadProgressView finishedLoad(int tables) {
    load::LoadProgressView load;
    load.unit = "sync";
    load.mode = "all";
    load.finished = true;
    for (int i = 0; i < tables; ++i) {
        load::TableLoadView table;
        table.schema = i % 2 ? "shop" : "billing";
        table.table = "t" + std::to_string(i);
        table.rowsDone = table.rowsEstimated = 10000 + uint64_t(i) * 1000;
        table.chunksDone = table.chunksTotal = 4;
        load.rowsDone += table.rowsDone;
        load.rowsEstimated += table.rowsEstimated;
        load.chunksDone += 4;
        load.chunksTotal += 4;
        load.tables.push_back(std::move(table));
    }
    return load;
}

}  // namespace

class ScreenshotMatrixTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("SyncScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_screenshot_matrix"));
        QSettings().clear();
        QVERIFY(dir_.isValid());
        writeAudit(dir_.filePath(QStringLiteral("orders-audit.jsonl")).toStdString());
    }

    void cleanupTestCase() {
        applyColorScheme(ColorScheme::System);
        QSettings().clear();
    }

    void theMainWindowReadsAtAGlance_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::addColumn<bool>("dark");
        QTest::addColumn<int>("scene");
        for (const auto& [width, height] : {std::pair{1280, 800}, std::pair{1920, 1080}}) {
            for (bool dark : {false, true}) {
                for (Scene scene : {Scene::Healthy, Scene::TablesAhead, Scene::Failed, Scene::ResumedAfterLoad,
                                    Scene::Audit, Scene::OnlineChange, Scene::ShardLock}) {
                    QTest::addRow("%s %dx%d %s", sceneName(scene), width, height, dark ? "dark" : "light")
                        << width << height << dark << int(scene);
                }
            }
        }
    }

    void theMainWindowReadsAtAGlance() {
        QFETCH(int, width);
        QFETCH(int, height);
        QFETCH(bool, dark);
        QFETCH(int, scene);
        const auto what = Scene(scene);
        applyColorScheme(dark ? ColorScheme::Dark : ColorScheme::Light);
        MainWindow window;
        window.resize(width, height);
        auto task = std::make_shared<SimulatedTask>(24);
        if (what == Scene::ResumedAfterLoad) {
            task->setLoad(finishedLoad(24));
        }
        window.attachTask(task, {QStringLiteral("/tmp/orders.yaml"), QStringLiteral("/tmp/source.yaml"),
                                 dir_.filePath(QStringLiteral("orders-audit.jsonl"))});
        window.actions()->start()->trigger();
        settle(window);
        for (int tick = 0; tick < 4; ++tick) {
            task->advance(90000, 1200);
            task->flush();
            window.adapter()->refreshNow();
        }
        // Positions eight digits into their file, as a busy day's binlog has them.
        task->advance(SimulatedTask::kFileSize * 3 / 2, 40000);
        if (what == Scene::TablesAhead || what == Scene::Failed) {
            task->putTableAhead(3, 2400, 12);
            task->putTableAhead(8, 1'200'000, 340);
        }
        if (what == Scene::Failed) {
            task->fail(SimulatedTask::missingColumnEvent());
        }
        if (what == Scene::OnlineChange) {
            // pt-online-schema-change altering shop.t5 (online-ddl): its copy read, its ALTER waiting for the swap.
            task::OnlineChangeView change;
            change.real = {"shop", "t5"};
            change.shadow = {"shop", "_t5_new"};
            change.tool = "pt-online-schema-change";
            change.ddls = {"ALTER TABLE `shop`.`_t5_new` ADD COLUMN `note` VARCHAR(200) NOT NULL DEFAULT ''"};
            change.rowsCopied = 48213;
            change.since = "mysql-bin.000004:10442";
            task->setOnlineChanges({change});
        }
        if (what == Scene::ShardLock) {
            holdForShardLock(*task);
        }
        settle(window);
        TaskView* view = window.taskView();
        if (what == Scene::Audit) {
            view->tabs()->setCurrentWidget(view->auditPage());
        }
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        settle(window);
        // Nothing makes the window wider than the screen it is made for.
        QCOMPARE(window.width(), width);

        // The ruler: no label covers another.
        const auto labels = view->ruler()->labels();
        QVERIFY(!labels.empty());
        for (size_t i = 0; i < labels.size(); ++i) {
            for (size_t j = i + 1; j < labels.size(); ++j) {
                QVERIFY2(!labels[i].rect.intersects(labels[j].rect), qPrintable(QStringLiteral("%1/%2").arg(i).arg(j)));
            }
        }
        // The tab that matters now.
        QWidget* current = view->tabs()->currentWidget();
        switch (what) {
            case Scene::Failed:
                QVERIFY(view->failedEventShown());
                QCOMPARE(view->tabs()->currentIndex(), 0);
                break;
            case Scene::Audit:
                QCOMPARE(current, static_cast<QWidget*>(view->auditPage()));
                break;
            case Scene::ResumedAfterLoad:
                // The finished load has its tab, but the checkpoints come first.
                QVERIFY(view->tabs()->indexOf(view->loadPage()) >= 0);
                QCOMPARE(current, static_cast<QWidget*>(view->tablesPage()));
                break;
            default:
                QCOMPARE(current, static_cast<QWidget*>(view->tablesPage()));
                break;
        }
        // The table checkpoints: the Flag column fully on screen, positions whole.
        QTableView* tables = view->tablesPage()->view();
        view->tabs()->setCurrentWidget(view->tablesPage());
        QHeaderView* header = tables->horizontalHeader();
        const int flagRight = header->sectionViewportPosition(TableCheckpointModel::FlagColumn) +
                              header->sectionSize(TableCheckpointModel::FlagColumn);
        QVERIFY2(header->sectionViewportPosition(TableCheckpointModel::FlagColumn) >= 0 &&
                     flagRight <= tables->viewport()->width(),
                 qPrintable(QStringLiteral("Flag ends at %1 of %2").arg(flagRight).arg(tables->viewport()->width())));
        const QFontMetrics metrics = tables->fontMetrics();
        for (int row = 0; row < tables->model()->rowCount(); ++row) {
            const QModelIndex flag = tables->model()->index(row, TableCheckpointModel::FlagColumn);
            const int iconWidth = flag.data(Qt::DecorationRole).isNull() ? 0 : metrics.height();
            QVERIFY2(metrics.horizontalAdvance(flag.data().toString()) + iconWidth + 8 <=
                         tables->columnWidth(TableCheckpointModel::FlagColumn),
                     qPrintable(flag.data().toString()));
            for (int column : {int(TableCheckpointModel::InMemoryColumn), int(TableCheckpointModel::PersistedColumn)}) {
                const QString text = tables->model()->index(row, column).data().toString();
                QVERIFY2(metrics.horizontalAdvance(text) + 8 <= tables->columnWidth(column), qPrintable(text));
            }
        }
        if (what == Scene::Audit) {
            view->tabs()->setCurrentWidget(view->auditPage());
            QTableView* audit = view->auditPage()->view();
            QTRY_COMPARE(audit->model()->rowCount(), 6);
            QCOMPARE(audit->model()->index(0, AuditModel::ActionColumn).data().toString(), QStringLiteral("start"));
            const QFontMetrics auditMetrics = audit->fontMetrics();
            for (int row = 0; row < audit->model()->rowCount(); ++row) {
                for (int column : {int(AuditModel::TimeColumn), int(AuditModel::PositionColumn)}) {
                    const QString text = audit->model()->index(row, column).data().toString();
                    QVERIFY2(auditMetrics.horizontalAdvance(text) <= audit->columnWidth(column), qPrintable(text));
                }
            }
        }
        if (what == Scene::TablesAhead) {
            // A click on a red mark in the ruler's strip selects that table's row.
            view->tabs()->setCurrentWidget(view->auditPage());
            PositionRuler* ruler = view->ruler();
            const auto* snapshot = ruler->snapshot();
            const auto& t8 = snapshot->tables[8];
            QVERIFY(t8.aheadOfGlobal);
            const QPoint mark(int(std::lround(ruler->xOf(double(*t8.persisted.axis)))), ruler->height() - 40);
            QTest::mouseClick(ruler, Qt::LeftButton, {}, mark);
            QCOMPARE(view->tabs()->currentWidget(), static_cast<QWidget*>(view->tablesPage()));
            const auto selected = tables->selectionModel()->selectedRows(TableCheckpointModel::TableColumn);
            QCOMPARE(selected.size(), 1);
            QCOMPARE(selected.front().data().toString(), QStringLiteral("t8"));
        }
        if (what == Scene::OnlineChange) {
            // The table's row says it, and so does the header, without a tooltip.
            bool shown = false;
            for (int row = 0; row < tables->model()->rowCount(); ++row) {
                if (tables->model()->index(row, TableCheckpointModel::TableColumn).data().toString() == "t5") {
                    const QString text =
                        tables->model()->index(row, TableCheckpointModel::OnlineChangeColumn).data().toString();
                    QVERIFY2(text.contains(QStringLiteral("pt-osc _t5_new: %1 rows copied, waiting for the swap")
                                               .arg(QLocale().toString(qulonglong(48213)))),
                             qPrintable(text));
                    const QString tip = tables->model()
                                            ->index(row, TableCheckpointModel::OnlineChangeColumn)
                                            .data(Qt::ToolTipRole)
                                            .toString();
                    QVERIFY2(
                        tip.contains(QStringLiteral("_t5_new")) && tip.contains(QStringLiteral("ADD COLUMN `note`")),
                        qPrintable(tip));
                    tables->scrollTo(tables->model()->index(row, TableCheckpointModel::OnlineChangeColumn));
                    shown = true;
                }
            }
            QVERIFY(shown);
            QVERIFY2(
                view->header()->reasonText().startsWith(QStringLiteral("Schema change of `shop`.`t5` by pt-osc: ")),
                qPrintable(view->header()->reasonText()));
        }
        if (what == Scene::ShardLock) {
            checkShardLock(*view);
        } else {
            QVERIFY(!view->shardLocksShown());  // a task without shard-mode has no such tab
        }
        if (what != Scene::Audit) {
            view->tabs()->setCurrentIndex(what == Scene::Failed ? 0 : view->tabs()->indexOf(view->tablesPage()));
        }
        auto save = [&](const char* name) {
            const QString path = QString::fromStdString(test::outputDir("ui")) +
                                 QStringLiteral("/matrix_%1_%2x%3_%4.png")
                                     .arg(QString::fromLatin1(name))
                                     .arg(width)
                                     .arg(height)
                                     .arg(dark ? QStringLiteral("dark") : QStringLiteral("light"));
            QVERIFY(window.grab().save(path));
        };
        if (what == Scene::ShardLock) {
            save("shard_lock_tables");  // the tables ahead of the held point, as expected
            view->tabs()->setCurrentWidget(view->shardLocksPage());
            settle(window);
        }
        save(sceneName(what));
        if (what == Scene::ShardLock) {
            // The DDL ran and every source passed it: the tab stays, saying so, and a table ahead is red again.
            task->setShardLocks({});
            window.adapter()->refreshNow();
            settle(window);
            QVERIFY(view->shardLocksShown());
            QVERIFY(view->shardLocksPage()->showsEmptyText());
            QCOMPARE(view->shardLocksPage()->summaryText(),
                     QStringLiteral("No shard DDL lock: every shard table of the merged tables is at the same DDL"));
            QCOMPARE(view->tableModel()->aheadCount(), 3);
            // shard-mode optimistic: a column one shard added runs at once; the page names the shard tables that
            // still lack it.
            task->setShardColumns({{{"sm", "t"},
                                    "c",
                                    {"mariadb-01", {"sm_1", "t"}, "", 0},
                                    {{"mariadb-01", {"sm_2", "t"}, "", 0}, {"mariadb-02", {"sm_3", "t"}, "", 0}}}});
            window.adapter()->refreshNow();
            settle(window);
            QVERIFY2(view->shardLocksPage()->summaryText().startsWith(
                         QStringLiteral("Column c of sm.t, added by mariadb-01:sm_1.t, is awaited from 2 shard "
                                        "tables (mariadb-01:sm_2.t, mariadb-02:sm_3.t)")),
                     qPrintable(view->shardLocksPage()->summaryText()));
            save("shard_columns");
        }
        window.detachTask();
    }

private:
    // The lock on its tab (three shard tables, the one waited for marked), in the header and on the ruler; the
    // tables ahead of the held global point flagged as expected, none red.
    static void checkShardLock(TaskView& view) {
        QVERIFY(view.shardLocksShown());
        QCOMPARE(view.tabs()->indexOf(view.shardLocksPage()), view.tabs()->indexOf(view.tablesPage()) + 1);
        ShardLockModel* locks = view.shardLockModel();
        QCOMPARE(locks->rowCount(), 3);
        QCOMPARE(locks->index(2, ShardLockModel::ShardTableColumn).data().toString(), QStringLiteral("sm_3.t"));
        QVERIFY(locks->index(2, 0).data(ShardLockModel::WaitedForRole).toBool());
        QVERIFY(!view.shardLocksPage()->showsEmptyText());
        const QString line = QStringLiteral(
            "Shard DDL lock on sm.t waits for 1 of 3 shard tables (mariadb-02:sm_3.t) "
            "for 2 min");
        QVERIFY2(view.header()->reasonText().startsWith(line), qPrintable(view.header()->reasonText()));
        QVERIFY2(view.shardLocksPage()->summaryText().startsWith(line),
                 qPrintable(view.shardLocksPage()->summaryText()));
        // Unlock acts on the selected row's waiting lock: disabled without a selection; a click asks for it.
        ShardLocksPage* page = view.shardLocksPage();
        QVERIFY(!page->unlockButton()->isHidden());
        QVERIFY(!page->unlockButton()->isEnabled());
        // The window's preview of the unlock is not wanted here (the simulated task has no shard locks).
        QObject::disconnect(page, &ShardLocksPage::unlockRequested, nullptr, nullptr);
        QSignalSpy asked(page, &ShardLocksPage::unlockRequested);
        page->view()->selectRow(2);
        QVERIFY(page->unlockButton()->isEnabled());
        page->unlockButton()->click();
        QCOMPARE(asked.count(), 1);
        QCOMPARE(asked.front().front().toString(), QStringLiteral("sm.t"));
        page->view()->clearSelection();
        QVERIFY(!page->unlockButton()->isEnabled());
        bool marked = false;
        for (const auto& marker : view.ruler()->markers()) {
            marked = marked || marker.name == QStringLiteral("shard lock: sm.t");
        }
        QVERIFY(marked);
        TableCheckpointModel* tables = view.tableModel();
        QCOMPARE(tables->aheadCount(), 0);
        QCOMPARE(tables->aheadForShardLockCount(), 3);
        for (int row = 0; row < tables->rowCount(); ++row) {
            if (tables->tableAt(row)->aheadOfGlobal) {
                QCOMPARE(tables->anomalyAt(row), CheckpointAnomaly::AheadForShardLock);
                QCOMPARE(tables->index(row, TableCheckpointModel::FlagColumn).data().toString(),
                         QStringLiteral("ahead: shard lock"));
            }
        }
    }

    QTemporaryDir dir_;
};

QTEST_MAIN(ScreenshotMatrixTest)
#include "test_screenshot_matrix.moc"
