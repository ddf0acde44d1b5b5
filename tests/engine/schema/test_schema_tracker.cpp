// Table structure from TABLE_MAP metadata or the downstream, the key UPDATE/DELETE use, and the
// tracker's cache across DDL.
#include <QtTest>

#include "engine/schema/schema_tracker.h"

using namespace syncscope;
using namespace syncscope::schema;
using binlog::ColumnDef;
using binlog::ColumnType;

namespace {

ColumnDef column(const std::string& name, ColumnType type = ColumnType::Long, bool primary = false,
                 bool nullable = true) {
    ColumnDef def;
    def.name = name;
    def.type = type;
    def.inPrimaryKey = primary;
    def.nullable = nullable && !primary;
    return def;
}

std::vector<std::string> keyNames(const TableSchema& schema) {
    std::vector<std::string> names;
    for (size_t position : schema.rowKey().columns) {
        names.push_back(schema.columns()[position].name);
    }
    return names;
}

const TableName kUpstream{"shop", "orders"};
const TableName kTarget{"shop_copy", "orders"};

}  // namespace

class SchemaTrackerTest : public QObject {
    Q_OBJECT

private slots:
    void rowKeyIsPrimaryKeyElseNotNullUniqueElseAllColumns_data() {
        QTest::addColumn<bool>("idIsPrimary");
        QTest::addColumn<QStringList>("uniqueKey");
        QTest::addColumn<bool>("codeNullable");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QStringList>("expectedKey");
        QTest::addRow("primary key wins over unique key")
            << true << QStringList{"code"} << false << int(RowKeyKind::PrimaryKey) << QStringList{"id"};
        QTest::addRow("not-null unique key without primary key")
            << false << QStringList{"code"} << false << int(RowKeyKind::UniqueKey) << QStringList{"code"};
        QTest::addRow("nullable unique key is no key")
            << false << QStringList{"code"} << true << int(RowKeyKind::AllColumns) << QStringList{"id", "code", "note"};
        QTest::addRow("no key at all") << false << QStringList{} << false << int(RowKeyKind::AllColumns)
                                       << QStringList{"id", "code", "note"};
    }
    void rowKeyIsPrimaryKeyElseNotNullUniqueElseAllColumns() {
        QFETCH(bool, idIsPrimary);
        QFETCH(QStringList, uniqueKey);
        QFETCH(bool, codeNullable);
        QFETCH(int, kind);
        QFETCH(QStringList, expectedKey);
        std::vector<ColumnDef> columns{column("id", ColumnType::Long, idIsPrimary, false),
                                       column("code", ColumnType::VarChar, false, codeNullable),
                                       column("note", ColumnType::Blob)};
        std::vector<std::vector<std::string>> uniques;
        if (!uniqueKey.isEmpty()) {
            std::vector<std::string> names;
            for (const auto& name : uniqueKey) {
                names.push_back(name.toStdString());
            }
            uniques.push_back(names);
        }
        auto schema = TableSchema::fromTableMap(kTarget, columns, uniques);
        QVERIFY(schema.has_value());
        QCOMPARE(int(schema->rowKey().kind), kind);
        std::vector<std::string> expected;
        for (const auto& name : expectedKey) {
            expected.push_back(name.toStdString());
        }
        QCOMPARE(keyNames(*schema), expected);
    }

    void tableMapWithoutColumnNamesGivesNoSchema() {
        ColumnDef unnamed;
        unnamed.type = ColumnType::Long;
        QVERIFY(!TableSchema::fromTableMap(kTarget, {unnamed}).has_value());
    }

    void tableMapNamesWinAndTheDownstreamOnlySaysWhetherRowsMayBeReordered_data() {
        // 0: only PRIMARY (id); 1: also UNIQUE (v); 2: cannot be read; 3: a column of its own
        QTest::addColumn<int>("downstream");
        QTest::addColumn<bool>("reorderable");
        QTest::addRow("primary key is the only unique index") << 0 << true;
        QTest::addRow("a second unique index") << 1 << false;
        QTest::addRow("downstream unreadable: slower, never wrong") << 2 << false;
        QTest::addRow("a column only the downstream has (may be NOT NULL without default)") << 3 << false;
    }
    void tableMapNamesWinAndTheDownstreamOnlySaysWhetherRowsMayBeReordered() {
        QFETCH(int, downstream);
        QFETCH(bool, reorderable);
        int lookups = 0;
        SchemaTracker tracker([&](const TableName& target) {
            ++lookups;
            if (downstream == 2) {
                throw SchemaError("cannot read the structure of downstream table " + target.text());
            }
            // Names in another case downstream: the table map's names must win all the same.
            std::vector<SchemaColumn> columns{{"ID", ColumnType::Long, "int", false, false},
                                              {"V", ColumnType::Long, "int", false, true}};
            if (downstream == 3) {
                columns.push_back({"extra", ColumnType::Long, "int", false, false});
            }
            TableSchema table(target, columns, {0}, {}, SchemaOrigin::Downstream);
            table.setDownstreamUniqueIndexes(downstream == 1 ? std::vector<std::vector<std::string>>{{"ID"}, {"V"}}
                                                             : std::vector<std::vector<std::string>>{{"ID"}});
            return std::optional<TableSchema>(table);
        });
        std::vector<ColumnDef> columns{column("id", ColumnType::Long, true), column("v")};
        auto schema = tracker.schemaFor(kUpstream, kTarget, columns);
        QCOMPARE(tracker.schemaFor(kUpstream, kTarget, columns).get(), schema.get());
        QCOMPARE(lookups, 1);  // once per table, until a DDL makes the tracker forget it
        QCOMPARE(schema->name(), kTarget);
        QCOMPARE(schema->columns().size(), size_t(2));
        QCOMPARE(schema->columns()[1].name, std::string("v"));
        QCOMPARE(int(schema->rowKey().kind), int(RowKeyKind::PrimaryKey));
        QCOMPARE(int(schema->origin()), int(SchemaOrigin::TableMap));
        QCOMPARE(schema->rowKeyIsOnlyUniqueIndex(), reorderable);
    }

    // Causality uses the primary key and every unique index of the downstream table (issue 10, 1); the
    // row key UPDATE and DELETE use stays the primary key.
    void everyDownstreamUniqueIndexIsACausalityKey_data() {
        QTest::addColumn<QStringList>("downstreamIndexes");  // "a,b" per index
        QTest::addColumn<QStringList>("expectedKeys");       // "id" first, then the others
        QTest::addColumn<bool>("wholeTable");
        QTest::addRow("only the primary key") << QStringList{"ID"} << QStringList{"id"} << false;
        QTest::addRow("a nullable unique email") << QStringList{"ID", "EMAIL"} << QStringList{"id", "email"} << false;
        QTest::addRow("a composite unique index in another column order")
            << QStringList{"ID", "v,email"} << QStringList{"id", "v,email"} << false;
        QTest::addRow("the primary key again as a unique index is no new key")
            << QStringList{"ID", "id"} << QStringList{"id"} << false;
        QTest::addRow("a prefix or expression index: the whole table is one key")
            << QStringList{"ID", ""} << QStringList{"id"} << true;
        QTest::addRow("an index partly of a downstream-only column hashes the shared part")
            << QStringList{"ID", "email,tenant"} << QStringList{"id", "email"} << false;
    }
    void everyDownstreamUniqueIndexIsACausalityKey() {
        QFETCH(QStringList, downstreamIndexes);
        QFETCH(QStringList, expectedKeys);
        QFETCH(bool, wholeTable);
        SchemaTracker tracker([&](const TableName& target) {
            std::vector<SchemaColumn> columns{{"ID", ColumnType::Long, "int", false, false},
                                              {"email", ColumnType::VarChar, "varchar", false, true},
                                              {"v", ColumnType::Long, "int", false, true},
                                              {"tenant", ColumnType::Long, "int", false, true}};
            TableSchema table(target, columns, {0}, {}, SchemaOrigin::Downstream);
            std::vector<std::vector<std::string>> indexes;
            for (const auto& index : downstreamIndexes) {
                std::vector<std::string> names;
                for (const auto& name : index.split(',', Qt::SkipEmptyParts)) {
                    names.push_back(name.toStdString());
                }
                indexes.push_back(names);
            }
            table.setDownstreamUniqueIndexes(indexes);
            return std::optional<TableSchema>(table);
        });
        std::vector<ColumnDef> columns{column("id", ColumnType::Long, true), column("email", ColumnType::VarChar),
                                       column("v")};
        auto schema = tracker.schemaFor(kUpstream, kTarget, columns);
        QStringList keys;
        for (const auto& key : schema->identifyingKeys()) {
            QStringList names;
            for (size_t position : key) {
                names << QString::fromStdString(schema->columns()[position].name);
            }
            keys << names.join(',');
        }
        QCOMPARE(keys, expectedKeys);
        QCOMPARE(schema->causalityByWholeTable(), wholeTable);
        QCOMPARE(keyNames(*schema), std::vector<std::string>{"id"});  // the row key is unchanged
    }

    void cachedSchemaIsReusedUntilTheTableMapChanges() {
        SchemaTracker tracker(nullptr);
        std::vector<ColumnDef> before{column("id", ColumnType::Long, true), column("v")};
        auto first = tracker.schemaFor(kUpstream, kTarget, before);
        QCOMPARE(tracker.schemaFor(kUpstream, kTarget, before).get(), first.get());
        auto after = before;
        after.push_back(column("added"));  // an ALTER TABLE ... ADD that the tracker did not see
        auto second = tracker.schemaFor(kUpstream, kTarget, after);
        QVERIFY(second.get() != first.get());
        QCOMPARE(second->columns().size(), size_t(3));
    }

    void tableWithoutPrimaryKeyTakesUniqueKeysFromTheDownstream() {
        SchemaTracker tracker([&](const TableName& target) {
            std::vector<SchemaColumn> columns{{"a", ColumnType::Long, "int", false, false},
                                              {"b", ColumnType::Long, "int", false, true}};
            return std::optional<TableSchema>(
                TableSchema(target, columns, {}, {UniqueKey{"uk_a", {0}}}, SchemaOrigin::Downstream));
        });
        auto schema = tracker.schemaFor(kUpstream, kTarget, {column("a", ColumnType::Long, false, false), column("b")});
        QCOMPARE(int(schema->rowKey().kind), int(RowKeyKind::UniqueKey));
        QCOMPARE(keyNames(*schema), std::vector<std::string>{"a"});
        QCOMPARE(int(schema->origin()), int(SchemaOrigin::TableMapAndDownstreamKeys));
    }

    void eventsWithoutNamesTakeTheDownstreamStructureAndReloadAfterDdl() {
        int lookups = 0;
        size_t downstreamColumns = 2;
        SchemaTracker tracker([&](const TableName& target) {
            ++lookups;
            std::vector<SchemaColumn> columns{{"id", ColumnType::Long, "int", false, false},
                                              {"v", ColumnType::Long, "int", false, true},
                                              {"w", ColumnType::Long, "int", false, true}};
            columns.resize(downstreamColumns);
            return std::optional<TableSchema>(TableSchema(target, columns, {0}, {}, SchemaOrigin::Downstream));
        });
        ColumnDef unnamed;
        unnamed.type = ColumnType::Long;
        std::vector<ColumnDef> two{unnamed, unnamed};
        auto schema = tracker.schemaFor(kUpstream, kTarget, two);
        QCOMPARE(lookups, 1);
        QCOMPARE(schema->columns()[1].name, std::string("v"));
        QCOMPARE(keyNames(*schema), std::vector<std::string>{"id"});
        tracker.schemaFor(kUpstream, kTarget, two);
        QCOMPARE(lookups, 1);  // cached

        // The DDL adds a column upstream and downstream; the syncer forgets the table after applying it.
        downstreamColumns = 3;
        tracker.forgetTable(kUpstream);
        QCOMPARE(tracker.cachedTables(), size_t(0));
        auto reloaded = tracker.schemaFor(kUpstream, kTarget, {unnamed, unnamed, unnamed});
        QCOMPARE(lookups, 2);
        QCOMPARE(reloaded->columns()[2].name, std::string("w"));
    }

    void eventsWithoutNamesAndAMismatchedDownstreamTableAreAClearError() {
        SchemaTracker tracker([&](const TableName& target) {
            std::vector<SchemaColumn> columns{{"id", ColumnType::Long, "int", false, false}};
            return std::optional<TableSchema>(TableSchema(target, columns, {0}, {}, SchemaOrigin::Downstream));
        });
        ColumnDef unnamed;
        unnamed.type = ColumnType::Long;
        try {
            tracker.schemaFor(kUpstream, kTarget, {unnamed, unnamed});
            QFAIL("a column count mismatch was accepted");
        } catch (const SchemaError& e) {
            std::string message = e.what();
            QVERIFY2(message.find("shop.orders have 2 columns") != std::string::npos, e.what());
            QVERIFY2(message.find("shop_copy.orders has 1") != std::string::npos, e.what());
        }
    }

    void eventsWithoutNamesAndNoDownstreamTableSayWhatToDo() {
        SchemaTracker tracker([](const TableName&) { return std::optional<TableSchema>(); });
        ColumnDef unnamed;
        unnamed.type = ColumnType::Long;
        try {
            tracker.schemaFor(kUpstream, kTarget, {unnamed});
            QFAIL("a table without names and without a downstream twin was accepted");
        } catch (const SchemaError& e) {
            QVERIFY2(std::string(e.what()).find("binlog_row_metadata=FULL") != std::string::npos, e.what());
        }
    }

    void forgetDatabaseDropsOnlyThatDatabase() {
        SchemaTracker tracker(nullptr);
        std::vector<ColumnDef> columns{column("id", ColumnType::Long, true)};
        tracker.schemaFor({"a", "t1"}, {"a", "t1"}, columns);
        tracker.schemaFor({"a", "t2"}, {"a", "t2"}, columns);
        tracker.schemaFor({"b", "t1"}, {"b", "t1"}, columns);
        tracker.forgetDatabase("a");
        QCOMPARE(tracker.cachedTables(), size_t(1));
    }

    void columnNamesMatchCaseInsensitively() {
        auto schema = TableSchema::fromTableMap(kTarget, {column("Id", ColumnType::Long, true)});
        QCOMPARE(schema->columnIndex("ID").value_or(99), size_t(0));
        QVERIFY(!schema->columnIndex("other").has_value());
    }
};

QTEST_GUILESS_MAIN(SchemaTrackerTest)
#include "test_schema_tracker.moc"
