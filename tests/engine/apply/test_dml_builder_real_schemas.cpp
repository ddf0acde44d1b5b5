// The SQL for ordinary schemas (issue 10): safe mode writes an upsert where that is exact and never a
// delete that a foreign key would cascade (refused instead), generated columns are never written, and
// UPDATEs and DELETEs say how many rows they must find.
#include <QtTest>

#include "engine/apply/dml_builder.h"
#include "tests/engine/apply/row_change_fixtures.h"

using namespace syncscope;
using namespace syncscope::apply;
using namespace syncscope::apply::testing;

namespace {

QStringList sqlOf(const std::vector<DmlStatement>& statements) {
    QStringList sql;
    for (const auto& statement : statements) {
        sql << QString::fromStdString(statement.sql);
    }
    return sql;
}

const QString kUpsert = "INSERT INTO `db`.`t` (`id`, `v`) VALUES (?, ?) ON DUPLICATE KEY UPDATE `v` = VALUES(`v`)";
const QString kReplace = "REPLACE INTO `db`.`t` (`id`, `v`) VALUES (?, ?)";
const QString kDeleteOld = "DELETE FROM `db`.`t` WHERE `id` = ?";
const QString kUpdateByKey = "UPDATE `db`.`t` SET `id` = ?, `v` = ? WHERE `id` = ?";

// `t` (id, v, g) whose downstream twin computes g (a generated column) and has only the primary key.
std::shared_ptr<const schema::TableSchema> tableWithGeneratedColumn() {
    schema::TableSchema made = *table("db", "t", {"id", "v", "g"}, {0});
    std::vector<schema::SchemaColumn> downstreamColumns = made.columns();
    downstreamColumns[2].generated = true;
    schema::TableSchema downstream(made.name(), downstreamColumns, {0}, {}, schema::SchemaOrigin::Downstream);
    downstream.setDownstreamUniqueIndexes({{"id"}});
    made.adoptDownstreamFacts(downstream);
    made.judgeRowKeyAgainst(downstream);
    return std::make_shared<const schema::TableSchema>(std::move(made));
}

}  // namespace

class DmlBuilderRealSchemasTest : public QObject {
    Q_OBJECT

private slots:
    void safeModeUpsertsWhereExactAndNeverCascades_data() {
        QTest::addColumn<bool>("soleKey");           // the row key is the downstream's only unique index
        QTest::addColumn<bool>("referenced");        // a downstream foreign key references the table
        QTest::addColumn<bool>("foreignKeyChecks");  // ... and the target session checks foreign keys
        QTest::addColumn<bool>("keyMoves");
        QTest::addColumn<QStringList>("expectedSql");  // empty: refused
        QTest::addRow("sole key: upsert") << true << false << false << false << QStringList{kUpsert};
        QTest::addRow("another unique index: REPLACE") << false << false << false << false << QStringList{kReplace};
        QTest::addRow("referenced, checks off: REPLACE (InnoDB does not cascade)")
            << false << true << false << false << QStringList{kReplace};
        QTest::addRow("referenced, checks on, sole key: upsert")
            << true << true << true << false << QStringList{kUpsert};
        QTest::addRow("referenced, checks on, another unique index, unique values kept: UPDATE by the key")
            << false << true << true << false << QStringList{kUpdateByKey};
        QTest::addRow("referenced, checks on, key moves: refused") << true << true << true << true << QStringList{};
        QTest::addRow("key moves, checks off: DELETE old + upsert")
            << true << true << false << true << QStringList{kDeleteOld, kUpsert};
        QTest::addRow("not referenced, checks on, key moves: DELETE old + REPLACE")
            << false << false << true << true << QStringList{kDeleteOld, kReplace};
    }
    void safeModeUpsertsWhereExactAndNeverCascades() {
        QFETCH(bool, soleKey);
        QFETCH(bool, referenced);
        QFETCH(bool, foreignKeyChecks);
        QFETCH(bool, keyMoves);
        QFETCH(QStringList, expectedSql);
        schema::TableSchema made =
            soleKey ? *soleKeyTable("db", "t", {"id", "v"}, {0}) : *table("db", "t", {"id", "v"}, {0});
        if (referenced) {
            made.setReferencingForeignKeys({"`db`.`child` (fk_t, ON DELETE CASCADE)"});
        }
        auto t = std::make_shared<const schema::TableSchema>(std::move(made));
        std::vector<RowChange> changes{update(t, ints({1, 10}), ints({keyMoves ? 2 : 1, 20}), true)};
        DmlBuilder builder(true, DmlBuilder::kDefaultMaxRowsPerStatement, foreignKeyChecks);
        if (!expectedSql.isEmpty()) {
            QCOMPARE(sqlOf(builder.build(changes)), expectedSql);
            return;
        }
        try {
            builder.build(changes);
            QFAIL("a safe-mode change that would cascade was written");
        } catch (const SafeModeRefusal& e) {
            QCOMPARE(e.change().before[0].asSigned(), int64_t(1));
            QVERIFY2(std::string(e.what()).find("`db`.`child` (fk_t, ON DELETE CASCADE)") != std::string::npos,
                     e.what());
            QVERIFY2(std::string(e.what()).find("update of db.t") != std::string::npos, e.what());
        }
    }

    // A parent with a second unique index and ON DELETE CASCADE children, foreign_key_checks=1: a safe-mode
    // write that keeps every unique value goes as UPDATE by the key and, only where that finds no row, an
    // INSERT (neither deletes, so no child goes); one that changes the second unique value is refused.
    void safeModeWritesOfACascadingParentUpdateThenInsert_data() {
        QTest::addColumn<int>("op");
        QTest::addColumn<bool>("uniqueChanges");
        QTest::addColumn<QString>("expectedSql");  // empty: refused
        QTest::addColumn<int>("params");
        QTest::addColumn<QString>("insertSql");
        QTest::addRow("update of a note")
            << int(RowOp::Update) << false << "UPDATE `db`.`users` SET `id` = ?, `email` = ?, `note` = ? WHERE `id` = ?"
            << 4 << "INSERT INTO `db`.`users` (`id`, `email`, `note`) VALUES (?, ?, ?)";
        QTest::addRow("insert") << int(RowOp::Insert) << false
                                << "UPDATE `db`.`users` SET `id` = ?, `email` = ?, `note` = ? WHERE `id` = ?" << 4
                                << "INSERT INTO `db`.`users` (`id`, `email`, `note`) VALUES (?, ?, ?)";
        QTest::addRow("update of the second unique value: refused") << int(RowOp::Update) << true << "" << 0 << "";
    }
    void safeModeWritesOfACascadingParentUpdateThenInsert() {
        QFETCH(int, op);
        QFETCH(bool, uniqueChanges);
        QFETCH(QString, expectedSql);
        QFETCH(int, params);
        QFETCH(QString, insertSql);
        schema::TableSchema made = *secondUniqueTable("db", "users", {"id", "email", "note"}, {0}, {"email"});
        made.setReferencingForeignKeys({"`db`.`orders` (fk_user, ON DELETE CASCADE)"});
        auto users = std::make_shared<const schema::TableSchema>(std::move(made));
        std::vector<RowChange> changes;
        if (RowOp(op) == RowOp::Insert) {
            changes.push_back(insert(users, ints({7, 70, 1}), true));
        } else {
            changes.push_back(update(users, ints({7, 70, 1}), ints({7, uniqueChanges ? 71 : 70, 2}), true));
        }
        DmlBuilder builder(true, DmlBuilder::kDefaultMaxRowsPerStatement, true);
        if (expectedSql.isEmpty()) {
            try {
                builder.build(changes);
                QFAIL("a safe-mode change of a unique value that only REPLACE could write was written");
            } catch (const SafeModeRefusal& e) {
                QVERIFY2(std::string(e.what()).find("changes a unique value") != std::string::npos, e.what());
                QVERIFY2(std::string(e.what()).find("`db`.`orders` (fk_user, ON DELETE CASCADE)") != std::string::npos,
                         e.what());
            }
            return;
        }
        std::vector<DmlStatement> statements = builder.build(changes);
        QCOMPARE(statements.size(), size_t{1});
        QCOMPARE(QString::fromStdString(statements[0].sql), expectedSql);
        QCOMPARE(int(statements[0].params.size()), params);
        // The WHERE finds the row by its key (7), whichever image carries it.
        QCOMPARE(statements[0].params.back()->asSigned(), int64_t(7));
        QCOMPARE(statements[0].mustMatch, size_t{0});  // safe mode: a replayed change may find nothing
        QCOMPARE(statements[0].insertWhenUnmatched.size(), size_t{1});
        QCOMPARE(QString::fromStdString(statements[0].insertWhenUnmatched[0].sql), insertSql);
        QCOMPARE(statements[0].insertWhenUnmatched[0].params[2]->asSigned(),
                 int64_t(RowOp(op) == RowOp::Insert ? 1 : 2));
        // A second such change stays a statement of its own: its INSERT depends on its own UPDATE.
        changes.push_back(update(users, ints({8, 80, 1}), ints({8, 80, 3}), true));
        QCOMPARE(builder.build(changes).size(), size_t{2});
    }

    void safeInsertsOfASoleKeyTableMergeIntoOneUpsert() {
        auto t = soleKeyTable("db", "t", {"id", "v"}, {0});
        std::vector<RowChange> changes{insert(t, ints({1, 10}), true), insert(t, ints({2, 20}), true)};
        QCOMPARE(sqlOf(DmlBuilder(true).build(changes)),
                 QStringList{"INSERT INTO `db`.`t` (`id`, `v`) VALUES (?, ?), (?, ?) ON DUPLICATE KEY UPDATE `v` = "
                             "VALUES(`v`)"});
    }

    void generatedColumnsAreNeverWritten_data() {
        QTest::addColumn<bool>("multipleRows");
        QTest::addColumn<int>("op");
        QTest::addColumn<int>("rows");
        QTest::addColumn<QStringList>("expectedSql");
        QTest::addColumn<int>("params");
        QTest::addRow("insert") << true << int(RowOp::Insert) << 1
                                << QStringList{"INSERT INTO `db`.`t` (`id`, `v`) VALUES (?, ?)"} << 2;
        QTest::addRow("update") << false << int(RowOp::Update) << 1
                                << QStringList{"UPDATE `db`.`t` SET `id` = ?, `v` = ? WHERE `id` = ?"} << 3;
        QTest::addRow("updates merged into an upsert")
            << true << int(RowOp::Update) << 2
            << QStringList{"INSERT INTO `db`.`t` (`id`, `v`) VALUES (?, ?), (?, ?) ON DUPLICATE KEY UPDATE `v` = "
                           "VALUES(`v`)"}
            << 4;
    }
    void generatedColumnsAreNeverWritten() {
        QFETCH(bool, multipleRows);
        QFETCH(int, op);
        QFETCH(int, rows);
        QFETCH(QStringList, expectedSql);
        QFETCH(int, params);
        auto t = tableWithGeneratedColumn();
        std::vector<RowChange> changes;
        for (long id = 1; id <= rows; ++id) {
            changes.push_back(RowOp(op) == RowOp::Insert ? insert(t, ints({id, 1, 99}))
                                                         : update(t, ints({id, 1, 99}), ints({id, 2, 98})));
        }
        auto statements = DmlBuilder(multipleRows).build(changes);
        QCOMPARE(sqlOf(statements), expectedSql);
        QCOMPARE(int(statements.front().params.size()), params);
    }

    void updatesAndDeletesSayHowManyRowsTheyMustFind_data() {
        QTest::addColumn<bool>("safe");
        QTest::addColumn<int>("deletes");
        QTest::addColumn<int>("mustMatch");
        QTest::addRow("one delete finds one row") << false << 1 << 1;
        QTest::addRow("a merged delete finds each of its rows") << false << 3 << 3;
        QTest::addRow("safe mode: a replayed delete may find nothing") << true << 3 << 0;
    }
    void updatesAndDeletesSayHowManyRowsTheyMustFind() {
        QFETCH(bool, safe);
        QFETCH(int, deletes);
        QFETCH(int, mustMatch);
        auto t = table("db", "t", {"id", "v"}, {0});
        std::vector<RowChange> changes;
        for (long id = 1; id <= deletes; ++id) {
            changes.push_back(erase(t, ints({id, 1}), safe));
        }
        auto statements = DmlBuilder(true).build(changes);
        QCOMPARE(statements.size(), size_t(1));
        QCOMPARE(int(statements.front().mustMatch), mustMatch);
        QCOMPARE(statements.front().table, t.get());
    }
};

QTEST_GUILESS_MAIN(DmlBuilderRealSchemasTest)
#include "test_dml_builder_real_schemas.moc"
