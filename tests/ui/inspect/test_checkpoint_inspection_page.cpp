// Checkpoint inspection in the GUI against the private MariaDB pair: a checkpoint table written BY
// HAND in DM's shape, with a table point ahead of the global point and a source without a global row,
// is read in the background; the table is flagged with the events a resume would skip, the missing
// global row is flagged, nothing is written, a wrong password names the side, and the model passes
// QAbstractItemModelTester. Saves the screenshot of the flagged table for review.
#include <QtTest>

#include <cppconn/connection.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>
#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QTableView>

#include "engine/apply/downstream_connection.h"
#include "engine/inspect/upstream_state.h"
#include "engine/source/upstream_connection.h"
#include "tests/support/test_env.h"
#include "ui/dialogs/new_task_spec.h"
#include "ui/inspect/checkpoint_inspection_model.h"
#include "ui/inspect/checkpoint_inspection_page.h"
#include "ui/inspect/inspection_connection_dialog.h"
#include "ui/inspect/inspection_filter_proxy.h"
#include "ui/inspect/task_inspection_request.h"
#include "ui/main/color_scheme.h"

using namespace syncscope;
using namespace syncscope::ui;
using Model = CheckpointInspectionModel;

namespace {

const char* const kMeta = "gui_insp_meta";
const char* const kSource = "mysql-replica-01";

ServerSettings toSettings(const test::ServerSettings& s) {
    ServerSettings settings;
    settings.host = s.host;
    settings.port = s.port;
    settings.user = s.user;
    settings.password = s.password;
    return settings;
}

void execute(sql::Connection& connection, const std::string& sql) {
    std::unique_ptr<sql::Statement> statement(connection.createStatement());
    statement->execute(sql);
}

std::string value(sql::Connection& connection, const std::string& sql) {
    std::unique_ptr<sql::Statement> statement(connection.createStatement());
    std::unique_ptr<sql::ResultSet> rows(statement->executeQuery(sql));
    return rows->next() ? std::string(rows->getString(1)) : std::string();
}

int findRow(const Model& model, const QString& source, const QString& pointOf) {
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.pointRow(row).sourceId == source && model.pointRow(row).pointOf == pointOf) {
            return row;
        }
    }
    return -1;
}

bool waitForInspection(CheckpointInspectionPage& page) {
    constexpr int kInspectionTimeoutMs = 30000;
    QSignalSpy finished(&page, &CheckpointInspectionPage::inspectionFinished);
    return finished.wait(kInspectionTimeoutMs) && !page.isBusy();
}

}  // namespace

class CheckpointInspectionPageTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<sql::Connection> downstream_;
    inspect::UpstreamState before_;
    inspect::UpstreamState after_;

    inspect::InspectionRequest request() const {
        inspect::InspectionRequest request;
        request.target = toSettings(test::downstreamRoot());
        request.metaSchema = kMeta;
        request.upstream = toSettings(test::upstreamRoot());
        request.upstreamSourceId = kSource;
        return request;
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("SyncScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_checkpoint_inspection_page"));

        source::UpstreamConnection upstream(toSettings(test::upstreamRoot()));
        upstream.execute("CREATE DATABASE IF NOT EXISTS gui_insp_up");
        upstream.execute("CREATE TABLE IF NOT EXISTS gui_insp_up.orders (id INT PRIMARY KEY)");
        upstream.execute("CREATE TABLE IF NOT EXISTS gui_insp_up.customers (id INT PRIMARY KEY)");
        upstream.execute("DELETE FROM gui_insp_up.orders");
        upstream.execute("DELETE FROM gui_insp_up.customers");
        // The window a resume would skip: three transactions, two of them rows events of orders.
        before_ = inspect::readUpstreamState(upstream);
        upstream.execute("INSERT INTO gui_insp_up.orders VALUES (1), (2), (3)");
        upstream.execute("INSERT INTO gui_insp_up.customers VALUES (1)");
        upstream.execute("INSERT INTO gui_insp_up.orders VALUES (4)");
        after_ = inspect::readUpstreamState(upstream);
        QCOMPARE(after_.current.position().file(), before_.current.position().file());
        QVERIFY(after_.current.position().fileNumber() > 0);  // file .000000 is one the upstream does not have

        downstream_ = apply::connectDownstream(toSettings(test::downstreamRoot()));
        execute(*downstream_, std::string("DROP SCHEMA IF EXISTS ") + kMeta);
        execute(*downstream_, std::string("CREATE SCHEMA ") + kMeta);
        // DM v2's table as dm/syncer/checkpoint.go creates it, filled by hand as a DM deployment leaves it.
        execute(*downstream_, std::string("CREATE TABLE ") + kMeta +
                                  ".shop_syncer_checkpoint (id VARCHAR(32) NOT NULL, cp_schema VARCHAR(128) NOT "
                                  "NULL, cp_table VARCHAR(128) NOT NULL, binlog_name VARCHAR(128), binlog_pos INT "
                                  "UNSIGNED, binlog_gtid TEXT, exit_safe_binlog_name VARCHAR(128) DEFAULT '', "
                                  "exit_safe_binlog_pos INT UNSIGNED DEFAULT 0, exit_safe_binlog_gtid TEXT, "
                                  "table_info JSON NOT NULL, is_global BOOLEAN, create_time timestamp NOT NULL "
                                  "DEFAULT CURRENT_TIMESTAMP, update_time timestamp NOT NULL DEFAULT "
                                  "CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, UNIQUE KEY uk_id_schema_table "
                                  "(id, cp_schema, cp_table))");
        const std::string file = after_.current.position().file();
        const std::string beforePos = std::to_string(before_.current.position().offset());
        const std::string afterPos = std::to_string(after_.current.position().offset());
        const std::string beforeGtid = before_.current.gtidText();
        const std::string afterGtid = after_.current.gtidText();
        const std::string tableInfo = R"('{"id":45,"name":{"O":"orders","L":"orders"},"cols":[]}')";
        auto fileNumbered = [&](uint64_t number) {
            char suffix[16];
            std::snprintf(suffix, sizeof suffix, ".%06llu", static_cast<unsigned long long>(number));
            return std::string(after_.current.position().baseName()) + suffix;
        };
        auto row = [&](const std::string& id, const std::string& schema, const std::string& table,
                       const std::string& pos, const std::string& gtid, int isGlobal) {
            return "('" + id + "', '" + schema + "', '" + table + "', '" + file + "', " + pos + ", '" + gtid +
                   "', '', 0, '', " + (isGlobal ? std::string("'null'") : tableInfo) + ", " + std::to_string(isGlobal) +
                   ")";
        };
        execute(*downstream_,
                std::string("INSERT INTO ") + kMeta +
                    ".shop_syncer_checkpoint (id, cp_schema, cp_table, binlog_name, binlog_pos, "
                    "binlog_gtid, exit_safe_binlog_name, exit_safe_binlog_pos, exit_safe_binlog_gtid, "
                    "table_info, is_global) VALUES " +
                    row(kSource, "", "", beforePos, beforeGtid, 1) + ", " +
                    row(kSource, "gui_insp_up", "orders", afterPos, afterGtid, 0) + ", " +
                    row(kSource, "gui_insp_up", "customers", beforePos, beforeGtid, 0) + ", " + "('" + kSource +
                    "', 'gui_insp_up', 'purged', '" + fileNumbered(0) + "', 4, '', '', 0, '', " + tableInfo + ", 0), " +
                    "('" + kSource + "', 'gui_insp_up', 'future', '" +
                    fileNumbered(after_.current.position().fileNumber() + 3) + "', 4, '', '', 0, '', " + tableInfo +
                    ", 0), " + row("orphan-source", "gui_insp_up", "orders", beforePos, beforeGtid, 0));
    }

    void cleanupTestCase() {
        if (downstream_) {
            execute(*downstream_, std::string("DROP SCHEMA IF EXISTS ") + kMeta);
        }
    }

    void tableAheadOfGlobalIsFlaggedWithWhatAResumeSkips() {
        const std::string checksumBefore =
            value(*downstream_, std::string("CHECKSUM TABLE ") + kMeta + ".shop_syncer_checkpoint");
        CheckpointInspectionPage page;
        page.resize(1280, 800);
        QAbstractItemModelTester modelTester(page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(page.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));

        page.inspect(request());
        QVERIFY(page.isBusy());  // the query runs on the thread pool, not in inspect()
        QVERIFY(waitForInspection(page));
        QVERIFY2(page.lastError().isEmpty(), qPrintable(page.lastError()));

        const Model& model = *page.model();
        // global, orders, customers, purged, future; orphan's missing global and its table
        QCOMPARE(model.rowCount(), 7);
        const int ahead = findRow(model, kSource, QStringLiteral("gui_insp_up.orders"));
        QVERIFY(ahead >= 0);
        const QModelIndex aheadIndex = model.index(ahead, Model::FlagColumn);
        QVERIFY(aheadIndex.data(Model::AheadOfGlobalRole).toBool());
        QCOMPARE(aheadIndex.data().toString(), QStringLiteral("ahead of global"));
        QCOMPARE(model.index(ahead, Model::SkippedTableEventsColumn).data().toString(), QStringLiteral("2"));
        QVERIFY(model.index(ahead, Model::SkippedEventsColumn).data(Model::SortRole).toULongLong() >= 12);
        QCOMPARE(model.index(ahead, Model::SkippedBytesColumn).data(Model::SortRole).toLongLong(),
                 qint64(after_.current.position().offset() - before_.current.position().offset()));
        const QString tip = aheadIndex.data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("2 of them rows events of this table")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("3 transactions")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("lost silently")), qPrintable(tip));

        const int customers = findRow(model, kSource, QStringLiteral("gui_insp_up.customers"));
        QVERIFY(customers >= 0);
        QVERIFY(!model.index(customers, 0).data(Model::HasAnomalyRole).toBool());
        const int global = findRow(model, kSource, QStringLiteral("global"));
        QVERIFY(global >= 0);
        QVERIFY(!model.index(global, 0).data(Model::HasAnomalyRole).toBool());
        QCOMPARE(model.index(global, Model::UpstreamColumn).data().toString().isEmpty(), false);

        const int missing = findRow(model, QStringLiteral("orphan-source"), QStringLiteral("global (missing)"));
        QVERIFY(missing >= 0);
        QCOMPARE(model.index(missing, Model::FlagColumn).data().toString(), QStringLiteral("missing global row"));
        QVERIFY(model.index(missing, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("no global row")));
        // A point in a file the upstream no longer has, and one beyond its position (in a file not yet written).
        const int purged = findRow(model, kSource, QStringLiteral("gui_insp_up.purged"));
        QVERIFY(purged >= 0);
        QCOMPARE(model.index(purged, Model::FlagColumn).data().toString(), QStringLiteral("file not on upstream"));
        QCOMPARE(model.index(purged, Model::UpstreamColumn).data().toString(), QStringLiteral("file purged"));
        const int future = findRow(model, kSource, QStringLiteral("gui_insp_up.future"));
        QVERIFY(future >= 0);
        QVERIFY2(model.index(future, Model::FlagColumn).data().toString().contains(QStringLiteral("beyond upstream")),
                 qPrintable(model.index(future, Model::FlagColumn).data().toString()));
        QCOMPARE(model.index(future, Model::UpstreamColumn).data().toString(), QStringLiteral("file not yet written"));
        QVERIFY2(page.summaryText().contains(QStringLiteral("on 4 points")), qPrintable(page.summaryText()));

        // Numbers sort as numbers: the largest skip window first.
        page.view()->sortByColumn(Model::SkippedBytesColumn, Qt::DescendingOrder);
        QCOMPARE(page.proxy()->index(0, Model::PointOfColumn).data().toString(), QStringLiteral("gui_insp_up.orders"));
        page.onlyAnomaliesSwitch()->setChecked(true);
        QCOMPARE(page.proxy()->rowCount(), 4);
        page.onlyAnomaliesSwitch()->setChecked(false);
        QVERIFY(page.visibleRowsText().contains(QStringLiteral("ahead of global")));

        // Made current without selecting it, so the screenshot shows the row's colour and its details.
        page.view()->selectionModel()->setCurrentIndex(page.proxy()->index(0, Model::PointOfColumn),
                                                       QItemSelectionModel::NoUpdate);
        QVERIFY2(page.detailsText().contains(QStringLiteral("a resume starts at the global point")),
                 qPrintable(page.detailsText()));
        QVERIFY(page.grab().save(QString::fromStdString(test::outputDir("ui")) + "/inspect_flagged_table.png"));
        applyColorScheme(ColorScheme::Dark);
        QCoreApplication::processEvents();  // the palette change reaches the widgets through events
        QCOMPARE(page.palette().color(QPalette::Window), darkPalette().color(QPalette::Window));
        QVERIFY(page.grab().save(QString::fromStdString(test::outputDir("ui")) + "/inspect_flagged_table_dark.png"));
        applyColorScheme(ColorScheme::System);

        // Refresh reads again; the model is reset, not appended to.
        page.inspect(request());
        QVERIFY(waitForInspection(page));
        QCOMPARE(page.model()->rowCount(), 7);

        // Read-only.
        QCOMPARE(value(*downstream_, std::string("CHECKSUM TABLE ") + kMeta + ".shop_syncer_checkpoint"),
                 checksumBefore);
    }

    void anOpenTasksOwnCheckpointsAreFilledInFromItsFiles() {
        // The task's files as the New Task dialog writes them: task "shop" keeps its points in kMeta.
        QTemporaryDir dir;
        NewTaskSpec spec;
        spec.name = "shop";
        spec.metaSchema = kMeta;
        spec.target.server = toSettings(test::downstreamRoot());
        spec.sourceId = kSource;
        spec.source.server = toSettings(test::upstreamRoot());
        const NewTaskFiles files = writeNewTaskFiles(spec, dir.path().toStdString(), false);
        const inspect::InspectionRequest request = inspectionRequestForTask(files.taskPath, files.sourcePath);
        QCOMPARE(request.metaSchema, std::string(kMeta));
        QCOMPARE(request.task, std::string("shop"));
        QCOMPARE(request.target.port, test::downstreamRoot().port);
        QCOMPARE(request.target.password, test::downstreamRoot().password);
        QVERIFY(request.upstream.has_value());
        QCOMPARE(request.upstreamSourceId, std::string(kSource));

        CheckpointInspectionPage page;
        page.inspect(request);
        QVERIFY(waitForInspection(page));
        QVERIFY2(page.lastError().isEmpty(), qPrintable(page.lastError()));
        const int ahead = findRow(*page.model(), kSource, QStringLiteral("gui_insp_up.orders"));
        QVERIFY(ahead >= 0);
        QCOMPARE(page.model()->index(ahead, Model::SkippedTableEventsColumn).data().toString(), QStringLiteral("2"));

        QVERIFY_THROWS_EXCEPTION(config::ConfigError, inspectionRequestForTask("/no/such/task.yaml", files.sourcePath));
    }

    void withoutUpstreamThePointsAreStillCompared() {
        CheckpointInspectionPage page;
        auto noUpstream = request();
        noUpstream.upstream.reset();
        noUpstream.upstreamSourceId.clear();
        page.inspect(noUpstream);
        QVERIFY(waitForInspection(page));
        const int ahead = findRow(*page.model(), kSource, QStringLiteral("gui_insp_up.orders"));
        QVERIFY(page.model()->index(ahead, 0).data(Model::AheadOfGlobalRole).toBool());
        QVERIFY(page.model()->index(ahead, Model::SkippedEventsColumn).data().toString().isEmpty());
        QVERIFY(page.summaryText().contains(QStringLiteral("no upstream compared")));
    }

    void wrongPasswordNamesTheSideAndNotThePassword() {
        CheckpointInspectionPage page;
        auto wrong = request();
        wrong.target.password = "not-the-password-4711";
        page.inspect(wrong);
        QVERIFY(waitForInspection(page));
        QVERIFY(page.lastError().startsWith(QStringLiteral("Downstream: ")));
        QVERIFY2(page.lastError().contains(QStringLiteral("1045")), qPrintable(page.lastError()));
        QVERIFY(!page.lastError().contains(QStringLiteral("not-the-password-4711")));
        QCOMPARE(page.model()->rowCount(), 0);

        auto wrongUpstream = request();
        wrongUpstream.upstream->password = "not-the-password-4711";
        page.inspect(wrongUpstream);
        QVERIFY(waitForInspection(page));
        QVERIFY2(page.lastError().startsWith(QStringLiteral("Upstream: ")), qPrintable(page.lastError()));
        QVERIFY(!page.lastError().contains(QStringLiteral("not-the-password-4711")));
    }

    void missingMetaSchemaIsAClearError() {
        CheckpointInspectionPage page;
        auto noSchema = request();
        noSchema.metaSchema = "no_such_meta_schema";
        page.inspect(noSchema);
        QVERIFY(waitForInspection(page));
        QVERIFY2(page.lastError().contains(QStringLiteral("no_such_meta_schema")), qPrintable(page.lastError()));
    }

    void connectionDialogNamesAMissingFieldAndKeepsNoPassword() {
        InspectionConnectionDialog dialog;
        auto filled = request();
        dialog.setRequest(filled);
        QVERIFY(dialog.problem().isEmpty());
        const auto back = dialog.request();
        QCOMPARE(back.target.port, filled.target.port);
        QCOMPARE(back.metaSchema, filled.metaSchema);
        QCOMPARE(back.upstream.has_value(), true);
        QCOMPARE(back.upstreamSourceId, filled.upstreamSourceId);
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        const QStringList keys = QSettings().allKeys();
        for (const QString& key : keys) {
            QVERIFY2(!QSettings().value(key).toString().contains(QString::fromStdString(filled.target.password)) ||
                         filled.target.password.empty(),
                     qPrintable(key));
        }
        filled.metaSchema.clear();
        InspectionConnectionDialog empty;
        empty.setRequest(filled);
        QVERIFY(empty.problem().contains(QStringLiteral("meta schema")));
    }
};

QTEST_MAIN(CheckpointInspectionPageTest)
#include "test_checkpoint_inspection_page.moc"
