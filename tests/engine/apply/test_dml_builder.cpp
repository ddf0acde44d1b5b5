// The SQL the downstream receives: values always bound (never in the text), every name quoted,
// safe mode idempotent, multi-row merging only where order and shape allow, NULL keys matched.
#include <QtTest>

#include "engine/apply/dml_builder.h"
#include "engine/apply/quoted_name.h"
#include "engine/common/error.h"
#include "tests/engine/apply/row_change_fixtures.h"

using namespace syncscope;
using namespace syncscope::apply;
using namespace syncscope::apply::testing;

namespace {

std::vector<std::string> sqlOf(const std::vector<DmlStatement>& statements) {
    std::vector<std::string> sql;
    for (const auto& s : statements) {
        sql.push_back(s.sql);
    }
    return sql;
}

std::vector<std::string> paramsOf(const DmlStatement& statement) {
    std::vector<std::string> params;
    for (const auto* value : statement.params) {
        params.push_back(value->display());
    }
    return params;
}

QStringList toList(const std::vector<std::string>& v) {
    QStringList list;
    for (const auto& s : v) {
        list << QString::fromStdString(s);
    }
    return list;
}

// sysbench's write-only transaction (UPDATE k, UPDATE c, DELETE, INSERT of the deleted id) three times on
// a table (id, k, c).
std::vector<RowChange> writeOnlyTransactions(const std::shared_ptr<const schema::TableSchema>& t) {
    std::vector<RowChange> changes;
    for (long base : {10, 20, 30}) {
        changes.push_back(update(t, ints({base + 1, 0, base + 1}), ints({base + 1, 1, base + 1})));
        changes.push_back(update(t, ints({base + 2, 0, base + 2}), ints({base + 2, 0, base + 902})));
        changes.push_back(erase(t, ints({base + 3, 0, base + 3})));
        changes.push_back(insert(t, ints({base + 3, 5, base + 903})));
    }
    return changes;
}

}  // namespace

class DmlBuilderTest : public QObject {
    Q_OBJECT

private slots:
    void singleRowShapes_data() {
        QTest::addColumn<int>("op");
        QTest::addColumn<bool>("safe");
        QTest::addColumn<bool>("keyChanges");
        QTest::addColumn<QStringList>("expectedSql");
        QTest::addColumn<QStringList>("expectedParams");
        const int ins = int(RowOp::Insert), upd = int(RowOp::Update), del = int(RowOp::Delete);
        QTest::addRow("insert") << ins << false << false
                                << QStringList{"INSERT INTO `db`.`t` (`id`, `v`) VALUES (?, ?)"}
                                << QStringList{"1", "20"};
        QTest::addRow("safe insert is REPLACE")
            << ins << true << false << QStringList{"REPLACE INTO `db`.`t` (`id`, `v`) VALUES (?, ?)"}
            << QStringList{"1", "20"};
        QTest::addRow("update by key") << upd << false << false
                                       << QStringList{"UPDATE `db`.`t` SET `id` = ?, `v` = ? WHERE `id` = ?"}
                                       << QStringList{"1", "20", "1"};
        QTest::addRow("update that moves the key, by the old key")
            << upd << false << true << QStringList{"UPDATE `db`.`t` SET `id` = ?, `v` = ? WHERE `id` = ?"}
            << QStringList{"2", "20", "1"};
        QTest::addRow("safe update keeping the key is REPLACE")
            << upd << true << false << QStringList{"REPLACE INTO `db`.`t` (`id`, `v`) VALUES (?, ?)"}
            << QStringList{"1", "20"};
        QTest::addRow("safe update moving the key is DELETE old + REPLACE new")
            << upd << true << true
            << QStringList{"DELETE FROM `db`.`t` WHERE `id` = ?", "REPLACE INTO `db`.`t` (`id`, `v`) VALUES (?, ?)"}
            << QStringList{"1", "2", "20"};
        QTest::addRow("delete by key") << del << false << false << QStringList{"DELETE FROM `db`.`t` WHERE `id` = ?"}
                                       << QStringList{"1"};
        QTest::addRow("safe delete is the same delete")
            << del << true << false << QStringList{"DELETE FROM `db`.`t` WHERE `id` = ?"} << QStringList{"1"};
    }
    void singleRowShapes() {
        QFETCH(int, op);
        QFETCH(bool, safe);
        QFETCH(bool, keyChanges);
        QFETCH(QStringList, expectedSql);
        QFETCH(QStringList, expectedParams);
        auto t = table("db", "t", {"id", "v"}, {0});
        RowChange change;
        switch (RowOp(op)) {
            case RowOp::Insert:
                change = insert(t, ints({1, 20}), safe);
                break;
            case RowOp::Update:
                change = update(t, ints({1, 10}), ints({keyChanges ? 2 : 1, 20}), safe);
                break;
            case RowOp::Delete:
                change = erase(t, ints({1, 10}), safe);
                break;
        }
        std::vector<RowChange> changes{change};
        auto statements = DmlBuilder(true).build(changes);
        QCOMPARE(toList(sqlOf(statements)), expectedSql);
        std::vector<std::string> params;
        for (const auto& s : statements) {
            auto p = paramsOf(s);
            params.insert(params.end(), p.begin(), p.end());
            QCOMPARE(s.rowCount, size_t(1));
        }
        QCOMPARE(toList(params), expectedParams);
    }

    void awkwardNamesAreQuotedWithBackticksDoubled_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("quoted");
        QTest::addRow("reserved word") << "select"
                                       << "`select`";
        QTest::addRow("space and quotes") << "my 'odd' \"name\""
                                          << "`my 'odd' \"name\"`";
        QTest::addRow("backtick doubled") << "a`b"
                                          << "`a``b`";
        QTest::addRow("only backticks") << "``"
                                        << "``````";
        QTest::addRow("unicode") << QString::fromUtf8("täble 表 😀") << QString::fromUtf8("`täble 表 😀`");
        QTest::addRow("semicolon and comment") << "x; DROP TABLE y; --"
                                               << "`x; DROP TABLE y; --`";
    }
    void awkwardNamesAreQuotedWithBackticksDoubled() {
        QFETCH(QString, name);
        QFETCH(QString, quoted);
        QCOMPARE(QString::fromStdString(quoteName(name.toStdString())), quoted);
        auto t = table(name.toStdString(), name.toStdString(), {name.toStdString()}, {0});
        std::vector<RowChange> changes{insert(t, ints({1}))};
        auto statements = DmlBuilder(false).build(changes);
        QCOMPARE(QString::fromStdString(statements.front().sql),
                 "INSERT INTO " + quoted + "." + quoted + " (" + quoted + ") VALUES (?)");
    }

    void valuesAreNeverPartOfTheSqlText() {
        auto t = table("db", "t", {"id", "v"}, {0});
        std::vector<SqlValue> row{SqlValue::signedInt(7), SqlValue::text("'); DROP TABLE t; --")};
        std::vector<RowChange> changes{insert(t, row)};
        auto statements = DmlBuilder(false).build(changes);
        QVERIFY(statements.front().sql.find("DROP") == std::string::npos);
        QCOMPARE(statements.front().params.size(), size_t(2));
        QCOMPARE(std::string(statements.front().params[1]->asString()), std::string("'); DROP TABLE t; --"));
    }

    void nullInTheKeyUsesIsNull() {
        // No primary key: every column is the key, and a NULL must match with IS NULL, one row at a time.
        auto t = table("db", "t", {"a", "b"}, {});
        std::vector<RowChange> changes{erase(t, {SqlValue::signedInt(1), SqlValue::null()}),
                                       update(t, {SqlValue::null(), SqlValue::signedInt(2)}, ints({3, 4}))};
        auto statements = DmlBuilder(true).build(changes);
        QCOMPARE(toList(sqlOf(statements)),
                 (QStringList{"DELETE FROM `db`.`t` WHERE `a` = ? AND `b` IS NULL LIMIT 1",
                              "UPDATE `db`.`t` SET `a` = ?, `b` = ? WHERE `a` IS NULL AND `b` = ? LIMIT 1"}));
        QCOMPARE(toList(paramsOf(statements[0])), QStringList{"1"});
        QCOMPARE(toList(paramsOf(statements[1])), (QStringList{"3", "4", "2"}));
    }

    // Soak seed 91000: without a key, rows equal only under a _ci collation ('e45', 'é45') are told apart by
    // comparing text in the character set's binary collation; numbers (an ENUM's index too), binary types
    // and _bin columns compare as they are.
    void withoutAKeyTextComparesItsBytes() {
        auto made = *table("db", "t", {"a", "b", "c", "d"}, {});
        std::vector<schema::SchemaColumn> columns = made.columns();
        columns[1].collation = "utf8mb4_general_ci";
        columns[2].collation = "latin1_bin";
        columns[3].collation = "utf8mb4_unicode_ci";  // an ENUM: its value comes as the index
        auto t = std::make_shared<const schema::TableSchema>(made.name(), columns, std::vector<size_t>{},
                                                             std::vector<schema::UniqueKey>{},
                                                             schema::SchemaOrigin::TableMap);
        std::vector<SqlValue> row{SqlValue::signedInt(8), SqlValue::text("e45"), SqlValue::bytes("x"),
                                  SqlValue::signedInt(2)};
        std::vector<RowChange> changes{erase(t, row)};
        auto statements = DmlBuilder(false).build(changes);
        QCOMPARE(QString::fromStdString(statements.front().sql),
                 QString("DELETE FROM `db`.`t` WHERE `a` = ? AND `b` COLLATE utf8mb4_bin = ? AND `c` = ? AND `d` = ? "
                         "LIMIT 1"));
        // With a key the key's own collation finds the row: a unique index allows one row per collation class.
        auto keyed = table("db", "k", {"id", "b"}, {1});
        std::vector<schema::SchemaColumn> keyedColumns = keyed->columns();
        keyedColumns[1].collation = "utf8mb4_general_ci";
        auto withCollation = std::make_shared<const schema::TableSchema>(
            keyed->name(), keyedColumns, std::vector<size_t>{1}, std::vector<schema::UniqueKey>{},
            schema::SchemaOrigin::TableMap);
        std::vector<RowChange> keyedChanges{erase(withCollation, {SqlValue::signedInt(1), SqlValue::text("e45")})};
        QCOMPARE(QString::fromStdString(DmlBuilder(false).build(keyedChanges).front().sql),
                 QString("DELETE FROM `db`.`k` WHERE `b` = ?"));
    }

    // Issue 10, 5: safe mode never deletes a row the upstream still has. Without a key an equal row may
    // be another row of the upstream's, so an INSERT stays an INSERT and an UPDATE or DELETE changes one
    // row found by the before image.
    void safeModeWithoutAKeyNeverDeletesAnEqualRow_data() {
        QTest::addColumn<int>("op");
        QTest::addColumn<QStringList>("expectedSql");
        QTest::addColumn<QStringList>("expectedParams");
        QTest::addColumn<bool>("nullableUnique");  // the downstream has a UNIQUE index on nullable `b`
        QTest::addRow("insert stays a plain insert")
            << int(RowOp::Insert) << QStringList{"INSERT INTO `db`.`t` (`a`, `b`) VALUES (?, ?)"}
            << QStringList{"1", "2"} << false;
        QTest::addRow("insert with a nullable unique index: an upsert finds the replayed row")
            << int(RowOp::Insert)
            << QStringList{"INSERT INTO `db`.`t` (`a`, `b`) VALUES (?, ?) ON DUPLICATE KEY UPDATE `a` = VALUES(`a`), "
                           "`b` = VALUES(`b`)"}
            << QStringList{"1", "2"} << true;
        QTest::addRow("update changes one row found by the before image")
            << int(RowOp::Update)
            << QStringList{"UPDATE `db`.`t` SET `a` = ?, `b` = ? WHERE `a` = ? AND `b` = ? LIMIT 1"}
            << QStringList{"1", "2", "1", "1"} << false;
        QTest::addRow("delete removes one row found by the before image")
            << int(RowOp::Delete) << QStringList{"DELETE FROM `db`.`t` WHERE `a` = ? AND `b` = ? LIMIT 1"}
            << QStringList{"1", "1"} << false;
    }
    void safeModeWithoutAKeyNeverDeletesAnEqualRow() {
        QFETCH(int, op);
        QFETCH(QStringList, expectedSql);
        QFETCH(QStringList, expectedParams);
        QFETCH(bool, nullableUnique);
        auto t = table("db", "t", {"a", "b"}, {});
        if (nullableUnique) {
            schema::TableSchema withIndex = *t;
            withIndex.setDownstreamUniqueIndexes({{"b"}});
            t = std::make_shared<const schema::TableSchema>(std::move(withIndex));
        }
        std::vector<RowChange> changes;
        switch (RowOp(op)) {
            case RowOp::Insert:
                changes.push_back(insert(t, ints({1, 2}), true));
                break;
            case RowOp::Update:
                changes.push_back(update(t, ints({1, 1}), ints({1, 2}), true));
                break;
            case RowOp::Delete:
                changes.push_back(erase(t, ints({1, 1}), true));
                break;
        }
        auto statements = DmlBuilder(true).build(changes);
        QCOMPARE(toList(sqlOf(statements)), expectedSql);
        std::vector<std::string> params;
        for (const auto& statement : statements) {
            auto p = paramsOf(statement);
            params.insert(params.end(), p.begin(), p.end());
        }
        QCOMPARE(toList(params), expectedParams);
    }

    void consecutiveInsertsOfOneTableBecomeOneStatement() {
        auto t = table("db", "t", {"id", "v"}, {0});
        auto other = table("db", "other", {"id", "v"}, {0});
        std::vector<RowChange> changes{insert(t, ints({1, 10})),       insert(t, ints({2, 20})),
                                       insert(t, ints({3, 30})),       insert(other, ints({1, 1})),
                                       insert(t, ints({4, 40}), true), insert(t, ints({5, 50}), true)};
        auto statements = DmlBuilder(true).build(changes);
        // The batch's changes of each table come together (t first: it appeared first).
        QCOMPARE(toList(sqlOf(statements)),
                 (QStringList{"INSERT INTO `db`.`t` (`id`, `v`) VALUES (?, ?), (?, ?), (?, ?)",
                              "REPLACE INTO `db`.`t` (`id`, `v`) VALUES (?, ?), (?, ?)",
                              "INSERT INTO `db`.`other` (`id`, `v`) VALUES (?, ?)"}));
        QCOMPARE(toList(paramsOf(statements[0])), (QStringList{"1", "10", "2", "20", "3", "30"}));
        QCOMPARE(toList(paramsOf(statements[1])), (QStringList{"4", "40", "5", "50"}));
        QCOMPARE(statements[0].rowCount, size_t(3));
    }

    void changesOfEachTableKeepTheirOrderWhenGrouped() {
        auto t = table("db", "t", {"id", "v"}, {0});
        auto other = table("db", "other", {"id", "v"}, {0});
        // Interleaved as sysbench writes them: one row per table in turn.
        std::vector<RowChange> changes{
            insert(t, ints({1, 10})), insert(other, ints({1, 1})), erase(t, ints({1, 10})), insert(other, ints({2, 2})),
            insert(t, ints({1, 11})), insert(other, ints({3, 3})), insert(t, ints({2, 20}))};
        auto statements = DmlBuilder(true).build(changes);
        QCOMPARE(toList(sqlOf(statements)),
                 (QStringList{"INSERT INTO `db`.`t` (`id`, `v`) VALUES (?, ?)", "DELETE FROM `db`.`t` WHERE `id` = ?",
                              "INSERT INTO `db`.`t` (`id`, `v`) VALUES (?, ?), (?, ?)",
                              "INSERT INTO `db`.`other` (`id`, `v`) VALUES (?, ?), (?, ?), (?, ?)"}));
        QCOMPARE(toList(paramsOf(statements[2])), (QStringList{"1", "11", "2", "20"}));
        QCOMPARE(toList(paramsOf(statements[3])), (QStringList{"1", "1", "2", "2", "3", "3"}));
        // Without multiple-rows nothing moves.
        auto plain = DmlBuilder(false).build(changes);
        QCOMPARE(plain.size(), changes.size());
        QCOMPARE(QString::fromStdString(plain[1].sql),
                 QStringLiteral("INSERT INTO `db`.`other` (`id`, `v`) VALUES (?, ?)"));
    }

    void withoutMultipleRowsEveryChangeIsItsOwnStatement() {
        auto t = table("db", "t", {"id", "v"}, {0});
        std::vector<RowChange> changes{insert(t, ints({1, 10})), insert(t, ints({2, 20}))};
        QCOMPARE(DmlBuilder(false).build(changes).size(), size_t(2));
    }

    void mergedStatementsRespectTheRowCap() {
        auto t = table("db", "t", {"id", "v"}, {0});
        std::vector<RowChange> changes;
        for (int i = 0; i < 10; ++i) {
            changes.push_back(insert(t, ints({i, i})));
        }
        auto statements = DmlBuilder(true, 4).build(changes);
        QCOMPARE(statements.size(), size_t(3));
        QCOMPARE(statements[2].params.size(), size_t(4));
    }

    void consecutiveDeletesBecomeOneInList() {
        auto t = table("db", "t", {"id", "v"}, {0});
        auto composite = table("db", "c", {"a", "b", "v"}, {0, 1});
        std::vector<RowChange> changes{erase(t, ints({1, 10})), erase(t, ints({2, 20})),
                                       erase(composite, ints({1, 2, 3})), erase(composite, ints({4, 5, 6}))};
        auto statements = DmlBuilder(true).build(changes);
        QCOMPARE(toList(sqlOf(statements)), (QStringList{"DELETE FROM `db`.`t` WHERE `id` IN (?, ?)",
                                                         "DELETE FROM `db`.`c` WHERE (`a`, `b`) IN ((?, ?), (?, ?))"}));
        QCOMPARE(toList(paramsOf(statements[1])), (QStringList{"1", "2", "4", "5"}));
    }

    void mergingNeverReordersAcrossOtherOperations() {
        auto t = table("db", "t", {"id", "v"}, {0});
        std::vector<RowChange> changes{insert(t, ints({1, 10})), erase(t, ints({1, 10})), insert(t, ints({1, 11}))};
        QCOMPARE(toList(sqlOf(DmlBuilder(true).build(changes))),
                 (QStringList{"INSERT INTO `db`.`t` (`id`, `v`) VALUES (?, ?)", "DELETE FROM `db`.`t` WHERE `id` = ?",
                              "INSERT INTO `db`.`t` (`id`, `v`) VALUES (?, ?)"}));
    }

    void safeUpdatesKeepingTheirKeyMergeIntoOneReplace() {
        auto t = table("db", "t", {"id", "v"}, {0});
        std::vector<RowChange> changes{update(t, ints({1, 1}), ints({1, 2}), true),
                                       update(t, ints({2, 1}), ints({2, 2}), true)};
        QCOMPARE(toList(sqlOf(DmlBuilder(true).build(changes))),
                 QStringList{"REPLACE INTO `db`.`t` (`id`, `v`) VALUES (?, ?), (?, ?)"});
    }

    void writeOnlyBatchOfASoleKeyTableMergesByRoundAndKind() {
        // sysbench's oltp_write_only: UPDATE k, UPDATE c, DELETE, INSERT of the deleted id, three times.
        auto t = soleKeyTable("db", "t", {"id", "v"}, {0});
        std::vector<RowChange> changes;
        for (long base : {10, 20, 30}) {
            changes.push_back(update(t, ints({base + 1, 0}), ints({base + 1, 1})));
            changes.push_back(update(t, ints({base + 2, 0}), ints({base + 2, 1})));
            changes.push_back(erase(t, ints({base + 3, 0})));
            changes.push_back(insert(t, ints({base + 3, 2})));
        }
        auto statements = DmlBuilder(true).build(changes);
        QCOMPARE(toList(sqlOf(statements)),
                 (QStringList{"DELETE FROM `db`.`t` WHERE `id` IN (?, ?, ?)",
                              "INSERT INTO `db`.`t` (`id`, `v`) VALUES (?, ?), (?, ?), (?, ?), (?, ?), (?, ?), (?, ?) "
                              "ON DUPLICATE KEY UPDATE `v` = VALUES(`v`)",
                              "INSERT INTO `db`.`t` (`id`, `v`) VALUES (?, ?), (?, ?), (?, ?)"}));
        QCOMPARE(toList(paramsOf(statements[0])), (QStringList{"13", "23", "33"}));
        QCOMPARE(toList(paramsOf(statements[1])),
                 (QStringList{"11", "1", "12", "1", "21", "1", "22", "1", "31", "1", "32", "1"}));
        QCOMPARE(toList(paramsOf(statements[2])), (QStringList{"13", "2", "23", "2", "33", "2"}));
        QCOMPARE(statements[1].rowCount, size_t(6));
    }

    void changesOfOneKeyKeepTheirOrderAcrossRounds() {
        auto t = soleKeyTable("db", "t", {"id", "v"}, {0});
        // Key 1: insert, update, delete, insert again; key 2 once. Rounds: 1 -> 0,1,2,3; 2 -> 0.
        std::vector<RowChange> changes{insert(t, ints({1, 1})), update(t, ints({1, 1}), ints({1, 2})),
                                       erase(t, ints({1, 2})), insert(t, ints({2, 9})), insert(t, ints({1, 3}))};
        auto statements = DmlBuilder(true).build(changes);
        QCOMPARE(toList(sqlOf(statements)), (QStringList{"INSERT INTO `db`.`t` (`id`, `v`) VALUES (?, ?), (?, ?)",
                                                         "UPDATE `db`.`t` SET `id` = ?, `v` = ? WHERE `id` = ?",
                                                         "DELETE FROM `db`.`t` WHERE `id` = ?",
                                                         "INSERT INTO `db`.`t` (`id`, `v`) VALUES (?, ?)"}));
        QCOMPARE(toList(paramsOf(statements[0])), (QStringList{"1", "1", "2", "9"}));
        QCOMPARE(toList(paramsOf(statements[3])), (QStringList{"1", "3"}));
    }

    void updatesMergeOnlyWhereNoOtherUniqueIndexCouldCollide_data() {
        QTest::addColumn<int>("shape");
        QTest::addRow("primary key, and a unique index downstream") << 0;
        QTest::addRow("downstream unique index not known") << 1;
        QTest::addRow("an update moves its key") << 2;
        QTest::addRow("key of text (collations make 'a' equal 'A')") << 3;
    }
    void updatesMergeOnlyWhereNoOtherUniqueIndexCouldCollide() {
        QFETCH(int, shape);
        std::shared_ptr<const schema::TableSchema> t;
        if (shape == 0) {
            schema::TableSchema made = *table("db", "t", {"id", "v"}, {0});
            schema::TableSchema downstream = made;
            downstream.setDownstreamUniqueIndexes({{"id"}, {"v"}});
            made.judgeRowKeyAgainst(downstream);
            QVERIFY(!made.rowKeyIsOnlyUniqueIndex());
            t = std::make_shared<const schema::TableSchema>(made);
        } else if (shape == 3) {
            t = textKeySoleTable("db", "t");
            QVERIFY(t->rowKeyIsOnlyUniqueIndex());
        } else {
            t = shape == 1 ? table("db", "t", {"id", "v"}, {0}) : soleKeyTable("db", "t", {"id", "v"}, {0});
        }
        std::vector<RowChange> changes{update(t, ints({1, 0}), ints({1, 1})), erase(t, ints({3, 0})),
                                       update(t, ints({2, 0}), ints({shape == 2 ? 5 : 2, 1})), insert(t, ints({3, 1}))};
        auto statements = DmlBuilder(true).build(changes);
        QStringList expected{
            "UPDATE `db`.`t` SET `id` = ?, `v` = ? WHERE `id` = ?", "DELETE FROM `db`.`t` WHERE `id` = ?",
            "UPDATE `db`.`t` SET `id` = ?, `v` = ? WHERE `id` = ?", "INSERT INTO `db`.`t` (`id`, `v`) VALUES (?, ?)"};
        QCOMPARE(toList(sqlOf(statements)), expected);  // nothing moved, each update on its own
    }

    // bench-catchup's tables: a primary key and a unique key on c. sysbench's write-only transaction
    // (UPDATE k, UPDATE c, DELETE, INSERT of the deleted id) three times, with the keys the pool carries:
    // round 1 holds the deletes and the updates, round 2 the inserts of the deleted ids.
    void writeOnlyBatchOfATableWithASecondUniqueKeyMergesByConflictRound() {
        auto t = secondUniqueTable("db", "t", {"id", "k", "c"}, {0}, {"c"});
        QVERIFY(!t->rowKeyIsOnlyUniqueIndex());
        std::vector<RowChange> changes = writeOnlyTransactions(t);
        carryDispatchKeys(changes);
        auto statements = DmlBuilder(true).build(changes);
        QCOMPARE(statements.size(), size_t(3));
        QCOMPARE(QString::fromStdString(statements[0].sql), QString("DELETE FROM `db`.`t` WHERE `id` IN (?, ?, ?)"));
        QVERIFY2(statements[1].sql.rfind("UPDATE `db`.`t` SET `k` = CASE WHEN `id` = ? THEN ? WHEN", 0) == 0,
                 statements[1].sql.c_str());
        QVERIFY2(statements[1].sql.find("ELSE `k` END, `c` = CASE WHEN `id` = ? THEN ?") != std::string::npos,
                 statements[1].sql.c_str());
        QVERIFY2(statements[1].sql.find("ELSE `c` END WHERE `id` IN (?, ?, ?, ?, ?, ?)") != std::string::npos,
                 statements[1].sql.c_str());
        QCOMPARE(statements[1].rowCount, size_t(6));
        QCOMPARE(statements[1].mustMatch, size_t(6));  // each row must be found (drift is counted)
        QCOMPARE(QString::fromStdString(statements[2].sql),
                 QString("INSERT INTO `db`.`t` (`id`, `k`, `c`) VALUES (?, ?, ?), (?, ?, ?), (?, ?, ?)"));
        QCOMPARE(toList(paramsOf(statements[2])), (QStringList{"13", "5", "913", "23", "5", "923", "33", "5", "933"}));
    }

    void aRoundsUpdatesAreOneCaseUpdate() {
        auto t = secondUniqueTable("db", "t", {"id", "c"}, {0}, {"c"});
        std::vector<RowChange> changes{update(t, ints({1, 100}), ints({1, 101})),
                                       update(t, ints({2, 200}), ints({2, 201}))};
        carryDispatchKeys(changes);
        auto statements = DmlBuilder(true).build(changes);
        QCOMPARE(toList(sqlOf(statements)),
                 QStringList{"UPDATE `db`.`t` SET `c` = CASE WHEN `id` = ? THEN ? WHEN `id` = ? THEN ? ELSE `c` END "
                             "WHERE `id` IN (?, ?)"});
        QCOMPARE(toList(paramsOf(statements[0])), (QStringList{"1", "101", "2", "201", "1", "2"}));
    }

    // Array binding (a MariaDB downstream): each merged group is its first row's statement with the rows'
    // values one row after another, in the group's order; what is not merged stays as it was.
    void withArraysAMergedGroupIsOneRowsStatementOverItsRows() {
        auto t = secondUniqueTable("db", "t", {"id", "k", "c"}, {0}, {"c"});
        std::vector<RowChange> changes = writeOnlyTransactions(t);
        changes.push_back(update(t, ints({40, 0, 40}), ints({41, 0, 40})));  // a key move: alone
        carryDispatchKeys(changes);
        auto statements = DmlBuilder(true).build(changes, true);
        QCOMPARE(toList(sqlOf(statements)),
                 (QStringList{"DELETE FROM `db`.`t` WHERE `id` = ?",
                              "UPDATE `db`.`t` SET `id` = ?, `k` = ?, `c` = ? WHERE `id` = ?",
                              "UPDATE `db`.`t` SET `id` = ?, `k` = ?, `c` = ? WHERE `id` = ?",
                              "INSERT INTO `db`.`t` (`id`, `k`, `c`) VALUES (?, ?, ?)"}));
        QCOMPARE(statements[0].arrayRows, size_t(3));
        QCOMPARE(toList(paramsOf(statements[0])), (QStringList{"13", "23", "33"}));
        QCOMPARE(statements[0].mustMatch, size_t(3));
        QCOMPARE(statements[1].arrayRows, size_t(6));
        QCOMPARE(statements[1].mustMatch, size_t(6));
        QCOMPARE(toList(paramsOf(statements[1])),
                 (QStringList{"11", "1", "11",  "11", "12", "0", "912", "12", "21", "1", "21",  "21",
                              "22", "0", "922", "22", "31", "1", "31",  "31", "32", "0", "932", "32"}));
        QCOMPARE(statements[2].arrayRows, size_t(0));  // a single row keeps its own statement
        QCOMPARE(toList(paramsOf(statements[2])), (QStringList{"41", "0", "40", "40"}));
        QCOMPARE(statements[3].arrayRows, size_t(3));
        QCOMPARE(toList(paramsOf(statements[3])), (QStringList{"13", "5", "913", "23", "5", "923", "33", "5", "933"}));

        // A sole-key table's updates merged into an upsert: the upsert of one row, over the rows.
        auto sole = soleKeyTable("db", "s", {"id", "v"}, {0});
        std::vector<RowChange> updates{update(sole, ints({1, 0}), ints({1, 10})),
                                       update(sole, ints({2, 0}), ints({2, 20}))};
        auto upserts = DmlBuilder(true).build(updates, true);
        QCOMPARE(
            toList(sqlOf(upserts)),
            QStringList{"INSERT INTO `db`.`s` (`id`, `v`) VALUES (?, ?) ON DUPLICATE KEY UPDATE `v` = VALUES(`v`)"});
        QCOMPARE(upserts[0].arrayRows, size_t(2));
        QCOMPARE(toList(paramsOf(upserts[0])), (QStringList{"1", "10", "2", "20"}));
    }

    void aCompositeKeyIsMatchedColumnByColumn() {
        auto t = secondUniqueTable("db", "t", {"a", "b", "c"}, {0, 1}, {"c"});
        std::vector<RowChange> changes{update(t, ints({1, 1, 100}), ints({1, 1, 101})),
                                       update(t, ints({1, 2, 200}), ints({1, 2, 201}))};
        carryDispatchKeys(changes);
        QCOMPARE(toList(sqlOf(DmlBuilder(true).build(changes))),
                 QStringList{"UPDATE `db`.`t` SET `c` = CASE WHEN `a` = ? AND `b` = ? THEN ? WHEN `a` = ? AND `b` = ? "
                             "THEN ? ELSE `c` END WHERE (`a`, `b`) IN ((?, ?), (?, ?))"});
    }

    // Row 1 hands its unique value 100 to row 2: row 2's update is a round later than row 1's, so it runs
    // after it (one statement earlier would collide on the unique index). Row 3's update shares nothing
    // and joins row 1's. Without keys, or where sharing no key does not prove that changes commute, every
    // update keeps its place and its own statement.
    void aUniqueValueHandedOnKeepsItsOrder_data() {
        QTest::addColumn<int>("shape");
        QTest::addRow("keys carried: conflict rounds") << 0;
        QTest::addRow("no keys carried (a change made outside the pool)") << 1;
        QTest::addRow("a trigger downstream") << 2;
        QTest::addRow("safe mode") << 3;
        QTest::addRow("foreign_key_checks on in the workers' session") << 4;
        QTest::addRow("the downstream's unique indexes not known") << 5;
        QTest::addRow("a cascade family") << 6;
        QTest::addRow("two structures of the table in the batch") << 7;
    }
    void aUniqueValueHandedOnKeepsItsOrder() {
        QFETCH(int, shape);
        schema::TableSchema made = *secondUniqueTable("db", "t", {"id", "c"}, {0}, {"c"});
        if (shape == 2) {
            made.setDownstreamHasTriggers(true);
        } else if (shape == 5) {
            made = *table("db", "t", {"id", "c"}, {0});
        } else if (shape == 6) {
            made.setCascadeFamily({"db.t", true, false});
        }
        auto t = std::make_shared<const schema::TableSchema>(made);
        auto twin = shape == 7 ? std::make_shared<const schema::TableSchema>(made) : t;
        const bool safe = shape == 3;
        std::vector<RowChange> changes{update(t, ints({1, 100}), ints({1, 101}), safe),
                                       update(twin, ints({2, 200}), ints({2, 100}), safe),
                                       update(t, ints({3, 300}), ints({3, 301}), safe)};
        if (shape != 1) {
            carryDispatchKeys(changes);
        }
        auto statements = DmlBuilder(true, DmlBuilder::kDefaultMaxRowsPerStatement, shape == 4).build(changes);
        if (shape == 0) {
            QCOMPARE(statements.size(), size_t(2));
            QCOMPARE(toList(paramsOf(statements[0])), (QStringList{"1", "101", "3", "301", "1", "3"}));
            QCOMPARE(toList(paramsOf(statements[1])), (QStringList{"2", "100", "2"}));
            return;
        }
        if (safe) {  // REPLACE of each after image, rows in binlog order
            QCOMPARE(toList(sqlOf(statements)),
                     QStringList{"REPLACE INTO `db`.`t` (`id`, `c`) VALUES (?, ?), (?, ?), (?, ?)"});
            QCOMPARE(toList(paramsOf(statements[0])), (QStringList{"1", "101", "2", "100", "3", "301"}));
            return;
        }
        QCOMPARE(statements.size(), size_t(3));
        for (size_t i = 0; i < statements.size(); ++i) {
            QCOMPARE(statements[i].rowCount, size_t(1));
            QCOMPARE(QString::fromStdString(paramsOf(statements[i]).front()), QString::number(i + 1));
        }
    }

    // A key move is ordered by its old and new key, never merged into a CASE (its WHEN would look for the
    // old key after the move).
    void anUpdateMovingItsKeyIsOrderedButNotMerged() {
        auto t = secondUniqueTable("db", "t", {"id", "c"}, {0}, {"c"});
        std::vector<RowChange> changes{update(t, ints({1, 100}), ints({5, 100})),
                                       update(t, ints({2, 200}), ints({2, 201})), erase(t, ints({5, 100}))};
        carryDispatchKeys(changes);
        auto statements = DmlBuilder(true).build(changes);
        QCOMPARE(toList(sqlOf(statements)), (QStringList{"UPDATE `db`.`t` SET `id` = ?, `c` = ? WHERE `id` = ?",
                                                         "UPDATE `db`.`t` SET `id` = ?, `c` = ? WHERE `id` = ?",
                                                         "DELETE FROM `db`.`t` WHERE `id` = ?"}));
        QCOMPARE(toList(paramsOf(statements[0])), (QStringList{"5", "100", "1"}));
        QCOMPARE(toList(paramsOf(statements[2])), (QStringList{"5"}));
    }

    void aTableWhoseStructureChangesInsideTheBatchKeepsItsOrder() {
        // The upstream added c4 behind a filtered ALTER: the same table with two structures in one batch.
        auto before = soleKeyTable("db", "t", {"id", "v"}, {0});
        auto after = soleKeyTable("db", "t", {"id", "v", "c4"}, {0});
        std::vector<RowChange> changes{update(before, ints({1, 0}), ints({1, 1})), erase(before, ints({3, 0})),
                                       insert(after, ints({3, 1, 1})), update(after, ints({2, 0, 0}), ints({2, 1, 1}))};
        QCOMPARE(
            toList(sqlOf(DmlBuilder(true).build(changes))),
            (QStringList{"UPDATE `db`.`t` SET `id` = ?, `v` = ? WHERE `id` = ?", "DELETE FROM `db`.`t` WHERE `id` = ?",
                         "INSERT INTO `db`.`t` (`id`, `v`, `c4`) VALUES (?, ?, ?)",
                         "UPDATE `db`.`t` SET `id` = ?, `v` = ?, `c4` = ? WHERE `id` = ?"}));
    }

    void aTableOfKeyColumnsOnlyStillGetsAnAssignment() {
        auto t = soleKeyTable("db", "t", {"a", "b"}, {0, 1});
        std::vector<RowChange> changes{update(t, ints({1, 1}), ints({1, 1})), update(t, ints({2, 2}), ints({2, 2}))};
        QCOMPARE(toList(sqlOf(DmlBuilder(true).build(changes))),
                 QStringList{"INSERT INTO `db`.`t` (`a`, `b`) VALUES (?, ?), (?, ?) ON DUPLICATE KEY UPDATE `a` = "
                             "VALUES(`a`), `b` = VALUES(`b`)"});
    }

    void anImageOfTheWrongWidthIsAnErrorNamingTableAndPosition() {
        auto t = table("db", "t", {"id", "v"}, {0});
        std::vector<RowChange> changes{insert(t, ints({1}))};
        try {
            DmlBuilder(true).build(changes);
            QFAIL("a short row image was accepted");
        } catch (const Error& e) {
            std::string message = e.what();
            QVERIFY2(message.find("db.t") != std::string::npos, e.what());
            QVERIFY2(message.find("mysql-bin.000001:1000") != std::string::npos, e.what());
        }
    }
};

QTEST_GUILESS_MAIN(DmlBuilderTest)
#include "test_dml_builder.moc"
