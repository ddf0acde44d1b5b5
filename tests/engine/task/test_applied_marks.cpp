// Applied marks (engine/apply/applied_marks.h, engine/task/applied_marks_filter.h): a batch records the last
// row of each table without a key in the statement it commits with; a replay drops exactly the rows at or
// before their table's mark, only inside safe mode's window, and keyed tables are never touched.
#include <QtTest>

#include <memory>
#include <vector>

#include "engine/apply/applied_marks.h"
#include "engine/task/applied_marks_filter.h"

using namespace syncscope;

namespace {

std::shared_ptr<const schema::TableSchema> tableOf(const std::string& name, bool keyed) {
    std::vector<schema::SchemaColumn> columns{{"id", binlog::ColumnType::Long, "int", false, false},
                                              {"v", binlog::ColumnType::Long, "int", false, true}};
    return std::make_shared<const schema::TableSchema>(
        schema::TableName{"db", name}, columns, keyed ? std::vector<size_t>{0} : std::vector<size_t>{},
        std::vector<schema::UniqueKey>{}, schema::SchemaOrigin::Downstream);
}

// The rows of one rows event at `file:pos`, `count` of them, as RowChangeBuilder numbers them.
std::vector<apply::RowChange> eventRows(const std::shared_ptr<const schema::TableSchema>& table, const char* file,
                                        uint64_t pos, uint32_t count) {
    auto origin = std::make_shared<apply::RowsOrigin>();
    origin->source = {file, pos, ""};
    std::vector<apply::RowChange> rows;
    for (uint32_t i = 0; i < count; ++i) {
        apply::RowChange change;
        change.table = table;
        change.op = apply::RowOp::Insert;
        change.after = {apply::SqlValue::signedInt(i), apply::SqlValue::signedInt(1)};
        change.origin = origin;
        change.rowInEvent = i;
        rows.push_back(std::move(change));
    }
    return rows;
}

std::vector<uint32_t> indexes(const std::vector<apply::RowChange>& rows) {
    std::vector<uint32_t> found;
    for (const auto& row : rows) {
        found.push_back(row.rowInEvent);
    }
    return found;
}

binlog::Location at(const char* file, uint64_t pos) {
    return binlog::Location(binlog::BinlogPosition(file, pos));
}

}  // namespace

class AppliedMarksTest : public QObject {
    Q_OBJECT

private slots:
    void marksOrderByPositionThenRow() {
        apply::AppliedMark early{binlog::BinlogPosition("bin.000009", 900), 5};
        apply::AppliedMark sameEventLater{binlog::BinlogPosition("bin.000009", 900), 6};
        apply::AppliedMark nextFile{binlog::BinlogPosition("bin.000010", 4), 0};
        QVERIFY(early < sameEventLater);
        QVERIFY(sameEventLater < nextFile);
        QCOMPARE(QString::fromStdString(early.text()), QStringLiteral("bin.000009:900 row 5"));
    }

    void aBatchRecordsTheLastRowOfEachKeylessTable() {
        auto keyless = tableOf("k", false);
        auto other = tableOf("k2", false);
        std::vector<apply::RowChange> batch = eventRows(keyless, "bin.000001", 100, 3);
        for (auto& row : eventRows(other, "bin.000001", 200, 2)) {
            batch.push_back(std::move(row));
        }
        for (auto& row : eventRows(keyless, "bin.000001", 300, 2)) {
            batch.push_back(std::move(row));
        }
        for (auto& row : batch) {
            row.recordApplied = true;
        }
        batch.back().recordApplied = false;  // not marked by the pipeline: never a mark
        apply::AppliedMarkWriter writer({"dm_meta", "task"}, "source-1");
        apply::DmlStatement statement;
        QVERIFY(writer.build(batch, statement));
        QVERIFY2(statement.sql.rfind("INSERT INTO `dm_meta`.`task_syncscope_applied` ", 0) == 0, statement.sql.c_str());
        QVERIFY(statement.sql.find("ON DUPLICATE KEY UPDATE") != std::string::npos);
        QCOMPARE(statement.params.size(), size_t(12));  // two tables, six values each
        // db.k: its last recorded row is row 0 of the event at 300; db.k2: row 1 of the event at 200.
        QCOMPARE(QString::fromStdString(std::string(statement.params[0]->asString())), QStringLiteral("source-1"));
        QCOMPARE(QString::fromStdString(std::string(statement.params[2]->asString())), QStringLiteral("k"));
        QCOMPARE(QString::fromStdString(std::string(statement.params[3]->asString())), QStringLiteral("bin.000001"));
        QCOMPARE(statement.params[4]->asUnsigned(), uint64_t(300));
        QCOMPARE(statement.params[5]->asUnsigned(), uint64_t(0));
        QCOMPARE(QString::fromStdString(std::string(statement.params[8]->asString())), QStringLiteral("k2"));
        QCOMPARE(statement.params[10]->asUnsigned(), uint64_t(200));
        QCOMPARE(statement.params[11]->asUnsigned(), uint64_t(1));
    }

    void anXaBranchRowIsMarkedWhereItsCommitIs() {
        auto keyless = tableOf("k", false);
        std::vector<apply::RowChange> branch = eventRows(keyless, "bin.000003", 100, 3);  // read at XA PREPARE
        task::AppliedMarksFilter filter("task");
        filter.reset({}, at("bin.000003", 4));
        QCOMPARE(filter.filterBranch(branch, {"bin.000004", 700, ""}, false), size_t(0));
        apply::AppliedMarkWriter writer({"dm_meta", "task"}, "source-1");
        apply::DmlStatement statement;
        QVERIFY(writer.build(branch, statement));
        // The XA COMMIT after a rotation: the mark is there, numbered in the branch.
        QCOMPARE(QString::fromStdString(std::string(statement.params[3]->asString())), QStringLiteral("bin.000004"));
        QCOMPARE(statement.params[4]->asUnsigned(), uint64_t(700));
        QCOMPARE(statement.params[5]->asUnsigned(), uint64_t(2));
        QCOMPARE(QString::fromStdString(branch.front().source().text()), QStringLiteral("bin.000003:100"));
    }

    void aReplayedXaBranchDropsItsCommittedRowsOnly() {
        auto keyless = tableOf("k", false);
        auto keyed = tableOf("t", true);
        std::vector<apply::RowChange> branch = eventRows(keyless, "bin.000003", 100, 2);
        for (auto& row : eventRows(keyed, "bin.000003", 200, 1)) {
            branch.push_back(std::move(row));
        }
        for (auto& row : eventRows(keyless, "bin.000003", 300, 2)) {
            branch.push_back(std::move(row));
        }
        // Before the stop a batch committed the branch up to its fourth row (index 3: row 0 of the event at 300).
        task::AppliedMarksFilter filter("task");
        filter.reset({{keyless->name(), {binlog::BinlogPosition("bin.000004", 700), 3}}}, at("bin.000003", 4));
        QCOMPARE(filter.filterBranch(branch, {"bin.000004", 700, ""}, true), size_t(3));
        QCOMPARE(branch.size(), size_t(2));
        QCOMPARE(branch[0].target().table, std::string("t"));  // a keyed row stays (safe mode makes it exact)
        QCOMPARE(branch[1].rowInEvent, uint32_t(4));
    }

    void aBatchWithoutKeylessRowsRecordsNothing() {
        std::vector<apply::RowChange> batch = eventRows(tableOf("t", true), "bin.000001", 100, 3);
        apply::AppliedMarkWriter writer({"dm_meta", "task"}, "source-1");
        apply::DmlStatement statement;
        QVERIFY(!writer.build(batch, statement));
    }

    void aReplayDropsTheRowsAtOrBeforeTheMark() {
        auto keyless = tableOf("k", false);
        task::AppliedMarksFilter filter("task");
        filter.reset({{keyless->name(), {binlog::BinlogPosition("bin.000002", 500), 2}}}, at("bin.000002", 100));
        QCOMPARE(filter.marksLeft(), size_t(1));

        auto before = eventRows(keyless, "bin.000002", 300, 4);
        QCOMPARE(filter.filter(before, binlog::BinlogPosition("bin.000002", 300), true), size_t(4));
        QVERIFY(before.empty());

        auto split = eventRows(keyless, "bin.000002", 500, 5);  // the batch committed rows 0-2 of this event
        QCOMPARE(filter.filter(split, binlog::BinlogPosition("bin.000002", 500), true), size_t(3));
        QCOMPARE(indexes(split), (std::vector<uint32_t>{3, 4}));
        QVERIFY(split.front().recordApplied);

        auto after = eventRows(keyless, "bin.000002", 700, 2);
        QCOMPARE(filter.filter(after, binlog::BinlogPosition("bin.000002", 700), true), size_t(0));
        QCOMPARE(after.size(), size_t(2));
        QCOMPARE(filter.marksLeft(), size_t(0));  // passed: later rows are never compared again
    }

    void outsideTheReplayWindowEveryRowIsApplied() {
        auto keyless = tableOf("k", false);
        task::AppliedMarksFilter filter("task");
        filter.reset({{keyless->name(), {binlog::BinlogPosition("bin.000002", 500), 2}}}, at("bin.000002", 100));
        auto rows = eventRows(keyless, "bin.000002", 300, 4);
        QCOMPARE(filter.filter(rows, binlog::BinlogPosition("bin.000002", 300), false), size_t(0));
        QCOMPARE(rows.size(), size_t(4));
        QVERIFY(rows.back().recordApplied);
    }

    void marksAtOrBeforeTheGlobalPointAreForgotten() {
        auto keyless = tableOf("k", false);
        task::AppliedMarksFilter filter("task");
        filter.reset({{keyless->name(), {binlog::BinlogPosition("bin.000002", 500), 2}}}, at("bin.000002", 500));
        QCOMPARE(filter.marksLeft(), size_t(0));
    }

    void keyedTablesAreNeitherMarkedNorFiltered() {
        auto keyed = tableOf("t", true);
        task::AppliedMarksFilter filter("task");
        filter.reset({{keyed->name(), {binlog::BinlogPosition("bin.000002", 500), 2}}}, at("bin.000002", 100));
        auto rows = eventRows(keyed, "bin.000002", 300, 4);
        QCOMPARE(filter.filter(rows, binlog::BinlogPosition("bin.000002", 300), true), size_t(0));
        QCOMPARE(rows.size(), size_t(4));
        QVERIFY(!rows.front().recordApplied);
    }
};

QTEST_GUILESS_MAIN(AppliedMarksTest)
#include "test_applied_marks.moc"
