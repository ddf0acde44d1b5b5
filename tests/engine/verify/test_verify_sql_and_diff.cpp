// The verifier's pure parts: the SQL of a composite-key chunk (ranges spelt out so every range
// optimizer uses them, every value a parameter), row matching by key (missing, extra, different with
// the columns named, NULL unlike ''), counts of equal rows for keyless tables, and repair SQL whose
// literals a mysql client reads back as the same values.
#include <QtTest>

#include "engine/verify/chunk_sql.h"
#include "engine/verify/repair_plan.h"
#include "engine/verify/row_diff.h"

using namespace syncscope;
using namespace syncscope::verify;

namespace {

schema::SchemaColumn column(const std::string& name, const std::string& typeName, bool nullable = true) {
    schema::SchemaColumn c;
    c.name = name;
    c.typeName = typeName;
    c.nullable = nullable;
    return c;
}

// order_lines (order_id INT, line_no SMALLINT, sku VARBINARY, amount DECIMAL, note TEXT), key (order_id, line_no).
ComparedTable orderLines(bool keyless = false) {
    std::vector<schema::SchemaColumn> columns{column("order_id", "int", false), column("line_no", "smallint", false),
                                              column("sku", "varbinary"), column("amount", "decimal"),
                                              column("note", "text")};
    std::vector<size_t> key = keyless ? std::vector<size_t>{} : std::vector<size_t>{0, 1};
    schema::TableSchema up({"shop", "order_lines"}, columns, key, {}, schema::SchemaOrigin::Downstream);
    schema::TableSchema down({"shop_copy", "lines"}, columns, key, {}, schema::SchemaOrigin::Downstream);
    return ComparedTable::plan(up, down);
}

RowValues row(std::initializer_list<std::optional<std::string>> values) {
    return RowValues(values);
}

}  // namespace

class VerifySqlAndDiffTest : public QObject {
    Q_OBJECT

private slots:
    void compositeKeyRangeIsSpeltOutWithBoundValues() {
        ComparedTable table = orderLines();
        ChunkSql sql(table);
        KeyRange range{row({"10", "2"}), row({"20", "1"})};
        BoundQuery query = sql.checksum(table.downstreamName(), range);
        QVERIFY2(
            query.sql.find("FROM `shop_copy`.`lines` WHERE ((`order_id` > ?) OR (`order_id` = ? AND `line_no` > ?)) "
                           "AND ((`order_id` < ?) OR (`order_id` = ? AND `line_no` <= ?))") != std::string::npos,
            query.sql.c_str());
        QCOMPARE(query.params.size(), size_t{6});
        QCOMPARE(query.params[0].kind(), apply::SqlValueKind::Signed);  // integers bound as integers
        QCOMPARE(query.params[0].asSigned(), int64_t{10});
        QCOMPARE(query.params[5].asSigned(), int64_t{1});
    }

    void firstAndLastChunksAreOpenEnded() {
        ComparedTable table = orderLines();
        ChunkSql sql(table);
        QVERIFY(sql.rowHashes(table.upstreamName(), KeyRange{}).sql.find("WHERE") == std::string::npos);
        // The upstream's first chunk: its rows in key order, as many as asked for (the limit is bound).
        BoundQuery first = sql.nextRowHashes(std::nullopt, 999);
        QVERIFY2(first.sql.find("WHERE") == std::string::npos, first.sql.c_str());
        QVERIFY2(first.sql.find("ORDER BY `order_id`, `line_no` LIMIT ?") != std::string::npos, first.sql.c_str());
        QCOMPARE(first.params.size(), size_t{1});
        QCOMPARE(first.params[0].asUnsigned(), uint64_t{999});
        // Where chunks are equal, the upstream's chunk ends where a walk of the key says.
        BoundQuery boundary = sql.boundary(std::nullopt, 999);
        QVERIFY2(boundary.sql.find("ORDER BY `order_id`, `line_no` LIMIT 1 OFFSET 999") != std::string::npos,
                 boundary.sql.c_str());
    }

    void partChecksumsReadEachPartByItsRangeInOneStatement() {
        ComparedTable table = orderLines();
        ChunkSql sql(table);
        // Three parts covering an open first chunk: no lower bound on the first, no upper on the last.
        std::vector<KeyRange> parts{KeyRange{std::nullopt, row({"5", "0"})}, KeyRange{row({"5", "0"}), row({"9", "1"})},
                                    KeyRange{row({"9", "1"}), std::nullopt}};
        BoundQuery query = sql.partChecksums(table.downstreamName(), parts);
        QVERIFY2(query.sql.rfind("SELECT 0, COUNT(*), ", 0) == 0, query.sql.c_str());
        QVERIFY2(query.sql.find(" UNION ALL SELECT 1, COUNT(*), ") != std::string::npos, query.sql.c_str());
        QVERIFY2(query.sql.find(" UNION ALL SELECT 2, COUNT(*), ") != std::string::npos, query.sql.c_str());
        QVERIFY2(query.sql.find("GROUP BY") == std::string::npos, query.sql.c_str());
        QCOMPARE(query.params.size(), size_t{3 + 3 + 3 + 3});  // each bound of a 2-column key: 3 values
        QCOMPARE(query.params[0].asSigned(), int64_t{5});
        QCOMPARE(query.params.back().asSigned(), int64_t{1});
    }

    void differingPartsAreListedInOneStatementByTheirRangesInKeyOrder() {
        ComparedTable table = orderLines();
        ChunkSql sql(table);
        // The first part of an open chunk, one in the middle and the last, open above.
        std::vector<KeyRange> parts{KeyRange{std::nullopt, row({"5", "0"})}, KeyRange{row({"7", "0"}), row({"9", "1"})},
                                    KeyRange{row({"12", "3"}), std::nullopt}};
        BoundQuery query = sql.rowHashes(table.upstreamName(), parts);
        QVERIFY2(
            query.sql.find("FROM `shop`.`order_lines` WHERE (((`order_id` < ?) OR (`order_id` = ? AND "
                           "`line_no` <= ?))) OR (((`order_id` > ?) OR (`order_id` = ? AND `line_no` > ?)) AND "
                           "((`order_id` < ?) OR (`order_id` = ? AND `line_no` <= ?))) OR (((`order_id` > ?) OR "
                           "(`order_id` = ? AND `line_no` > ?))) ORDER BY `order_id`, `line_no`") != std::string::npos,
            query.sql.c_str());
        QCOMPARE(query.params.size(), size_t{3 + 3 + 3 + 3});
        QCOMPARE(query.params[0].asSigned(), int64_t{5});
        QCOMPARE(query.params[3].asSigned(), int64_t{7});
        QCOMPARE(query.params[6].asSigned(), int64_t{9});
        QCOMPARE(query.params[9].asSigned(), int64_t{12});
        QCOMPARE(query.params.back().asSigned(), int64_t{3});
        // One range: the same statement as the single-range listing.
        QCOMPARE(sql.rowHashes(table.upstreamName(), std::span<const KeyRange>(parts.data() + 1, 1)).sql,
                 sql.rowHashes(table.upstreamName(), parts[1]).sql);
        // A range open both ways covers the table; no range lists no row (never the whole table).
        std::vector<KeyRange> whole{parts[1], KeyRange{}};
        QVERIFY(sql.rowHashes(table.upstreamName(), whole).sql.find("WHERE") == std::string::npos);
        BoundQuery none = sql.rowHashes(table.upstreamName(), std::span<const KeyRange>());
        QVERIFY2(none.sql.find("WHERE 1 = 0 ORDER BY") != std::string::npos, none.sql.c_str());
        QVERIFY(none.params.empty());
    }

    void suspectsAreReadInOneStatementOfLookupsPaddedToAPowerOfTwo_data() {
        QTest::addColumn<bool>("lock");
        QTest::addRow("upstream: every lookup a shared locking read") << true;
        QTest::addRow("downstream: plain reads") << false;
    }

    void suspectsAreReadInOneStatementOfLookupsPaddedToAPowerOfTwo() {
        QFETCH(bool, lock);
        ComparedTable table = orderLines();
        std::vector<RowValues> keys{row({"1", "1"}), row({"2", "7"}), row({"30", "2"})};
        BoundQuery query = ChunkSql(table).rowsByKeys(table.upstreamName(), keys, lock);
        // Four lookups (three keys, the last repeated), each the single-row lookup led by its position.
        const std::string tail = lock ? " LOCK IN SHARE MODE)" : ")";
        for (int i = 0; i < 4; ++i) {
            const std::string lookup =
                std::string(i == 0 ? "(SELECT " : " UNION ALL (SELECT ") + std::to_string(i) +
                ", CAST(`order_id` AS CHAR), CAST(`line_no` AS CHAR), `sku`, CAST(`amount` AS CHAR), `note` "
                "FROM "
                "`shop`.`order_lines` WHERE `order_id` = ? AND `line_no` = ?" +
                tail;
            QVERIFY2(query.sql.find(lookup) != std::string::npos, query.sql.c_str());
        }
        QVERIFY2(query.sql.find("UNION ALL (SELECT 4,") == std::string::npos, query.sql.c_str());
        QCOMPARE(query.sql.find("LOCK IN SHARE MODE") != std::string::npos, lock);
        QCOMPARE(query.params.size(), size_t{8});
        QCOMPARE(query.params[2].asSigned(), int64_t{2});
        QCOMPARE(query.params[3].asSigned(), int64_t{7});
        QCOMPARE(query.params[6].asSigned(), int64_t{30});  // the padding repeats the last key
        QCOMPARE(query.params[7].asSigned(), int64_t{2});
        QVERIFY(ChunkSql(table).rowsByKeys(table.upstreamName(), {}, lock).sql.empty());
    }

    void decimalKeysAreComparedAsDecimals() {
        schema::TableSchema prices({"shop", "prices"}, {column("price", "decimal", false), column("label", "varchar")},
                                   {0}, {}, schema::SchemaOrigin::Downstream);
        ComparedTable table = ComparedTable::plan(prices, prices);
        BoundQuery query = ChunkSql(table).rowByKey(table.upstreamName(), row({"1.10"}), true);
        QVERIFY2(query.sql.find("`price` = CAST(? AS DECIMAL(65,30)) LOCK IN SHARE MODE") != std::string::npos,
                 query.sql.c_str());
    }

    void rowsAreMatchedByKey_data() {
        QTest::addColumn<std::vector<RowValues>>("upstream");
        QTest::addColumn<std::vector<RowValues>>("downstream");
        QTest::addColumn<QStringList>("expected");  // kind + differing columns
        QTest::addRow("equal rows give nothing")
            << std::vector<RowValues>{row({"1", "0", "a", "1.00", "x"})}
            << std::vector<RowValues>{row({"1", "0", "a", "1.00", "x"})} << QStringList{};
        QTest::addRow("a row only upstream is missing")
            << std::vector<RowValues>{row({"1", "0", "a", "1.00", "x"}), row({"1", "1", "b", "2.00", "y"})}
            << std::vector<RowValues>{row({"1", "0", "a", "1.00", "x"})} << QStringList{"missing"};
        QTest::addRow("a row only downstream is extra")
            << std::vector<RowValues>{} << std::vector<RowValues>{row({"9", "9", "z", "0.00", std::nullopt})}
            << QStringList{"extra"};
        QTest::addRow("NULL is not the empty string")
            << std::vector<RowValues>{row({"1", "0", "a", "1.00", std::nullopt})}
            << std::vector<RowValues>{row({"1", "0", "a", "1.00", ""})} << QStringList{"different note"};
        QTest::addRow("bytes differ in one column")
            << std::vector<RowValues>{row({"1", "0", std::string("\0\1", 2), "1.00", "x"})}
            << std::vector<RowValues>{row({"1", "0", std::string("\0\2", 2), "1.00", "x"})}
            << QStringList{"different sku"};
        QTest::addRow("keys match byte for byte: 01 is not 1")
            << std::vector<RowValues>{row({"1", "0", "a", "1.00", "x"})}
            << std::vector<RowValues>{row({"01", "0", "a", "1.00", "x"})} << QStringList{"missing", "extra"};
    }

    void rowsAreMatchedByKey() {
        QFETCH(std::vector<RowValues>, upstream);
        QFETCH(std::vector<RowValues>, downstream);
        QFETCH(QStringList, expected);
        QStringList found;
        for (const auto& difference : diffRows(orderLines(), upstream, downstream)) {
            QString text = differenceKindName(difference.kind);
            for (const auto& name : difference.differingColumns) {
                text += " " + QString::fromStdString(name);
            }
            found << text;
        }
        QCOMPARE(found, expected);
    }

    void rowHashFlagsNullOnlyWhereASideAllowsIt() {
        // order_id and line_no are NOT NULL on both sides: no flag; sku, amount and note may be NULL.
        std::string sql = ChunkSql(orderLines()).checksum({"shop", "order_lines"}, KeyRange{}).sql;
        QVERIFY2(sql.find("CONCAT(ISNULL(`sku`), ISNULL(`amount`), ISNULL(`note`))") != std::string::npos, sql.c_str());
        QVERIFY2(sql.find("ISNULL(`order_id`)") == std::string::npos, sql.c_str());
        // NOT NULL upstream but nullable downstream: the flag stays, on both sides' identical text.
        schema::TableSchema up({"shop", "t"}, {column("id", "int", false), column("v", "varchar", false)}, {0}, {},
                               schema::SchemaOrigin::Downstream);
        schema::TableSchema down({"shop", "t"}, {column("id", "int", false), column("v", "varchar", true)}, {0}, {},
                                 schema::SchemaOrigin::Downstream);
        ComparedTable table = ComparedTable::plan(up, down);
        sql = ChunkSql(table).rowHashes(table.upstreamName(), KeyRange{}).sql;
        QVERIFY2(sql.find("CRC32(CONCAT_WS('#', `id`, `v`, CONCAT(ISNULL(`v`))))") != std::string::npos, sql.c_str());
    }

    void rowHashesFindTheKeysThatDiffer_data() {
        QTest::addColumn<std::vector<RowValues>>("upstream");  // key columns, then the row's hash
        QTest::addColumn<std::vector<RowValues>>("downstream");
        QTest::addColumn<QStringList>("expected");  // kind and key
        QTest::addRow("equal lists give nothing")
            << std::vector<RowValues>{row({"1", "0", "11"}), row({"1", "1", "12"})}
            << std::vector<RowValues>{row({"1", "0", "11"}), row({"1", "1", "12"})} << QStringList{};
        QTest::addRow("a hash that differs is a different row")
            << std::vector<RowValues>{row({"1", "0", "11"}), row({"1", "1", "12"})}
            << std::vector<RowValues>{row({"1", "0", "11"}), row({"1", "1", "99"})} << QStringList{"different 1/1"};
        QTest::addRow("a key only upstream is missing, after the lists part")
            << std::vector<RowValues>{row({"1", "0", "11"}), row({"1", "1", "12"}), row({"2", "0", "13"})}
            << std::vector<RowValues>{row({"1", "0", "11"}), row({"2", "0", "13"})} << QStringList{"missing 1/1"};
        QTest::addRow("a key only downstream is extra, in the downstream's order")
            << std::vector<RowValues>{row({"1", "0", "11"})}
            << std::vector<RowValues>{row({"0", "5", "10"}), row({"1", "0", "11"}), row({"3", "0", "14"})}
            << QStringList{"extra 0/5", "extra 3/0"};
        QTest::addRow("keys match byte for byte: 01 is not 1")
            << std::vector<RowValues>{row({"1", "0", "11"})} << std::vector<RowValues>{row({"01", "0", "11"})}
            << QStringList{"missing 1/0", "extra 01/0"};
        QTest::addRow("keys do not run together: (1, 23) is not (12, 3)")
            << std::vector<RowValues>{row({"1", "23", "11"})} << std::vector<RowValues>{row({"12", "3", "11"})}
            << QStringList{"missing 1/23", "extra 12/3"};
        QTest::addRow("integer keys merge in numeric order: 9 before 10, -2 before -1")
            << std::vector<RowValues>{row({"-2", "0", "1"}), row({"9", "0", "2"}), row({"10", "0", "3"}),
                                      row({"10", "1", "4"})}
            << std::vector<RowValues>{row({"-1", "0", "5"}), row({"9", "0", "2"}), row({"10", "1", "9"}),
                                      row({"100", "0", "6"})}
            << QStringList{"missing -2/0", "missing 10/0", "different 10/1", "extra -1/0", "extra 100/0"};
        QTest::addRow("text keys are matched, not merged")
            << std::vector<RowValues>{row({"b", "0", "1"}), row({"a", "0", "2"})}
            << std::vector<RowValues>{row({"a", "0", "2"}), row({"c", "0", "3"})}
            << QStringList{"missing b/0", "extra c/0"};
        QTest::addRow("a NULL key value is not the text NULL")
            << std::vector<RowValues>{row({"1", std::nullopt, "11"})} << std::vector<RowValues>{row({"1", "N", "11"})}
            << QStringList{"missing 1/-", "extra 1/N"};
    }

    void rowHashesFindTheKeysThatDiffer() {
        QFETCH(std::vector<RowValues>, upstream);
        QFETCH(std::vector<RowValues>, downstream);
        QFETCH(QStringList, expected);
        QStringList found;
        for (const auto& suspect : diffRowHashes(upstream, downstream)) {
            QStringList key;
            for (const auto& value : suspect.key) {
                key << (value ? QString::fromStdString(*value) : QString("-"));
            }
            found << QString(differenceKindName(suspect.kind)) + " " + key.join('/');
        }
        QCOMPARE(found, expected);
    }

    void keylessTablesCompareCountsOfEqualRows() {
        ComparedTable table = orderLines(true);
        std::vector<RowValues> up{row({"1", "0", "a", "1.00", "x", "3"}),
                                  row({"2", "0", "b", "1.00", std::nullopt, "1"})};
        std::vector<RowValues> down{row({"1", "0", "a", "1.00", "x", "2"}), row({"2", "0", "b", "1.00", "", "1"})};
        auto differences = diffRowCounts(table, up, down);
        QCOMPARE(differences.size(), size_t{3});
        QCOMPARE(differences[0].kind, DifferenceKind::Missing);  // one copy of row 1 and the NULL row
        QCOMPARE(differences[0].count, uint64_t{1});
        QCOMPARE(differences[2].kind, DifferenceKind::Extra);  // the '' row
    }

    void repairSqlHasReadableLiterals() {
        ComparedTable table = orderLines();
        RowDifference missing;
        missing.kind = DifferenceKind::Missing;
        missing.key = row({"7", "1"});
        missing.upstreamRow = row({"7", "1", std::string("\0\xff", 2), "3.50", "it's a \\ test"});
        RowDifference extra;
        extra.kind = DifferenceKind::Extra;
        extra.key = row({"8", "0"});
        extra.downstreamRow = row({"8", "0", "", std::nullopt, std::nullopt});
        RepairPlan plan(table, {missing, extra});
        QCOMPARE(plan.statements().size(), size_t{2});
        std::string sql = plan.sqlText();
        QVERIFY2(sql.find("VALUES (7, 1, 0x00FF, '3.50', 'it''s a \\\\ test');") != std::string::npos, sql.c_str());
        QVERIFY2(
            sql.find("DELETE FROM `shop_copy`.`lines` WHERE `order_id` = 8 AND `line_no` = 0") != std::string::npos,
            sql.c_str());
    }
};

QTEST_GUILESS_MAIN(VerifySqlAndDiffTest)
#include "test_verify_sql_and_diff.moc"
