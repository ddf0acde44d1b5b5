// Tables tied by cascading foreign keys downstream (issue 10, foreign keys): the binlog never names the
// rows a cascade changes, so the family's changes keep their binlog order (one causality key, no
// reordering inside a batch) and a parent's DELETE or UPDATE runs with the upstream session's
// foreign_key_checks, so that the downstream cascades exactly when the upstream did.
#include <QtTest>

#include "engine/apply/causality_keys.h"
#include "engine/apply/dml_builder.h"
#include "engine/schema/cascade_family.h"
#include "tests/engine/apply/row_change_fixtures.h"

using namespace syncscope;
using namespace syncscope::apply;
using namespace syncscope::apply::testing;
using schema::ForeignKeyEdge;
using schema::TableName;

namespace {

TableName named(const std::string& text) {
    auto dot = text.find('.');
    return {text.substr(0, dot), text.substr(dot + 1)};
}

// db.p (parent) <- db.c (child, ON DELETE CASCADE) <- db.g (grandchild); db.x stands alone.
// db.r references db.p with RESTRICT: not part of the family.
const std::vector<ForeignKeyEdge> kEdges = {{named("db.c"), named("db.p"), "fk_c", "CASCADE", "RESTRICT"},
                                            {named("db.g"), named("db.c"), "fk_g", "SET NULL", "RESTRICT"},
                                            {named("db.r"), named("db.p"), "fk_r", "RESTRICT", "NO ACTION"}};

std::shared_ptr<const schema::TableSchema> familyTable(const std::string& name) {
    schema::TableSchema made = *soleKeyTable("db", name, {"id", "pid"}, {0});
    made.setCascadeFamily(schema::cascadeFamilyOf({"db", name}, kEdges));
    return std::make_shared<const schema::TableSchema>(std::move(made));
}

RowChange withUpstreamChecks(RowChange change, bool on) {
    change.upstreamForeignKeyChecks = on;
    return change;
}

QString checksText(const std::optional<bool>& checks) {
    return !checks ? QStringLiteral("session") : *checks ? QStringLiteral("on") : QStringLiteral("off");
}

}  // namespace

class CascadeFamilyTest : public QObject {
    Q_OBJECT

private slots:
    void familyIsEveryTableReachableOverCascadingKeys_data() {
        QTest::addColumn<QString>("table");
        QTest::addColumn<QString>("family");
        QTest::addColumn<bool>("cascadesToChildren");
        QTest::addRow("parent: family named by its first table, cascades") << "db.p"
                                                                           << "db.c" << true;
        QTest::addRow("child of p and parent of g: same family, cascades") << "db.c"
                                                                           << "db.c" << true;
        QTest::addRow("grandchild: same family, cascades to nothing") << "db.g"
                                                                      << "db.c" << false;
        QTest::addRow("a table without cascading keys: no family") << "db.x"
                                                                   << "" << false;
    }

    void familyIsEveryTableReachableOverCascadingKeys() {
        QFETCH(QString, table);
        QFETCH(QString, family);
        QFETCH(bool, cascadesToChildren);
        schema::CascadeFamily found = schema::cascadeFamilyOf(named(table.toStdString()), kEdges);
        QCOMPARE(QString::fromStdString(found.name), family);
        QCOMPARE(found.cascadesToChildren, cascadesToChildren);
    }

    void ddlThatMayMoveAForeignKeyIsRecognised_data() {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<bool>("mayChange");
        QTest::addRow("CREATE with REFERENCES")
            << "create table c (id int, pid int, foreign key (pid) references p (id) on delete cascade)" << true;
        QTest::addRow("ALTER DROP FOREIGN KEY") << "ALTER TABLE c DROP FOREIGN KEY fk_c" << true;
        QTest::addRow("DROP TABLE") << "DROP TABLE p" << true;
        QTest::addRow("RENAME TABLE") << "RENAME TABLE p TO q" << true;
        QTest::addRow("ADD COLUMN") << "ALTER TABLE t ADD COLUMN c2 INT" << false;
        QTest::addRow("CREATE without keys") << "CREATE TABLE t (id INT PRIMARY KEY)" << false;
    }

    void ddlThatMayMoveAForeignKeyIsRecognised() {
        QFETCH(QString, sql);
        QFETCH(bool, mayChange);
        QCOMPARE(schema::ddlMayChangeCascades(sql.toStdString()), mayChange);
    }

    // Parent and child rows with unrelated keys still share the family's one key (a parent's DELETE
    // cascades to child rows whose keys no change names).
    void familyChangesShareOneCausalityKey() {
        auto parentKeys = causalityKeys(erase(familyTable("p"), ints({5, 0})));
        auto childKeys = causalityKeys(insert(familyTable("c"), ints({9, 5})));
        auto grandchildKeys = causalityKeys(update(familyTable("g"), ints({3, 9}), ints({4, 9})));
        QCOMPARE(parentKeys.size(), size_t{1});
        QCOMPARE(childKeys, parentKeys);
        QCOMPARE(grandchildKeys, parentKeys);
        auto loneKeys = causalityKeys(erase(soleKeyTable("db", "x", {"id", "pid"}, {0}), ints({5, 0})));
        QVERIFY(loneKeys != parentKeys);
    }

    void parentDeleteAndUpdateRunWithTheUpstreamChecks_data() {
        QTest::addColumn<QString>("table");
        QTest::addColumn<QString>("op");
        QTest::addColumn<bool>("upstreamChecks");
        QTest::addColumn<QString>("expected");
        QTest::addRow("parent delete, upstream checked: cascades") << "p"
                                                                   << "delete" << true << "on";
        QTest::addRow("parent delete, upstream unchecked: does not") << "p"
                                                                     << "delete" << false << "off";
        QTest::addRow("parent update, upstream checked") << "p"
                                                         << "update" << true << "on";
        QTest::addRow("parent insert: the session's own") << "p"
                                                          << "insert" << true << "session";
        QTest::addRow("grandchild delete: cascades to nothing") << "g"
                                                                << "delete" << true << "session";
        QTest::addRow("lone table delete") << "x"
                                           << "delete" << true << "session";
    }

    void parentDeleteAndUpdateRunWithTheUpstreamChecks() {
        QFETCH(QString, table);
        QFETCH(QString, op);
        QFETCH(bool, upstreamChecks);
        QFETCH(QString, expected);
        auto t = table == "x" ? soleKeyTable("db", "x", {"id", "pid"}, {0}) : familyTable(table.toStdString());
        RowChange change = op == "delete"   ? erase(t, ints({5, 1}))
                           : op == "update" ? update(t, ints({5, 1}), ints({5, 2}))
                                            : insert(t, ints({5, 1}));
        std::vector<RowChange> changes{withUpstreamChecks(change, upstreamChecks)};
        auto statements = DmlBuilder(true).build(changes);
        QCOMPARE(statements.size(), size_t{1});
        QCOMPARE(checksText(statements[0].foreignKeyChecks), expected);
    }

    // multiple-rows groups a batch by table; a family stays in binlog order (child insert, parent delete,
    // child insert must not become both inserts, then the delete that would cascade the second one).
    void multipleRowsKeepsAFamilyInBinlogOrder() {
        auto parent = familyTable("p");
        auto child = familyTable("c");
        std::vector<RowChange> changes{insert(child, ints({1, 5})), erase(parent, ints({5, 0})),
                                       insert(child, ints({2, 6})), insert(parent, ints({7, 0}))};
        auto statements = DmlBuilder(true).build(changes);
        QStringList sql;
        for (const auto& statement : statements) {
            sql << QString::fromStdString(statement.sql);
        }
        QCOMPARE(sql,
                 (QStringList{"INSERT INTO `db`.`c` (`id`, `pid`) VALUES (?, ?)", "DELETE FROM `db`.`p` WHERE `id` = ?",
                              "INSERT INTO `db`.`c` (`id`, `pid`) VALUES (?, ?)",
                              "INSERT INTO `db`.`p` (`id`, `pid`) VALUES (?, ?)"}));
        QCOMPARE(checksText(statements[1].foreignKeyChecks), QStringLiteral("on"));
    }

    // Deletes of parents merge only with deletes that cascade the same way.
    void deletesMergeOnlyWithTheSameChecks() {
        auto parent = familyTable("p");
        std::vector<RowChange> changes{withUpstreamChecks(erase(parent, ints({1, 0})), true),
                                       withUpstreamChecks(erase(parent, ints({2, 0})), true),
                                       withUpstreamChecks(erase(parent, ints({3, 0})), false)};
        auto statements = DmlBuilder(true).build(changes);
        QCOMPARE(statements.size(), size_t{2});
        QCOMPARE(statements[0].rowCount, size_t{2});
        QCOMPARE(checksText(statements[1].foreignKeyChecks), QStringLiteral("off"));
    }

    // Safe mode replays a parent's key move as a plain UPDATE by the old key: a DELETE of the old key would
    // cascade-delete the children that ON UPDATE CASCADE moves, and a replay finds the old key gone.
    void safeModeKeyMoveOfAParentIsAPlainUpdate() {
        auto parent = familyTable("p");
        std::vector<RowChange> changes{update(parent, ints({5, 0}), ints({6, 0}), true)};
        auto statements = DmlBuilder(true).build(changes);
        QCOMPARE(statements.size(), size_t{1});
        QVERIFY2(statements[0].sql.rfind("UPDATE `db`.`p` SET", 0) == 0, statements[0].sql.c_str());
        QCOMPARE(checksText(statements[0].foreignKeyChecks), QStringLiteral("on"));
        QCOMPARE(statements[0].mustMatch, size_t{0});  // a replay may find it done
    }
};

QTEST_GUILESS_MAIN(CascadeFamilyTest)
#include "test_cascade_family.moc"
