// A batch's changes of one row fold into their net effect (DM's `compact`) only where that leaves the
// downstream exactly as the changes one by one would: what each chain of a key becomes, the tables and
// batches that keep every change, and the statements the builder makes of a folded batch.
#include <QtTest>

#include <map>
#include <random>

#include "engine/apply/dml_builder.h"
#include "engine/apply/key_folding.h"
#include "tests/engine/apply/row_change_fixtures.h"

using namespace syncscope;
using namespace syncscope::apply;
using namespace syncscope::apply::testing;

namespace {

using Folds = std::vector<Fold>;

QStringList sqlOf(const std::vector<DmlStatement>& statements) {
    QStringList sql;
    for (const auto& statement : statements) {
        sql << QString::fromStdString(statement.sql);
    }
    return sql;
}

QStringList paramsOf(const DmlStatement& statement) {
    QStringList params;
    for (const auto* value : statement.params) {
        params << QString::fromStdString(value->display());
    }
    return params;
}

const char* foldName(Fold fold) {
    switch (fold) {
        case Fold::Keep:
            return "keep";
        case Fold::Drop:
            return "drop";
        case Fold::InsertAfter:
            return "insert-after";
        case Fold::UpsertAfter:
            return "upsert-after";
        case Fold::UpdateAfter:
            return "update-after";
    }
    return "?";
}

QStringList names(const Folds& folds) {
    QStringList list;
    for (Fold fold : folds) {
        list << foldName(fold);
    }
    return list;
}

}  // namespace

class KeyFoldingTest : public QObject {
    Q_OBJECT

private slots:
    void eachChainBecomesItsNetEffect_data() {
        QTest::addColumn<QString>("ops");  // i/u/d of key 1, in order
        QTest::addColumn<QStringList>("expected");
        QTest::addRow("sysbench write-only: update, update, delete, insert")
            << "uudi" << QStringList{"drop", "drop", "drop", "upsert-after"};
        QTest::addRow("insert then updates") << "iuu" << QStringList{"drop", "drop", "insert-after"};
        QTest::addRow("inserted and deleted in the batch") << "iud" << QStringList{"drop", "drop", "drop"};
        QTest::addRow("updated then deleted") << "ud" << QStringList{"drop", "keep"};
        QTest::addRow("updated twice") << "uu" << QStringList{"drop", "keep"};
        QTest::addRow("deleted, inserted, updated") << "diu" << QStringList{"drop", "drop", "keep"};
        QTest::addRow("deleted, inserted, deleted") << "did" << QStringList{"drop", "drop", "keep"};
        QTest::addRow("inserted, deleted, inserted") << "idi" << QStringList{"drop", "drop", "keep"};
        QTest::addRow("a single change") << "u" << QStringList{};
    }
    void eachChainBecomesItsNetEffect() {
        QFETCH(QString, ops);
        QFETCH(QStringList, expected);
        auto t = soleKeyTable("db", "t", {"id", "v"}, {0});
        std::vector<RowChange> changes;
        long value = 0;  // the row's v as the previous change left it
        for (QChar op : ops) {
            if (op == 'i') {
                changes.push_back(insert(t, ints({1, ++value})));
            } else if (op == 'u') {
                changes.push_back(update(t, ints({1, value}), ints({1, value + 1})));
                ++value;
            } else {
                changes.push_back(erase(t, ints({1, value})));
            }
        }
        QCOMPARE(names(foldByKey(changes)), expected);
    }

    // What the builder makes of sysbench's write-only transactions on three rows: one upsert of the
    // final rows where four statements per row ran before.
    void aFoldedBatchIsOneStatementPerKind() {
        auto t = soleKeyTable("db", "t", {"id", "k", "c"}, {0});
        std::vector<RowChange> changes;
        for (long id : {5, 9, 2}) {
            changes.push_back(update(t, ints({id, 1, 1}), ints({id, 2, 1})));
            changes.push_back(update(t, ints({id, 2, 1}), ints({id, 2, 3})));
            changes.push_back(erase(t, ints({id, 2, 3})));
            changes.push_back(insert(t, ints({id, 7, id})));
        }
        changes.push_back(insert(t, ints({40, 0, 0})));  // a new row
        changes.push_back(update(t, ints({41, 0, 0}), ints({41, 1, 1})));
        changes.push_back(update(t, ints({41, 1, 1}), ints({41, 2, 2})));
        changes.push_back(erase(t, ints({42, 0, 0})));
        auto statements = DmlBuilder(true, DmlBuilder::kDefaultMaxRowsPerStatement, false, true).build(changes);
        QCOMPARE(sqlOf(statements),
                 (QStringList{
                     "DELETE FROM `db`.`t` WHERE `id` = ?", "INSERT INTO `db`.`t` (`id`, `k`, `c`) VALUES (?, ?, ?)",
                     "INSERT INTO `db`.`t` (`id`, `k`, `c`) VALUES (?, ?, ?), (?, ?, ?), (?, ?, ?) ON DUPLICATE "
                     "KEY UPDATE `k` = VALUES(`k`), `c` = VALUES(`c`)",
                     "UPDATE `db`.`t` SET `id` = ?, `k` = ?, `c` = ? WHERE `id` = ?"}));
        QCOMPARE(paramsOf(statements[0]), (QStringList{"42"}));
        QCOMPARE(statements[0].mustMatch, size_t(1));  // a delete of a row that was there still must find it
        QCOMPARE(paramsOf(statements[2]), (QStringList{"5", "7", "5", "9", "7", "9", "2", "7", "2"}));
        QCOMPARE(paramsOf(statements[3]), (QStringList{"41", "2", "2", "41"}));
        QCOMPARE(statements[3].mustMatch, size_t(1));
        // Off unless asked, and never without multiple-rows: each change as before.
        // By rounds: the delete and insert of round 0, the updates of rounds 0 and 1 (one upsert), the deletes
        // of round 2, the inserts of round 3.
        QCOMPARE(DmlBuilder(true).build(changes).size(), size_t(5));
        QCOMPARE(DmlBuilder(false, DmlBuilder::kDefaultMaxRowsPerStatement, false, true).build(changes).size(),
                 changes.size());
        // A batch that folds away entirely leaves no statement.
        std::vector<RowChange> gone{insert(t, ints({50, 1, 1})), erase(t, ints({50, 1, 1}))};
        QVERIFY(DmlBuilder(true, DmlBuilder::kDefaultMaxRowsPerStatement, false, true).build(gone).empty());
    }

    void tablesAndBatchesThatKeepEveryChange_data() {
        QTest::addColumn<QString>("why");
        QTest::newRow("the downstream's unique indexes not known") << "unique";
        QTest::newRow("a text key: collations make 'a' equal 'A'") << "text";
        QTest::newRow("safe mode") << "safe";
        QTest::newRow("an update in the batch moves a key of the table") << "moves";
        QTest::newRow("an insert of a row that is there") << "insert-twice";
        QTest::newRow("an image that is not the previous change's after image") << "gap";
        QTest::newRow("two structures of one table in the batch") << "structures";
        QTest::newRow("a foreign key references the table") << "referenced";
        QTest::newRow("foreign key checks on in the workers' session") << "checks";
    }
    void tablesAndBatchesThatKeepEveryChange() {
        QFETCH(QString, why);
        auto t = soleKeyTable("db", "t", {"id", "v"}, {0});
        if (why == "unique") {
            t = table("db", "t", {"id", "v"}, {0});
        } else if (why == "text") {
            t = textKeySoleTable("db", "t");
        } else if (why == "referenced") {
            schema::TableSchema made = *t;
            made.setReferencingForeignKeys({"`db`.`child` (fk_t, ON DELETE RESTRICT)"});
            t = std::make_shared<const schema::TableSchema>(std::move(made));
        }
        auto value = [&](long v) { return why == "text" ? SqlValue::text(std::to_string(v)) : SqlValue::signedInt(v); };
        auto row = [&](long id, long v) { return std::vector<SqlValue>{value(id), SqlValue::signedInt(v)}; };
        std::vector<RowChange> changes{update(t, row(1, 1), row(1, 2)), update(t, row(1, 2), row(1, 3))};
        if (why == "safe") {
            changes[1].safeMode = true;
        } else if (why == "moves") {
            changes.push_back(update(t, row(7, 1), row(8, 1)));
        } else if (why == "insert-twice") {
            changes = {insert(t, row(1, 1)), insert(t, row(1, 2))};
        } else if (why == "gap") {
            changes[1].before = row(1, 9);
        } else if (why == "structures") {
            changes[1].table = soleKeyTable("db", "t", {"id", "v"}, {0});
        }
        bool checks = why == "checks";
        QVERIFY2(foldByKey(changes).empty() || checks, qPrintable(names(foldByKey(changes)).join(' ')));
        auto compacted = DmlBuilder(true, DmlBuilder::kDefaultMaxRowsPerStatement, checks, true).build(changes);
        QCOMPARE(compacted.size(),
                 DmlBuilder(true, DmlBuilder::kDefaultMaxRowsPerStatement, checks).build(changes).size());
    }

    // A table with a second unique index (sysbench's with a unique key on c) folds a key whose changes share
    // no causality key with the rest of the batch; a DELETE and INSERT of it becomes an UPDATE by the key,
    // which a missing row makes the batch run again unfolded.
    void aKeyFoldsWhereNoOtherChangeSharesItsValues_data() {
        QTest::addColumn<QString>("other");  // what else the batch holds, between the key's DELETE and INSERT
        QTest::addColumn<QStringList>("expected");
        QTest::addRow("rows of their own") << "apart" << QStringList{"drop", "keep", "update-after"};
        QTest::addRow("another row takes the freed value") << "takes-old" << QStringList{};
        QTest::addRow("another row gives up the new value") << "gives-new" << QStringList{};
        QTest::addRow("changes carry no keys") << "no-keys" << QStringList{};
        QTest::addRow("a column only the downstream has") << "own-column" << QStringList{};
        QTest::addRow("a trigger downstream") << "trigger" << QStringList{};
    }
    void aKeyFoldsWhereNoOtherChangeSharesItsValues() {
        QFETCH(QString, other);
        QFETCH(QStringList, expected);
        auto t = secondUniqueTable("db", "t", {"id", "k", "c"}, {0}, {"c"});
        if (other == "own-column" || other == "trigger") {
            schema::TableSchema made = *table("db", "t", {"id", "k", "c"}, {0});
            schema::TableSchema downstream = other == "own-column" ? *table("db", "t", {"id", "k", "c", "note"}, {0})
                                                                   : *table("db", "t", {"id", "k", "c"}, {0});
            downstream.setDownstreamUniqueIndexes({{"id"}, {"c"}});
            downstream.setDownstreamHasTriggers(other == "trigger");
            made.adoptDownstreamFacts(downstream);
            made.judgeRowKeyAgainst(downstream);
            t = std::make_shared<const schema::TableSchema>(std::move(made));
        }
        QVERIFY(!t->rowKeyIsOnlyUniqueIndex());
        std::vector<RowChange> changes{erase(t, ints({5, 1, 100}))};
        if (other == "takes-old") {
            changes.push_back(update(t, ints({7, 1, 300}), ints({7, 1, 100})));
        } else if (other == "gives-new") {
            changes.push_back(update(t, ints({8, 1, 101}), ints({8, 1, 102})));
        } else {
            changes.push_back(update(t, ints({9, 1, 900}), ints({9, 2, 901})));
        }
        changes.push_back(insert(t, ints({5, 2, 101})));
        if (other != "no-keys") {
            carryDispatchKeys(changes);
        }
        QCOMPARE(names(foldByKey(changes)), expected);
        const DmlBuilder builder(true, DmlBuilder::kDefaultMaxRowsPerStatement, false, true);
        if (!expected.isEmpty()) {
            // One UPDATE bound over both rows (a round of their own), where a missing row unfolds the batch.
            auto statements = builder.build(changes, true);
            QCOMPARE(sqlOf(statements), QStringList{"UPDATE `db`.`t` SET `id` = ?, `k` = ?, `c` = ? WHERE `id` = ?"});
            QCOMPARE(paramsOf(statements[0]), (QStringList{"9", "2", "901", "9", "5", "2", "101", "5"}));
            QCOMPARE(statements[0].mustMatch, size_t(2));
            QVERIFY(statements[0].unfoldWhenUnmatched);
        }
        // Unfolded, or not folding: each change as it came, no statement that unfolds.
        auto unfolded = builder.build(changes, true, false);
        QCOMPARE(unfolded.size(), size_t(3));
        QVERIFY(std::none_of(unfolded.begin(), unfolded.end(),
                             [](const DmlStatement& statement) { return statement.unfoldWhenUnmatched; }));
    }

    // Another table's changes in between, and a table that cannot fold beside one that can.
    void keysOfEachTableFoldApart() {
        auto t = soleKeyTable("db", "t", {"id", "v"}, {0});
        auto other = soleKeyTable("db", "other", {"id", "v"}, {0});
        auto plain = table("db", "plain", {"id", "v"}, {0});
        std::vector<RowChange> changes{insert(t, ints({1, 1})),
                                       insert(other, ints({1, 5})),
                                       update(plain, ints({1, 1}), ints({1, 2})),
                                       update(t, ints({1, 1}), ints({1, 2})),
                                       erase(other, ints({1, 5})),
                                       update(plain, ints({1, 2}), ints({1, 3}))};
        QCOMPARE(names(foldByKey(changes)), (QStringList{"drop", "drop", "keep", "insert-after", "drop", "keep"}));
    }

    // Many keys at once (hash buckets shared, chains of every length), checked against the net effect a
    // plain model of the table gives: the folded batch leaves the rows the changes one by one leave.
    void randomBatchesLeaveTheRowsTheChangesLeave() {
        auto t = soleKeyTable("db", "t", {"id", "v"}, {0});
        std::mt19937 random(20261202);
        for (int round = 0; round < 200; ++round) {
            std::map<long, long> before;  // the table before the batch: id -> v
            for (long id = 0; id < 40; ++id) {
                if (random() % 2 == 0) {
                    before[id] = static_cast<long>(random() % 1000);
                }
            }
            std::map<long, long> rows = before;
            std::vector<RowChange> changes;
            for (int i = 0; i < 120; ++i) {
                long id = static_cast<long>(random() % 40);
                long v = static_cast<long>(random() % 1000);
                auto it = rows.find(id);
                if (it == rows.end()) {
                    changes.push_back(insert(t, ints({id, v})));
                    rows[id] = v;
                } else if (random() % 3 == 0) {
                    changes.push_back(erase(t, ints({id, it->second})));
                    rows.erase(it);
                } else {
                    changes.push_back(update(t, ints({id, it->second}), ints({id, v})));
                    it->second = v;
                }
            }
            // Apply the folded batch to the model as the downstream would.
            Folds folds = foldByKey(changes);
            QCOMPARE(folds.size(), changes.size());
            std::map<long, long> applied = before;
            for (size_t i = 0; i < changes.size(); ++i) {
                const RowChange& change = changes[i];
                long id = (change.op == RowOp::Insert ? change.after : change.before)[0].asSigned();
                switch (folds[i]) {
                    case Fold::Drop:
                        break;
                    case Fold::Keep:
                        if (change.op == RowOp::Insert) {
                            QVERIFY2(!applied.contains(id), "an INSERT of a row that is there (1062)");
                            applied[id] = change.after[1].asSigned();
                        } else if (change.op == RowOp::Update) {
                            QVERIFY2(applied.contains(id), "an UPDATE of a row that is not there");
                            applied[id] = change.after[1].asSigned();
                        } else {
                            QVERIFY2(applied.erase(id) == 1, "a DELETE of a row that is not there");
                        }
                        break;
                    case Fold::InsertAfter:
                        QVERIFY2(!applied.contains(id), "an INSERT of a row that is there (1062)");
                        applied[id] = change.after[1].asSigned();
                        break;
                    case Fold::UpsertAfter:
                        applied[id] = change.after[1].asSigned();
                        break;
                    case Fold::UpdateAfter:
                        QFAIL("an UPDATE for a re-inserted row where the row key is the only unique index");
                }
            }
            QCOMPARE(applied, rows);
        }
    }

    // The same with a second unique index on c and few values, handed from row to row: applied in binlog
    // order as folded, no step meets a row or a unique value it should not, and the rows end as the changes
    // one by one leave them.
    void randomBatchesWithASecondUniqueIndexLeaveTheRowsTheChangesLeave() {
        auto t = secondUniqueTable("db", "t", {"id", "k", "c"}, {0}, {"c"});
        std::mt19937 random(20261206);
        size_t updatesAfter = 0;
        for (int round = 0; round < 300; ++round) {
            struct Row {
                long k;
                long c;
            };
            std::map<long, Row> rows;
            std::map<long, long> holderOfC;  // c -> id
            auto freeC = [&] {
                for (;;) {
                    long c = static_cast<long>(random() % 60);
                    if (!holderOfC.contains(c)) {
                        return c;
                    }
                }
            };
            for (long id = 0; id < 30; ++id) {
                if (random() % 2 == 0) {
                    rows[id] = {0, freeC()};
                    holderOfC[rows[id].c] = id;
                }
            }
            const std::map<long, Row> before = rows;
            std::vector<RowChange> changes;
            for (int i = 0; i < 60; ++i) {
                long id = static_cast<long>(random() % 30);
                auto it = rows.find(id);
                if (it == rows.end()) {
                    Row row{static_cast<long>(random() % 5), freeC()};
                    changes.push_back(insert(t, ints({id, row.k, row.c})));
                    rows[id] = row;
                    holderOfC[row.c] = id;
                } else if (random() % 3 == 0) {
                    changes.push_back(erase(t, ints({id, it->second.k, it->second.c})));
                    holderOfC.erase(it->second.c);
                    rows.erase(it);
                } else {
                    Row next{static_cast<long>(random() % 5), random() % 2 == 0 ? it->second.c : freeC()};
                    changes.push_back(update(t, ints({id, it->second.k, it->second.c}), ints({id, next.k, next.c})));
                    holderOfC.erase(it->second.c);
                    holderOfC[next.c] = id;
                    it->second = next;
                }
            }
            carryDispatchKeys(changes);
            Folds folds = foldByKey(changes);
            if (folds.empty()) {
                folds.assign(changes.size(), Fold::Keep);
            }
            // Apply the folded batch to a model that enforces both unique indexes.
            std::map<long, Row> applied = before;
            auto cTakenByOther = [&](long id, long c) {
                return std::any_of(applied.begin(), applied.end(),
                                   [&](const auto& entry) { return entry.first != id && entry.second.c == c; });
            };
            for (size_t i = 0; i < changes.size(); ++i) {
                const RowChange& change = changes[i];
                const auto& image = change.op == RowOp::Insert ? change.after : change.before;
                long id = image[0].asSigned();
                Row after{change.after.empty() ? 0 : change.after[1].asSigned(),
                          change.after.empty() ? 0 : change.after[2].asSigned()};
                Fold fold = folds[i];
                if (fold == Fold::Keep && change.op == RowOp::Delete) {
                    QVERIFY2(applied.erase(id) == 1, "a DELETE of a row that is not there");
                } else if (fold == Fold::InsertAfter || (fold == Fold::Keep && change.op == RowOp::Insert)) {
                    QVERIFY2(!applied.contains(id), "an INSERT of a row that is there (1062)");
                    QVERIFY2(!cTakenByOther(id, after.c), "an INSERT of a c another row holds (1062)");
                    applied[id] = after;
                } else if (fold == Fold::UpdateAfter || (fold == Fold::Keep && change.op == RowOp::Update)) {
                    updatesAfter += fold == Fold::UpdateAfter;
                    QVERIFY2(applied.contains(id), "an UPDATE of a row that is not there");
                    QVERIFY2(!cTakenByOther(id, after.c), "an UPDATE to a c another row holds (1062)");
                    applied[id] = after;
                } else {
                    QVERIFY2(fold == Fold::Drop, "an upsert on a table with a second unique index");
                }
            }
            QCOMPARE(applied.size(), rows.size());
            for (const auto& [id, row] : rows) {
                QVERIFY(applied.contains(id));
                QCOMPARE(applied[id].k, row.k);
                QCOMPARE(applied[id].c, row.c);
            }
        }
        QVERIFY2(updatesAfter > 100, qPrintable(QString::number(updatesAfter)));  // the shape was exercised
    }
};

QTEST_APPLESS_MAIN(KeyFoldingTest)
#include "test_key_folding.moc"
