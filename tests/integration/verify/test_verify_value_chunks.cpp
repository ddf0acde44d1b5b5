// Chunks cut by key value, each server working through its own queue (ValueChunkPipeline): on the test
// pair, differences at every place a gap or overlap between chunks or parts, or a weak row hash, would
// hide them (the first and last keys, rows beyond either end, both sides of every chunk boundary, NULL
// against '', a value moved across a column boundary, values swapped between two rows) are all found, exactly, in
// order, with many small chunks in flight and suspects confirmed in batches in the middle of the table; and every row
// of a stretch longer than a chunk, so that a key left out between two chunks, parts or sub-parts is noticed. Differing
// parts are checksummed again in sub-parts before they are listed (all of them, some of them by size, or none).
#include <QtTest>

#include <algorithm>
#include <set>

#include "engine/verify/task_verifier.h"
#include "tests/integration/outage/outage_helpers.h"

using namespace syncscope;
using namespace syncscope::test;

namespace {
constexpr int kRows = 6000;
constexpr size_t kChunkRows = 500;   // 12 chunks and more, so several are in flight one after another
constexpr int kFirstKey = -3000;     // a signed key crossing zero
constexpr int kStretchFirst = 1100;  // every row from here to kStretchLast differs
constexpr int kStretchLast = 1799;
}  // namespace

class VerifyValueChunksTest : public QObject {
    Q_OBJECT

private:
    // The differences made downstream, as "kind key".
    std::set<std::string> injected_;

    void downstream(const std::string& sql) {
        auto down = connectTo(downstreamRoot());
        down->execute("SET SESSION sql_log_bin = 0");
        down->execute(sql);
    }

private slots:
    void initTestCase() {
        auto up = connectTo(upstreamRoot());
        auto down = connectTo(downstreamRoot());
        for (auto* side : {up.get(), down.get()}) {
            side->execute("SET SESSION sql_log_bin = 0");
            side->execute("DROP DATABASE IF EXISTS verify_value");
            side->execute("CREATE DATABASE verify_value");
            side->execute(
                "CREATE TABLE verify_value.t (id INT PRIMARY KEY, a VARCHAR(20) NULL, b VARCHAR(20) NOT NULL, "
                "pad CHAR(40) NOT NULL)");
            side->execute("INSERT INTO verify_value.t SELECT CAST(seq AS SIGNED) + " + std::to_string(kFirstKey - 1) +
                          ", CONCAT('a', seq), CONCAT('b', seq), MD5(seq) FROM verify_value.seq_1_to_" +
                          std::to_string(kRows));
        }
        const int lastKey = kFirstKey + kRows - 1;
        // The first and the last key, missing downstream.
        downstream("DELETE FROM verify_value.t WHERE id IN (" + std::to_string(kFirstKey) + ", " +
                   std::to_string(lastKey) + ")");
        injected_.insert("missing " + std::to_string(kFirstKey));
        injected_.insert("missing " + std::to_string(lastKey));
        // Rows only the downstream has, below the lowest and above the highest upstream key.
        downstream("INSERT INTO verify_value.t VALUES (" + std::to_string(kFirstKey - 1000) + ", 'x', 'x', 'x'), (" +
                   std::to_string(lastKey + 1) + ", 'x', 'x', 'x'), (2147483647, 'x', 'x', 'x')");
        injected_.insert("extra " + std::to_string(kFirstKey - 1000));
        injected_.insert("extra " + std::to_string(lastKey + 1));
        injected_.insert("extra 2147483647");
        // Both sides of many key values a chunk or part boundary may fall on (every 250th key and its
        // neighbour): changed in turn by NULL against '', a value moved across the column boundary, and
        // the CHAR column.
        int turn = 0;
        for (int key = kFirstKey + 250; key < lastKey - 1; key += 250) {
            if (key + 1 >= kStretchFirst && key <= kStretchLast) {
                continue;
            }
            for (int id : {key, key + 1}) {
                const std::string where = " WHERE id = " + std::to_string(id);
                switch (turn++ % 3) {
                    case 0:  // '' upstream, NULL downstream: NULL must differ from ''
                        up->execute("UPDATE verify_value.t SET a = ''" + where);
                        downstream("UPDATE verify_value.t SET a = NULL" + where);
                        break;
                    case 1:  // ('aN', 'bN') -> ('aNb', 'N'): the same characters across the boundary
                        downstream("UPDATE verify_value.t SET a = CONCAT(a, 'b'), b = SUBSTRING(b, 2)" + where);
                        break;
                    default:
                        downstream("UPDATE verify_value.t SET pad = CONCAT(pad, ' x')" + where);
                        break;
                }
                injected_.insert("different " + std::to_string(id));
            }
        }
        // Every row of a stretch longer than a chunk: a key left out between two parts or chunks, wherever
        // they are cut, leaves a difference unfound.
        downstream("UPDATE verify_value.t SET b = CONCAT(b, '!') WHERE id BETWEEN " + std::to_string(kStretchFirst) +
                   " AND " + std::to_string(kStretchLast));
        for (int id = kStretchFirst; id <= kStretchLast; ++id) {
            injected_.insert("different " + std::to_string(id));
        }
        // Values swapped between two rows of equal lengths, alone in their part: under a plain BIT_XOR of CRC32s
        // the two changes cancel out in the part's checksum (ChunkSql::kRowHashMix).
        const int swapped = kFirstKey + 3 * 250 + 100;
        auto seqOf = [](int id) { return std::to_string(id - kFirstKey + 1); };
        downstream("UPDATE verify_value.t SET pad = IF(id = " + std::to_string(swapped) + ", MD5(" +
                   seqOf(swapped + 1) + "), MD5(" + seqOf(swapped) + ")) WHERE id IN (" + std::to_string(swapped) +
                   ", " + std::to_string(swapped + 1) + ")");
        injected_.insert("different " + std::to_string(swapped));
        injected_.insert("different " + std::to_string(swapped + 1));
        // NULL against '' the other way round: '' downstream where the upstream has NULL.
        up->execute("UPDATE verify_value.t SET a = NULL WHERE id = 7");
        downstream("UPDATE verify_value.t SET a = '' WHERE id = 7");
        injected_.insert("different 7");
    }

    void everyDifferenceIsFoundExactly_data() {
        QTest::addColumn<size_t>("parts");
        QTest::addColumn<size_t>("spreadParts");  // after a chunk that differed in more than one part
        QTest::addColumn<size_t>("confirmRows");
        QTest::addColumn<size_t>("subParts");        // of a differing part, checksummed before listing
        QTest::addColumn<size_t>("subPartMinRows");  // only parts with more rows than this
        QTest::addRow("64 parts, 128 where spread, suspects confirmed 7 at a time mid-table, no sub-parts")
            << size_t{64} << size_t{128} << size_t{7} << size_t{1} << size_t{0};
        QTest::addRow("64 parts, 128 where spread, every differing part in 8 sub-parts, confirmed 7 at a time")
            << size_t{64} << size_t{128} << size_t{7} << size_t{8} << size_t{0};
        QTest::addRow("4 parts, 3 where spread, 3 sub-parts each, suspects confirmed at the table's end")
            << size_t{4} << size_t{3} << size_t{100000} << size_t{3} << size_t{0};
        QTest::addRow("16 parts, parts of more than 30 rows in 4 sub-parts, the others listed whole")
            << size_t{16} << size_t{16} << size_t{5} << size_t{4} << size_t{30};
        QTest::addRow("2 parts, 5 where spread, confirmed 3 at a time, no sub-parts")
            << size_t{2} << size_t{5} << size_t{3} << size_t{1} << size_t{0};
        QTest::addRow("one part per chunk, in 7 sub-parts")
            << size_t{1} << size_t{1} << size_t{3} << size_t{7} << size_t{0};
    }

    void everyDifferenceIsFoundExactly() {
        QFETCH(size_t, parts);
        QFETCH(size_t, spreadParts);
        QFETCH(size_t, confirmRows);
        QFETCH(size_t, subParts);
        QFETCH(size_t, subPartMinRows);
        verify::VerifySettings settings;
        settings.differingPartSubParts = subParts;
        settings.subPartMinRows = subPartMinRows;
        settings.firstChunkRows = settings.minChunkRows = kChunkRows;
        settings.maxValueChunkRows = kChunkRows;
        settings.chunkParts = parts;
        settings.spreadDifferenceParts = spreadParts;
        settings.confirmRows = confirmRows;
        verify::NoRunningTask noTask;
        verify::VerifyTarget target;
        target.upstream = engineSettings(upstreamRoot());
        target.downstream = engineSettings(downstreamRoot());
        target.blockAllow =
            std::make_shared<filter::BlockAllowList>(filter::BlockAllowRules{{"verify_value"}, {}, {}, {}}, false);
        verify::TaskVerifier verifier(target, settings, noTask);
        uint64_t progressCalls = 0;
        verifier.setProgressHandler([&](size_t, size_t, const verify::TableVerifyResult&) { ++progressCalls; });
        verify::VerifyReport report = verifier.run();
        QCOMPARE(report.tables.size(), size_t{1});
        const verify::TableVerifyResult& table = report.tables.front();
        QVERIFY2(table.outcome == verify::TableOutcome::Different, table.problem.c_str());
        QVERIFY2(table.chunksDone >= kRows / kChunkRows / 2, std::to_string(table.chunksDone).c_str());
        QCOMPARE(table.rowsCompared, uint64_t{kRows});  // the upstream's rows, each once
        QCOMPARE(table.rowsInFlight, uint64_t{0});
        QVERIFY(progressCalls > table.chunksDone);
        std::set<std::string> found;
        for (const auto& difference : table.differences) {
            QVERIFY2(found
                         .insert(std::string(verify::differenceKindName(difference.kind)) + " " +
                                 difference.key.front().value_or("NULL"))
                         .second,
                     "a row reported twice");
        }
        if (found != injected_) {
            std::string diff;
            for (const auto& item : injected_) {
                diff += found.count(item) ? "" : "not found: " + item + "\n";
            }
            for (const auto& item : found) {
                diff += injected_.count(item) ? "" : "not injected: " + item + "\n";
            }
            QFAIL(diff.c_str());
        }
    }

    void cleanupTestCase() {
        auto up = connectTo(upstreamRoot());
        auto down = connectTo(downstreamRoot());
        for (auto* side : {up.get(), down.get()}) {
            side->execute("SET SESSION sql_log_bin = 0");
            side->execute("DROP DATABASE IF EXISTS verify_value");
        }
    }
};

QTEST_GUILESS_MAIN(VerifyValueChunksTest)
#include "test_verify_value_chunks.moc"
