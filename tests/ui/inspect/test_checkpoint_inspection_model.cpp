// The inspection model without servers, from reports built by hand: one row per point plus rows for
// a missing global row and an unreadable table, a capped event count reads "at least", numbers sort as
// numbers, the filter proxy keeps anomalies and matches text, and both pass QAbstractItemModelTester
// across resets.
#include <QtTest>

#include <QAbstractItemModelTester>

#include "ui/inspect/checkpoint_inspection_model.h"
#include "ui/inspect/inspection_filter_proxy.h"

using namespace syncscope;
using namespace syncscope::ui;
using Model = CheckpointInspectionModel;

namespace {

inspect::InspectedPoint point(const std::string& schema, const std::string& table, uint64_t offset) {
    inspect::InspectedPoint p;
    p.row.sourceId = "src";
    p.row.schema = schema;
    p.row.table = table;
    p.row.isGlobal = schema.empty();
    p.row.binlogName = "mysql-bin.000002";
    p.row.binlogPos = offset;
    p.location = binlog::Location::fromParts("mysql-bin.000002", offset, "");
    return p;
}

inspect::CheckpointAnomaly ahead(int64_t bytes, uint64_t events, uint64_t tableEvents, bool capped) {
    inspect::SkipWindow window;
    window.from = binlog::Location::fromParts("mysql-bin.000002", 4, "");
    window.to = binlog::Location::fromParts("mysql-bin.000002", 4 + uint64_t(bytes), "");
    window.bytes = bytes;
    window.events = events;
    window.tableRowsEvents = tableEvents;
    window.eventsCapped = capped;
    return {inspect::AnomalyKind::TableAheadOfGlobal, "ahead: a resume skips this table's events", window};
}

inspect::InspectionReport report() {
    inspect::InspectionReport report;
    report.target = "root@db:3306";
    inspect::InspectedCheckpointTable table;
    table.metaSchema = "dm_meta";
    table.tableName = "shop_syncer_checkpoint";
    table.taskName = "shop";
    inspect::InspectedSource source;
    source.sourceId = "src";
    source.global = point("", "", 4);
    auto small = point("shop", "small", 9004);
    small.anomalies.push_back(ahead(9000, 9, 2, false));
    auto large = point("shop", "large", 200004);
    large.anomalies.push_back(ahead(200000, 200000, 150000, true));
    source.tables = {point("shop", "fine", 4), large, small};
    table.sources.push_back(source);
    inspect::InspectedSource orphan;
    orphan.sourceId = "orphan";
    orphan.tables = {point("shop", "fine", 4)};
    orphan.anomalies.push_back({inspect::AnomalyKind::MissingGlobalRow, "no global row", std::nullopt});
    table.sources.push_back(orphan);
    report.tables.push_back(table);
    inspect::InspectedCheckpointTable broken;
    broken.metaSchema = "dm_meta";
    broken.tableName = "old_syncer_checkpoint";
    broken.taskName = "old";
    broken.problem = "column binlog_pos is missing";
    report.tables.push_back(broken);
    return report;
}

int findRow(const QAbstractItemModel& model, const QString& source, const QString& pointOf) {
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.index(row, Model::SourceColumn).data().toString() == source &&
            model.index(row, Model::PointOfColumn).data().toString() == pointOf) {
            return row;
        }
    }
    return -1;
}

}  // namespace

class CheckpointInspectionModelTest : public QObject {
    Q_OBJECT

private slots:
    void rowsFlagsAndSorting() {
        Model model;
        InspectionFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester modelTester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);

        model.setReport(report());
        // src: global + 3 tables; orphan: missing global + 1 table; the unreadable table.
        QCOMPARE(model.rowCount(), 7);
        QCOMPARE(model.anomalyRowCount(), 4);

        const int large = findRow(model, QStringLiteral("src"), QStringLiteral("shop.large"));
        QCOMPARE(model.index(large, Model::SkippedEventsColumn).data().toString(), QStringLiteral(">= 200000"));
        QCOMPARE(model.index(large, Model::SkippedTableEventsColumn).data().toString(), QStringLiteral(">= 150000"));
        QVERIFY(model.index(large, Model::FlagColumn).data(Qt::DecorationRole).isValid());
        QVERIFY(model.index(large, 0).data(Qt::BackgroundRole).isValid());

        const int missing = findRow(model, QStringLiteral("orphan"), QStringLiteral("global (missing)"));
        QCOMPARE(model.index(missing, Model::FlagColumn).data().toString(), QStringLiteral("missing global row"));
        const int broken = findRow(model, QString(), QStringLiteral("(whole table)"));
        QVERIFY(broken >= 0);
        QCOMPARE(model.index(broken, Model::TaskColumn).data().toString(), QStringLiteral("old"));
        QVERIFY(model.index(broken, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("binlog_pos")));

        const int fine = findRow(model, QStringLiteral("src"), QStringLiteral("shop.fine"));
        QVERIFY(!model.index(fine, 0).data(Model::HasAnomalyRole).toBool());
        QVERIFY(!model.index(fine, 0).data(Qt::BackgroundRole).isValid());

        // 200000 > 9000 as numbers ("9000" > "200000" as text).
        proxy.sort(Model::SkippedBytesColumn, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, Model::PointOfColumn).data().toString(), QStringLiteral("shop.large"));
        QCOMPARE(proxy.index(1, Model::PointOfColumn).data().toString(), QStringLiteral("shop.small"));

        proxy.setOnlyAnomalies(true);
        QCOMPARE(proxy.rowCount(), 4);
        proxy.setTextFilter(QStringLiteral("SMALL"));
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setOnlyAnomalies(false);
        proxy.setTextFilter(QStringLiteral("orphan"));
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setTextFilter(QString());

        // A second report replaces the first; an empty one leaves no rows.
        model.setReport(report());
        QCOMPARE(model.rowCount(), 7);
        model.setReport(inspect::InspectionReport{});
        QCOMPARE(model.rowCount(), 0);
        model.clear();
        QCOMPARE(proxy.rowCount(), 0);
    }

    void appliedMarksAreRowsOfTheirSource() {
        Model model;
        QAbstractItemModelTester modelTester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        inspect::InspectionReport withMarks = report();
        inspect::InspectedAppliedMark mark;
        mark.schema = "shop";
        mark.table = "log";
        mark.event = binlog::BinlogPosition("mysql-bin.000002", 5120);
        mark.row = 3;
        mark.placement = binlog::AxisPlacement::OnAxis;
        withMarks.tables[0].sources[0].appliedMarks.push_back(mark);
        withMarks.tables[0].sources[1].appliedMarksProblem =
            "applied marks table `dm_meta`.`shop_syncscope_applied`: "
            "unreadable position";
        model.setReport(withMarks);
        QCOMPARE(model.rowCount(), 9);
        // The unreadable marks are an anomaly row; a readable mark is none.
        QCOMPARE(model.anomalyRowCount(), 5);

        const int row = findRow(model, QStringLiteral("src"), QStringLiteral("shop.log (applied mark)"));
        QVERIFY(row >= 0);
        QVERIFY(model.pointRow(row).appliedMark);
        QCOMPARE(model.index(row, Model::PositionColumn).data().toString(),
                 QStringLiteral("mysql-bin.000002:5120 row 3"));
        QCOMPARE(model.index(row, Model::UpstreamColumn).data().toString(), QStringLiteral("in a file it has"));
        QVERIFY(model.index(row, Model::FlagColumn).data().toString().isEmpty());
        QVERIFY(model.index(row, 0).data(Qt::FontRole).value<QFont>().italic());
        QVERIFY(model.index(row, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("no key")));
        // Listed after its source's points.
        QVERIFY(row > findRow(model, QStringLiteral("src"), QStringLiteral("shop.small")));

        const int problem = findRow(model, QStringLiteral("orphan"), QStringLiteral("applied marks"));
        QVERIFY(problem >= 0);
        QCOMPARE(model.index(problem, Model::FlagColumn).data().toString(), QStringLiteral("unreadable"));
        QVERIFY(
            model.index(problem, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("unreadable position")));
    }

    void headersSayWhatEachColumnIs() {
        Model model;
        for (int column = 0; column < Model::ColumnCount; ++column) {
            QVERIFY(!model.headerData(column, Qt::Horizontal).toString().isEmpty());
            QVERIFY(!model.headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
        }
    }
};

QTEST_MAIN(CheckpointInspectionModelTest)
#include "test_checkpoint_inspection_model.moc"
