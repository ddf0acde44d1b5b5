// KeyValueChunks: a one-column integer key cut by value covers every key once (chunks and their parts
// meet without gap or overlap, the first open below and the last open above), bounds how many rows a
// chunk can hold, and keeps signed and unsigned keys exact at their types' ends.
#include <QtTest>

#include <limits>

#include "engine/verify/chunk_sql.h"
#include "engine/verify/key_value_chunks.h"
#include "engine/verify/verify_error.h"

using namespace syncscope;
using namespace syncscope::verify;

namespace {

schema::SchemaColumn column(const std::string& name, const std::string& typeName, bool isUnsigned = false) {
    schema::SchemaColumn c;
    c.name = name;
    c.typeName = typeName;
    c.nullable = false;
    c.isUnsigned = isUnsigned;
    return c;
}

ComparedTable tableKeyedBy(std::vector<schema::SchemaColumn> keyColumns) {
    std::vector<size_t> key;
    for (size_t i = 0; i < keyColumns.size(); ++i) {
        key.push_back(i);
    }
    keyColumns.push_back(column("note", "varchar"));
    schema::TableSchema up({"db", "t"}, keyColumns, key, {}, schema::SchemaOrigin::Downstream);
    return ComparedTable::plan(up, up);
}

std::optional<int64_t> bound(const std::optional<RowValues>& key) {
    if (!key) {
        return std::nullopt;
    }
    return std::stoll(*key->front());
}

// Every chunk's range and parts, checking that they meet; returns the chunks.
std::vector<KeyRange> allChunks(KeyValueChunks& chunks, size_t rows, size_t parts) {
    std::vector<KeyRange> ranges;
    while (auto range = chunks.next(rows)) {
        std::vector<KeyRange> split = chunks.parts(parts);
        [&] {
            QVERIFY(!split.empty());
            QVERIFY(split.size() <= parts);
            QCOMPARE(bound(split.front().lower), bound(range->lower));
            QCOMPARE(bound(split.back().upper), bound(range->upper));
            for (size_t i = 1; i < split.size(); ++i) {
                QVERIFY(split[i - 1].upper && split[i].lower);
                QCOMPARE(bound(split[i].lower), bound(split[i - 1].upper));
                QVERIFY(*bound(split[i].lower) > (split[i - 1].lower ? *bound(split[i - 1].lower) : INT64_MIN));
            }
        }();
        if (!ranges.empty()) {
            [&] {
                QVERIFY(ranges.back().upper && range->lower);
                QCOMPARE(bound(range->lower), bound(ranges.back().upper));
            }();
        }
        ranges.push_back(*range);
        chunks.observed(rows);
        if (ranges.size() > 100000) {
            break;
        }
    }
    return ranges;
}

}  // namespace

class KeyValueChunksTest : public QObject {
    Q_OBJECT

private slots:
    void onlyAOneColumnIntegerKeyIsCutByValue() {
        QVERIFY(KeyValueChunks::applies(tableKeyedBy({column("id", "int")})));
        QVERIFY(KeyValueChunks::applies(tableKeyedBy({column("id", "bigint", true)})));
        QVERIFY(!KeyValueChunks::applies(tableKeyedBy({column("a", "int"), column("b", "int")})));
        QVERIFY(!KeyValueChunks::applies(tableKeyedBy({column("code", "varchar")})));
        QVERIFY(!KeyValueChunks::applies(tableKeyedBy({column("amount", "decimal")})));
    }

    void chunksCoverTheKeysOnceOpenAtBothEnds_data() {
        QTest::addColumn<int64_t>("lowest");
        QTest::addColumn<int64_t>("highest");
        QTest::addColumn<uint64_t>("estimate");
        QTest::addColumn<uint64_t>("rows");
        QTest::addColumn<int>("parts");
        QTest::addRow("dense 1..1000 by 100") << int64_t{1} << int64_t{1000} << uint64_t{1000} << uint64_t{100} << 64;
        QTest::addRow("one key") << int64_t{7} << int64_t{7} << uint64_t{1} << uint64_t{100} << 64;
        QTest::addRow("negative keys") << int64_t{-500} << int64_t{499} << uint64_t{1000} << uint64_t{128} << 7;
        QTest::addRow("half the values used") << int64_t{0} << int64_t{9999} << uint64_t{5000} << uint64_t{1000} << 64;
        QTest::addRow("chunks narrower than parts") << int64_t{1} << int64_t{20} << uint64_t{20} << uint64_t{3} << 64;
        QTest::addRow("bigint's ends") << std::numeric_limits<int64_t>::min() << std::numeric_limits<int64_t>::max()
                                       << std::numeric_limits<uint64_t>::max() << (uint64_t{1} << 62) << 4;
    }

    void chunksCoverTheKeysOnceOpenAtBothEnds() {
        QFETCH(int64_t, lowest);
        QFETCH(int64_t, highest);
        QFETCH(uint64_t, estimate);
        QFETCH(uint64_t, rows);
        QFETCH(int, parts);
        KeyValueChunks chunks(tableKeyedBy({column("id", "bigint")}), std::to_string(lowest), std::to_string(highest),
                              estimate);
        QVERIFY(chunks.dense());
        std::vector<KeyRange> ranges = allChunks(chunks, static_cast<size_t>(rows), static_cast<size_t>(parts));
        if (QTest::currentTestFailed()) {
            return;
        }
        QVERIFY(!ranges.empty());
        QVERIFY(!ranges.front().lower);  // rows below the upstream's lowest key are compared too
        QVERIFY(!ranges.back().upper);   // and rows past its highest
        if (ranges.size() > 1) {
            QVERIFY(*bound(ranges.front().upper) >= lowest);
            QVERIFY(*bound(ranges.back().lower) < highest);
        }
        QVERIFY(!chunks.next(static_cast<size_t>(rows)));
        QCOMPARE(chunks.chunksLeft(static_cast<size_t>(rows)), uint64_t{0});
    }

    void unsignedKeysAreExactUpToTheirHighestValue() {
        const uint64_t top = std::numeric_limits<uint64_t>::max();
        KeyValueChunks chunks(tableKeyedBy({column("id", "bigint", true)}), std::to_string(top - 9),
                              std::to_string(top), 10);
        auto first = chunks.next(4);
        QVERIFY(first && !first->lower);
        QCOMPARE(*first->upper->front(), std::to_string(top - 6));
        auto second = chunks.next(4);
        QVERIFY(second);
        QCOMPARE(*second->lower->front(), std::to_string(top - 6));
        QCOMPARE(*second->upper->front(), std::to_string(top - 2));
        auto last = chunks.next(4);
        QVERIFY(last && !last->upper);
        QCOMPARE(*last->lower->front(), std::to_string(top - 2));
        std::vector<KeyRange> parts = chunks.parts(64);
        QCOMPARE(parts.size(), size_t{2});  // top - 1 and top: no value past the type's highest
        QCOMPARE(*parts[0].upper->front(), std::to_string(top - 1));
        QVERIFY(!parts.back().upper);
        QVERIFY(!chunks.next(4));
    }

    void aChunkSpansAtMostFourValuesPerRowItAimsAt() {
        // The estimate says dense, the keys are not: however sparse they turn out, a chunk spans at most
        // kMaxValuesPerRow values per row, so were the next stretch dense it would hold at most 4x the rows.
        KeyValueChunks chunks(tableKeyedBy({column("id", "int")}), "1", "100000000", 100000000);
        for (int i = 0; i < 50; ++i) {
            auto range = chunks.next(1000);
            QVERIFY(range);
            if (range->lower) {
                QVERIFY(*bound(range->upper) - *bound(range->lower) <= int64_t{4000});
            }
            chunks.observed(0);
        }
        // Back in a dense stretch, the width shrinks towards the rows aimed at.
        for (int i = 0; i < 20; ++i) {
            auto range = chunks.next(1000);
            chunks.observed(*bound(range->upper) - *bound(range->lower));
        }
        auto range = chunks.next(1000);
        QVERIFY(*bound(range->upper) - *bound(range->lower) <= int64_t{1010});
    }

    void aChunkComparedAfterLaterOnesWereGivenCountsByItsOwnWidth() {
        // Two chunks are in flight: the first is observed once the second was given, wider. Its density
        // (1 row per value) must be reckoned from its own width, not the second's.
        KeyValueChunks late(tableKeyedBy({column("id", "int")}), "1", "100000000", 100000000);
        KeyValueChunks inOrder(tableKeyedBy({column("id", "int")}), "1", "100000000", 100000000);
        auto first = late.next(1000);
        const uint64_t firstWidth = late.width();
        QCOMPARE(firstWidth, uint64_t{1000});
        late.next(4000);
        QCOMPARE(late.width(), uint64_t{4000});
        late.observed(1000, firstWidth);
        inOrder.next(1000);
        inOrder.observed(1000);
        inOrder.next(4000);
        auto fromLate = late.next(2000);
        auto fromInOrder = inOrder.next(2000);
        QCOMPARE(*bound(fromLate->upper) - *bound(fromLate->lower), int64_t{2000});
        QCOMPARE(*bound(fromInOrder->upper) - *bound(fromInOrder->lower), int64_t{2000});
        QVERIFY(first);
    }

    void sparseKeysAreWalkedInstead() {
        // 1,000 rows over a million values: cut by value, chunks would hold a quarter of their rows at most.
        KeyValueChunks sparse(tableKeyedBy({column("id", "int")}), "1", "1000000", 1000);
        QVERIFY(!sparse.dense());
        KeyValueChunks quarter(tableKeyedBy({column("id", "int")}), "1", "4000", 1000);
        QVERIFY(quarter.dense());
    }

    void anEmptyTableIsOneChunkOpenBothWays() {
        KeyValueChunks chunks(tableKeyedBy({column("id", "int")}), std::nullopt, std::nullopt, 0);
        QVERIFY(chunks.dense());
        auto range = chunks.next(1000);
        QVERIFY(range && !range->lower && !range->upper);
        QCOMPARE(chunks.parts(64).size(), size_t{1});
        QVERIFY(!chunks.next(1000));
    }

    void keyExtremesAreReadFromTheIndexEnds() {
        ComparedTable table = tableKeyedBy({column("id", "int")});
        QCOMPARE(ChunkSql(table).keyExtremes().sql, std::string("SELECT MIN(`id`), MAX(`id`) FROM `db`.`t`"));
        ComparedTable bits = tableKeyedBy({column("flags", "bit")});
        QCOMPARE(ChunkSql(bits).keyExtremes().sql,
                 std::string("SELECT CAST(MIN(`flags`) AS UNSIGNED), CAST(MAX(`flags`) AS UNSIGNED) FROM `db`.`t`"));
    }

    void aKeyThatIsNoIntegerIsAnError() {
        QVERIFY_THROWS_EXCEPTION(VerifyError, KeyValueChunks(tableKeyedBy({column("id", "int")}), "1x", "10", 10));
        QVERIFY_THROWS_EXCEPTION(VerifyError,
                                 KeyValueChunks(tableKeyedBy({column("id", "int", true)}), "-1", "10", 10));
    }
};

QTEST_GUILESS_MAIN(KeyValueChunksTest)
#include "test_key_value_chunks.moc"
