// Shard merge's optimistic mode without servers (engine/task/optimistic_shard_ddl.h, alter_clauses.h,
// column_type_order.h): a DDL's clauses are read as the server would run them; a type widens, narrows or is
// unrelated; each DDL is weighed against the merged table as it is: run at once, passed over, left to the
// pessimistic lock, or a conflict naming both sides; strict mode stops where the lock would wait; a column one
// shard added can be dropped again only while no other shard table has added it.
#include <QtTest>

#include "engine/common/error.h"
#include "engine/task/alter_clauses.h"
#include "engine/task/column_type_order.h"
#include "engine/task/optimistic_shard_ddl.h"

using namespace syncscope;
using namespace syncscope::task;

namespace {

const TableName kTarget{"sm", "t"};
const ShardTable kA{"first", {"sm_1", "t"}};
const ShardTable kB{"first", {"sm_2", "t"}};
const ShardTable kC{"second", {"sm_3", "t"}};

MergedTable mergedTable() {
    MergedTable merged;
    merged.columns["id"] = {"int(11)", false, false};
    merged.columns["v"] = {"varchar(60)", true, true};
    merged.columns["n"] = {"int(11)", true, true};
    merged.indexes.push_back({"PRIMARY", {"id"}, true});
    merged.indexes.push_back({"iv", {"v"}, false});
    return merged;
}

// What the server makes of a column definition, for the few the tests use.
std::optional<MergedColumn> probe(const std::string& definition) {
    std::string lowered = definition;
    std::transform(lowered.begin(), lowered.end(), lowered.begin(), [](unsigned char c) { return std::tolower(c); });
    MergedColumn column;
    if (lowered.starts_with("bigint")) {
        column.type = "bigint(20)";
    } else if (lowered.starts_with("int")) {
        column.type = "int(11)";
    } else if (lowered.starts_with("varchar(10)")) {
        column.type = "varchar(10)";
    } else if (lowered.starts_with("varchar(200)")) {
        column.type = "varchar(200)";
    } else if (lowered.starts_with("varchar(60)")) {
        column.type = "varchar(60)";
    } else {
        return std::nullopt;
    }
    column.nullable = lowered.find("not null") == std::string::npos;
    column.hasDefault = lowered.find("default") != std::string::npos;
    return column;
}

using Kind = OptimisticShardDdl::Verdict::Kind;

class MemoryColumnLedger : public ShardColumnLedger {
public:
    std::map<std::pair<TableName, std::string>, AddedShardColumn> kept;
    bool failing = false;
    std::vector<AddedShardColumn> loadColumns() override {
        std::vector<AddedShardColumn> columns;
        for (const auto& [key, column] : kept) {
            columns.push_back(column);
        }
        return columns;
    }
    void keepColumn(const AddedShardColumn& column) override {
        if (failing) {
            throw Error("the downstream is gone");
        }
        kept[{column.target, column.column}] = column;
    }
    void removeColumn(const TableName& target, const std::string& column) override { kept.erase({target, column}); }
};

}  // namespace

Q_DECLARE_METATYPE(AlterClause::Kind)
Q_DECLARE_METATYPE(TypeOrder)
Q_DECLARE_METATYPE(OptimisticShardDdl::Verdict::Kind)

class OptimisticShardDdlTest : public QObject {
    Q_OBJECT

private slots:
    void clausesAreReadAsTheServerRunsThem_data() {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<AlterClause::Kind>("kind");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("definition");
        QTest::addRow("add column with position")
            << "ALTER TABLE `sm`.`t` ADD COLUMN c INT NOT NULL DEFAULT 7 AFTER v" << AlterClause::Kind::AddColumn << "c"
            << "INT NOT NULL DEFAULT 7";
        QTest::addRow("add without COLUMN")
            << "alter table t add `c d` varchar(10) first" << AlterClause::Kind::AddColumn << "c d"
            << "varchar(10)";
        QTest::addRow("default text says after")
            << "ALTER TABLE t ADD c VARCHAR(10) DEFAULT 'after'" << AlterClause::Kind::AddColumn << "c"
            << "VARCHAR(10) DEFAULT 'after'";
        QTest::addRow("drop column") << "ALTER TABLE t DROP COLUMN IF EXISTS c" << AlterClause::Kind::DropColumn << "c"
                                     << "";
        QTest::addRow("drop bare") << "ALTER TABLE t DROP c" << AlterClause::Kind::DropColumn << "c"
                                   << "";
        QTest::addRow("modify") << "ALTER TABLE t MODIFY v VARCHAR(200) NULL" << AlterClause::Kind::ModifyColumn << "v"
                                << "VARCHAR(200) NULL";
        QTest::addRow("change keeping the name")
            << "ALTER TABLE t CHANGE COLUMN v V BIGINT" << AlterClause::Kind::ModifyColumn << "V"
            << "BIGINT";
        QTest::addRow("change renaming") << "ALTER TABLE t CHANGE v w INT" << AlterClause::Kind::Other << "w"
                                         << "INT";
        QTest::addRow("add index") << "ALTER TABLE t ADD INDEX ic (c, v(10))" << AlterClause::Kind::AddIndex << "ic"
                                   << "";
        QTest::addRow("add unnamed key") << "ALTER TABLE t ADD KEY (c)" << AlterClause::Kind::AddIndex << ""
                                         << "";
        QTest::addRow("create index") << "CREATE INDEX ic ON sm.t (c)" << AlterClause::Kind::AddIndex << "ic"
                                      << "";
        QTest::addRow("drop index") << "DROP INDEX ic ON sm.t" << AlterClause::Kind::DropIndex << "ic"
                                    << "";
        QTest::addRow("alter drop key") << "ALTER TABLE t DROP KEY ic" << AlterClause::Kind::DropIndex << "ic"
                                        << "";
        QTest::addRow("primary key") << "ALTER TABLE t ADD PRIMARY KEY (id)" << AlterClause::Kind::Other << ""
                                     << "";
        QTest::addRow("add several in parentheses")
            << "ALTER TABLE t ADD COLUMN (a INT, b INT)" << AlterClause::Kind::Other << ""
            << "";
        QTest::addRow("rename column") << "ALTER TABLE t RENAME COLUMN v TO w" << AlterClause::Kind::Other << ""
                                       << "";
    }

    void clausesAreReadAsTheServerRunsThem() {
        QFETCH(QString, sql);
        QFETCH(AlterClause::Kind, kind);
        QFETCH(QString, name);
        QFETCH(QString, definition);
        AlterClauses statement = splitAlterClauses(sql.toStdString());
        QCOMPARE(statement.clauses.size(), size_t{1});
        QCOMPARE(statement.clauses[0].kind, kind);
        if (kind != AlterClause::Kind::Other) {
            QCOMPARE(QString::fromStdString(statement.clauses[0].name), name);
            QCOMPARE(QString::fromStdString(statement.clauses[0].definition), definition);
        }
    }

    void aStatementWithOnlySomeClausesKeepsTheirText() {
        const std::string sql = "ALTER TABLE `sm`.`t` ADD COLUMN c INT DEFAULT 1, ADD INDEX ic (c), DROP COLUMN n";
        AlterClauses statement = splitAlterClauses(sql);
        QCOMPARE(statement.clauses.size(), size_t{3});
        QCOMPARE(statement.clauses[1].indexColumns, std::vector<std::string>{"c"});
        QCOMPARE(statement.withOnly({0, 2}, sql),
                 std::string("ALTER TABLE `sm`.`t` ADD COLUMN c INT DEFAULT 1, DROP COLUMN n"));
        QVERIFY(splitAlterClauses("INSERT INTO t VALUES (1)").clauses.empty());
        QVERIFY(splitAlterClauses("ALTER TABLE t ADD c 'unterminated").clauses.empty());
    }

    void typesWidenNarrowOrAreUnrelated_data() {
        QTest::addColumn<QString>("current");
        QTest::addColumn<QString>("proposed");
        QTest::addColumn<TypeOrder>("order");
        QTest::addRow("same int") << "int(11)"
                                  << "int(10)" << TypeOrder::Same;
        QTest::addRow("int to bigint") << "int(11)"
                                       << "bigint(20)" << TypeOrder::Wider;
        QTest::addRow("bigint to smallint") << "bigint(20)"
                                            << "smallint(6)" << TypeOrder::Narrower;
        QTest::addRow("unsigned to larger signed") << "int(10) unsigned"
                                                   << "bigint(20)" << TypeOrder::Wider;
        QTest::addRow("signed to unsigned") << "int(11)"
                                            << "int(10) unsigned" << TypeOrder::Unrelated;
        QTest::addRow("varchar longer") << "varchar(60)"
                                        << "varchar(200)" << TypeOrder::Wider;
        QTest::addRow("varchar shorter") << "varchar(60)"
                                         << "varchar(10)" << TypeOrder::Narrower;
        QTest::addRow("char to varchar") << "char(10)"
                                         << "varchar(20)" << TypeOrder::Wider;
        QTest::addRow("varchar to char") << "varchar(10)"
                                         << "char(20)" << TypeOrder::Unrelated;
        QTest::addRow("decimal wider") << "decimal(10,2)"
                                       << "decimal(12,3)" << TypeOrder::Wider;
        QTest::addRow("decimal trading digits") << "decimal(10,2)"
                                                << "decimal(10,4)" << TypeOrder::Unrelated;
        QTest::addRow("text to mediumtext") << "text"
                                            << "mediumtext" << TypeOrder::Wider;
        QTest::addRow("int to varchar") << "int(11)"
                                        << "varchar(20)" << TypeOrder::Unrelated;
        QTest::addRow("same enum") << "enum('a','b')"
                                   << "ENUM('a','b')" << TypeOrder::Same;
        QTest::addRow("enum grown") << "enum('a','b')"
                                    << "enum('a','b','c')" << TypeOrder::Unrelated;
    }

    void typesWidenNarrowOrAreUnrelated() {
        QFETCH(QString, current);
        QFETCH(QString, proposed);
        QFETCH(TypeOrder, order);
        QCOMPARE(compareColumnTypes(current.toStdString(), proposed.toStdString()), order);
    }

    void aDdlIsWeighedAgainstTheMergedTable_data() {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<OptimisticShardDdl::Verdict::Kind>("kind");
        QTest::addColumn<QString>("said");  // in the SQL to run, or in the reason
        QTest::addRow("new column with a default runs")
            << "ALTER TABLE `sm`.`t` ADD COLUMN c INT NOT NULL DEFAULT 7" << Kind::Run << "ADD COLUMN c";
        QTest::addRow("new nullable column runs") << "ALTER TABLE `sm`.`t` ADD c INT" << Kind::Run << "ADD c";
        QTest::addRow("column already there passes") << "ALTER TABLE `sm`.`t` ADD COLUMN n INT DEFAULT 3" << Kind::Pass
                                                     << "column n is in the merged table already";
        QTest::addRow("column there with another type conflicts")
            << "ALTER TABLE `sm`.`t` ADD COLUMN n VARCHAR(10) DEFAULT 'x'" << Kind::Conflict
            << "adds column n as varchar(10), but the merged table sm.t has it as int(11)";
        QTest::addRow("not null without default waits")
            << "ALTER TABLE `sm`.`t` ADD COLUMN c INT NOT NULL" << Kind::Coordinate << "NOT NULL without a DEFAULT";
        QTest::addRow("dropping a column others write conflicts")
            << "ALTER TABLE `sm`.`t` DROP COLUMN v" << Kind::Conflict
            << "while these shard tables still write it: first:sm_2.t, second:sm_3.t";
        QTest::addRow("dropping an absent column passes")
            << "ALTER TABLE `sm`.`t` DROP COLUMN zz" << Kind::Pass << "not in the merged table";
        QTest::addRow("widening runs") << "ALTER TABLE `sm`.`t` MODIFY v VARCHAR(200)" << Kind::Run << "MODIFY v";
        QTest::addRow("narrowing passes")
            << "ALTER TABLE `sm`.`t` MODIFY v VARCHAR(10)" << Kind::Pass << "keeps column v as varchar(60)";
        QTest::addRow("an unrelated type conflicts")
            << "ALTER TABLE `sm`.`t` MODIFY n VARCHAR(10)" << Kind::Conflict << "does not hold the int(11) values";
        QTest::addRow("new index runs") << "CREATE INDEX inn ON `sm`.`t` (n)" << Kind::Run << "CREATE INDEX inn";
        QTest::addRow("index already there passes")
            << "ALTER TABLE `sm`.`t` ADD INDEX (v)" << Kind::Pass << "index is in the merged table already";
        QTest::addRow("unique index waits")
            << "ALTER TABLE `sm`.`t` ADD UNIQUE KEY uv (v)" << Kind::Coordinate << "unique index";
        QTest::addRow("dropped index runs") << "ALTER TABLE `sm`.`t` DROP INDEX iv" << Kind::Run << "DROP INDEX iv";
        QTest::addRow("rename waits") << "ALTER TABLE `sm`.`t` RENAME COLUMN v TO w" << Kind::Coordinate
                                      << "RENAME COLUMN v TO w";
        QTest::addRow("only the clauses still to run")
            << "ALTER TABLE `sm`.`t` ADD COLUMN n INT DEFAULT 3, ADD COLUMN c INT DEFAULT 1" << Kind::Run
            << "ALTER TABLE `sm`.`t` ADD COLUMN c INT DEFAULT 1";
        QTest::addRow("one clause that must wait makes the DDL wait")
            << "ALTER TABLE `sm`.`t` ADD COLUMN c INT DEFAULT 1, RENAME COLUMN v TO w" << Kind::Coordinate << "RENAME";
    }

    void aDdlIsWeighedAgainstTheMergedTable() {
        QFETCH(QString, sql);
        QFETCH(OptimisticShardDdl::Verdict::Kind, kind);
        QFETCH(QString, said);
        OptimisticShardDdl ddl({{kTarget, {kA, kB, kC}}}, false);
        OptimisticShardDdl::Verdict verdict = ddl.weigh(kA, kTarget, sql.toStdString(), mergedTable(), probe);
        QCOMPARE(verdict.kind, kind);
        const std::string text = kind == Kind::Run ? verdict.sql : verdict.reason;
        QVERIFY2(text.find(said.toStdString()) != std::string::npos, text.c_str());
    }

    void strictModeStopsWhereTheLockWouldWait() {
        OptimisticShardDdl strict({{kTarget, {kA, kB, kC}}}, true);
        OptimisticShardDdl::Verdict verdict =
            strict.weigh(kB, kTarget, "ALTER TABLE `sm`.`t` RENAME COLUMN v TO w", mergedTable(), probe);
        QCOMPARE(verdict.kind, Kind::Conflict);
        QVERIFY2(verdict.reason.find("strict-optimistic-shard-mode: shard table first:sm_2.t") == 0,
                 verdict.reason.c_str());
        // What fits every shard still runs at once.
        QCOMPARE(strict.weigh(kB, kTarget, "ALTER TABLE `sm`.`t` ADD c INT", mergedTable(), probe).kind, Kind::Run);
    }

    void aColumnOneShardAddedIsDroppedUntilAnotherShardAddsIt() {
        OptimisticShardDdl ddl({{kTarget, {kA, kB, kC}}}, false);
        const std::string add = "ALTER TABLE `sm`.`t` ADD COLUMN c INT DEFAULT 1";
        MergedTable merged = mergedTable();
        OptimisticShardDdl::Verdict added = ddl.weigh(kA, kTarget, add, merged, probe);
        QCOMPARE(added.kind, Kind::Run);
        const uint64_t before = ddl.version();
        ddl.settle(kA, kTarget, added);
        QVERIFY(ddl.version() != before);
        merged.columns["c"] = {"int(11)", true, true};
        std::vector<AddedShardColumn> pending = ddl.pendingColumns();
        QCOMPARE(pending.size(), size_t{1});
        QCOMPARE(pending[0].column, std::string("c"));
        QCOMPARE(pending[0].awaited, (std::vector<ShardTable>{kB, kC}));

        // Only the shard that added it writes it: its DROP runs.
        QCOMPARE(ddl.weigh(kA, kTarget, "ALTER TABLE `sm`.`t` DROP COLUMN c", merged, probe).kind, Kind::Run);

        // Once another shard has added it too, the DROP is a conflict naming that shard.
        OptimisticShardDdl::Verdict reached = ddl.weigh(kC, kTarget, add, merged, probe);
        QCOMPARE(reached.kind, Kind::Pass);
        ddl.settle(kC, kTarget, reached);
        QCOMPARE(ddl.pendingColumns().at(0).awaited, std::vector<ShardTable>{kB});
        OptimisticShardDdl::Verdict drop = ddl.weigh(kA, kTarget, "ALTER TABLE `sm`.`t` DROP COLUMN c", merged, probe);
        QCOMPARE(drop.kind, Kind::Conflict);
        QVERIFY2(drop.reason.find("still write it: second:sm_3.t") != std::string::npos, drop.reason.c_str());

        // Every shard has it: nothing is pending.
        ddl.settle(kB, kTarget, ddl.weigh(kB, kTarget, add, merged, probe));
        QVERIFY(ddl.pendingColumns().empty());
    }

    void theAddedColumnsSurviveARestartThroughTheLedger() {
        auto ledger = std::make_shared<MemoryColumnLedger>();
        const std::string add = "ALTER TABLE `sm`.`t` ADD COLUMN c INT DEFAULT 1";
        MergedTable merged = mergedTable();
        {
            OptimisticShardDdl ddl({{kTarget, {kA, kB, kC}}}, false, ledger);
            ddl.settle(kA, kTarget, ddl.weigh(kA, kTarget, add, merged, probe));
            merged.columns["c"] = {"int(11)", true, true};
            ddl.settle(kB, kTarget, ddl.weigh(kB, kTarget, add, merged, probe));
        }
        QCOMPARE(ledger->kept.size(), size_t{1});
        OptimisticShardDdl restarted({{kTarget, {kA, kB, kC}}}, false, ledger);
        std::vector<AddedShardColumn> pending = restarted.pendingColumns();
        QCOMPARE(pending.size(), size_t{1});
        QCOMPARE(pending[0].addedBy, kA);
        QCOMPARE(pending[0].awaited, std::vector<ShardTable>{kC});
        // kC has not added it: its DROP is judged by what was kept (kA and kB write it).
        OptimisticShardDdl::Verdict drop =
            restarted.weigh(kC, kTarget, "ALTER TABLE `sm`.`t` DROP COLUMN c", merged, probe);
        QCOMPARE(drop.kind, Kind::Conflict);
        QVERIFY2(drop.reason.find("first:sm_1.t, first:sm_2.t") != std::string::npos, drop.reason.c_str());
        // A column dropped from the merged table leaves the ledger.
        OptimisticShardDdl::Verdict added =
            restarted.weigh(kA, kTarget, "ALTER TABLE `sm`.`t` ADD e INT", merged, probe);
        restarted.settle(kA, kTarget, added);
        QCOMPARE(ledger->kept.size(), size_t{2});
        merged.columns["e"] = {"int(11)", true, true};
        OptimisticShardDdl::Verdict dropped =
            restarted.weigh(kA, kTarget, "ALTER TABLE `sm`.`t` DROP COLUMN e", merged, probe);
        QCOMPARE(dropped.kind, Kind::Run);
        restarted.settle(kA, kTarget, dropped);
        QCOMPARE(ledger->kept.size(), size_t{1});
    }

    void aLedgerThatCannotBeWrittenChangesNothing() {
        auto ledger = std::make_shared<MemoryColumnLedger>();
        OptimisticShardDdl ddl({{kTarget, {kA, kB, kC}}}, false, ledger);
        OptimisticShardDdl::Verdict added =
            ddl.weigh(kA, kTarget, "ALTER TABLE `sm`.`t` ADD COLUMN c INT DEFAULT 1", mergedTable(), probe);
        ledger->failing = true;
        QVERIFY_THROWS_EXCEPTION(Error, ddl.settle(kA, kTarget, added));
        QVERIFY(ddl.pendingColumns().empty());
        ledger->failing = false;
        ddl.settle(kA, kTarget, added);
        QCOMPARE(ddl.pendingColumns().size(), size_t{1});
    }

    void aDefinitionTheServerRefusesWaits() {
        OptimisticShardDdl ddl({{kTarget, {kA, kB, kC}}}, false);
        OptimisticShardDdl::Verdict verdict =
            ddl.weigh(kA, kTarget, "ALTER TABLE `sm`.`t` ADD COLUMN c GEOMETRY", mergedTable(), probe);
        QCOMPARE(verdict.kind, Kind::Coordinate);
        QVERIFY2(verdict.reason.find("the definition of column c cannot be read: GEOMETRY") != std::string::npos,
                 verdict.reason.c_str());
    }
};

QTEST_GUILESS_MAIN(OptimisticShardDdlTest)
#include "test_optimistic_shard_ddl.moc"
