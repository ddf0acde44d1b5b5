// Several tables compared at the same time (VerifySettings::parallelTables), each on connections of its
// own: on the test pair, tables of different sizes (one of a single row, one with a text key that is
// walked, one equal) with differences at each table's first and last key, beyond both ends, every 97th
// key and values swapped between two rows, are each found exactly, every table's rows compared once, the tables
// reported in their order; with one, two, three and more lanes than tables. A table handed to two lanes, or to none, or
// a chunk lost or read twice where one table's end meets the next table's start, shows as a difference found twice or
// not at all, or as a wrong row count. The progress handler is never called from two lanes at once.
#include <QtTest>

#include <atomic>
#include <chrono>
#include <map>
#include <set>

#include "engine/verify/task_verifier.h"
#include "tests/integration/outage/outage_helpers.h"

using namespace syncscope;
using namespace syncscope::test;

namespace {
constexpr const char* kDatabase = "verify_lanes";
constexpr size_t kChunkRows = 200;  // many chunks a table, so that tables overlap in time
constexpr int kEveryNth = 97;

struct IntegerTable {
    const char* name;
    int firstKey;
    int rows;
};
// Integer keys (chunks by key value), in the order the verifier lists them (by name). The first has more chunks
// than all the others together, so that with more than one lane the others are compared while it is: at 3,000
// rows it took about as long as two of them, and now and then one lane's tables ended before the next began.
constexpr IntegerTable kIntegerTables[] = {
    {"a_big", 1, 20000}, {"b_one_row", 5, 1}, {"c_signed", -1500, 2500}, {"d_small", 100, 450}, {"e_equal", 1, 1200},
};
constexpr const char* kTextTable = "f_text_key";
constexpr int kTextRows = 1500;
}  // namespace

class VerifyParallelTablesTest : public QObject {
    Q_OBJECT

private:
    // Per table: the differences made downstream, as "kind key".
    std::map<std::string, std::set<std::string>> injected_;
    std::map<std::string, uint64_t> upstreamRows_;

    static void downstream(const std::string& sql) {
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
            side->execute(std::string("DROP DATABASE IF EXISTS ") + kDatabase);
            side->execute(std::string("CREATE DATABASE ") + kDatabase);
            for (const auto& table : kIntegerTables) {
                const std::string name = std::string(kDatabase) + "." + table.name;
                side->execute("CREATE TABLE " + name +
                              " (id INT PRIMARY KEY, v VARCHAR(20) NULL, pad CHAR(40) NOT NULL)");
                side->execute("INSERT INTO " + name + " SELECT CAST(seq AS SIGNED) + " +
                              std::to_string(table.firstKey - 1) + ", CONCAT('v', seq), MD5(seq) FROM " + kDatabase +
                              ".seq_1_to_" + std::to_string(table.rows));
            }
            side->execute(std::string("CREATE TABLE ") + kDatabase + "." + kTextTable +
                          " (k VARCHAR(20) PRIMARY KEY, v VARCHAR(20) NULL)");
            side->execute(std::string("INSERT INTO ") + kDatabase + "." + kTextTable +
                          " SELECT CONCAT('k', LPAD(seq, 5, '0')), CONCAT('v', seq) FROM " + kDatabase + ".seq_1_to_" +
                          std::to_string(kTextRows));
        }
        for (const auto& table : kIntegerTables) {
            const std::string name = std::string(kDatabase) + "." + table.name;
            auto& made = injected_[table.name];
            upstreamRows_[table.name] = static_cast<uint64_t>(table.rows);
            if (std::string(table.name) == "e_equal") {
                continue;
            }
            const int lastKey = table.firstKey + table.rows - 1;
            // The last key changed, the first missing (one row: that row only), rows beyond both ends.
            if (table.rows > 1) {
                downstream("UPDATE " + name + " SET v = 'changed' WHERE id = " + std::to_string(lastKey));
                made.insert("different " + std::to_string(lastKey));
            }
            downstream("DELETE FROM " + name + " WHERE id = " + std::to_string(table.firstKey));
            made.insert("missing " + std::to_string(table.firstKey));
            downstream("INSERT INTO " + name + " VALUES (" + std::to_string(table.firstKey - 50) + ", 'x', 'x'), (" +
                       std::to_string(lastKey + 1) + ", 'x', 'x')");
            made.insert("extra " + std::to_string(table.firstKey - 50));
            made.insert("extra " + std::to_string(lastKey + 1));
            // Every 97th key in between, NULL against '' every other time.
            for (int id = table.firstKey + kEveryNth; id < lastKey; id += kEveryNth) {
                downstream("UPDATE " + name + (id % 2 == 0 ? " SET v = NULL" : " SET pad = 'p'") +
                           " WHERE id = " + std::to_string(id));
                made.insert("different " + std::to_string(id));
            }
        }
        // Values swapped between two rows of equal lengths, far from the other differences: under a plain BIT_XOR
        // of CRC32s the two rows' changes cancel out in their chunk's and part's checksums (ChunkSql::kRowHashMix).
        downstream(std::string("UPDATE ") + kDatabase + ".a_big SET pad = IF(id = 1500, MD5(1501), MD5(1500)) " +
                   "WHERE id IN (1500, 1501)");
        injected_["a_big"].insert({"different 1500", "different 1501"});
        const std::string text = std::string(kDatabase) + "." + kTextTable;
        upstreamRows_[kTextTable] = kTextRows;
        downstream("DELETE FROM " + text + " WHERE k IN ('k00001', 'k00700')");
        downstream("UPDATE " + text + " SET v = NULL WHERE k IN ('k00350', '" + "k01500')");
        downstream("INSERT INTO " + text + " VALUES ('a', 'x'), ('z', 'x')");
        downstream("UPDATE " + text + " SET v = IF(k = 'k01200', 'v1201', 'v1200') WHERE k IN ('k01200', 'k01201')");
        injected_[kTextTable] = {"missing k00001", "missing k00700", "different k00350", "different k01500",
                                 "extra a",        "extra z",        "different k01200", "different k01201"};
    }

    void everyTableFoundExactlyOnce_data() {
        QTest::addColumn<size_t>("lanes");
        QTest::addRow("one table at a time") << size_t{1};
        QTest::addRow("two tables at a time") << size_t{2};
        QTest::addRow("three tables at a time") << size_t{3};
        QTest::addRow("more lanes than tables") << size_t{16};
    }

    void everyTableFoundExactlyOnce() {
        QFETCH(size_t, lanes);
        verify::VerifySettings settings;
        settings.parallelTables = lanes;
        settings.firstChunkRows = settings.minChunkRows = settings.maxChunkRows = kChunkRows;
        settings.maxValueChunkRows = kChunkRows;
        settings.chunkParts = 4;
        settings.spreadDifferenceParts = 8;
        settings.subPartMinRows = 0;
        settings.confirmRows = 5;  // confirmations in the middle of tables, while the other lanes read
        verify::NoRunningTask noTask;
        verify::VerifyTarget target;
        target.upstream = engineSettings(upstreamRoot());
        target.downstream = engineSettings(downstreamRoot());
        target.blockAllow =
            std::make_shared<filter::BlockAllowList>(filter::BlockAllowRules{{kDatabase}, {}, {}, {}}, false);
        verify::TaskVerifier verifier(target, settings, noTask);

        // Each table's first and last progress call, and whether two calls ever ran at once.
        using Clock = std::chrono::steady_clock;
        std::map<size_t, std::pair<Clock::time_point, Clock::time_point>> seen;
        std::atomic<int> inHandler{0};
        bool overlappingCalls = false;
        verifier.setProgressHandler([&](size_t index, size_t count, const verify::TableVerifyResult&) {
            overlappingCalls = overlappingCalls || inHandler.fetch_add(1) != 0;
            QVERIFY(index < count);
            const auto now = Clock::now();
            auto [entry, first] = seen.try_emplace(index, now, now);
            entry->second.second = now;
            inHandler.fetch_sub(1);
        });
        verify::VerifyReport report = verifier.run();
        QVERIFY(!overlappingCalls);
        QVERIFY(!report.cancelled);

        QCOMPARE(report.tables.size(), injected_.size());
        auto expected = injected_.begin();
        for (const auto& table : report.tables) {
            QCOMPARE(table.upstream.table, expected->first);  // in the list's order
            QVERIFY2(table.outcome != verify::TableOutcome::Failed, table.problem.c_str());
            QCOMPARE(table.rowsCompared, upstreamRows_.at(table.upstream.table));
            QCOMPARE(table.rowsInFlight, uint64_t{0});
            std::set<std::string> found;
            for (const auto& difference : table.differences) {
                const std::string item = std::string(verify::differenceKindName(difference.kind)) + " " +
                                         difference.key.front().value_or("NULL");
                QVERIFY2(found.insert(item).second, (table.upstream.text() + ": reported twice: " + item).c_str());
            }
            if (found != expected->second) {
                std::string diff = table.upstream.text() + ":\n";
                for (const auto& item : expected->second) {
                    diff += found.count(item) ? "" : "not found: " + item + "\n";
                }
                for (const auto& item : found) {
                    diff += expected->second.count(item) ? "" : "not injected: " + item + "\n";
                }
                QFAIL(diff.c_str());
            }
            ++expected;
        }
        QCOMPARE(report.differenceCount(), [&] {
            size_t count = 0;
            for (const auto& [table, made] : injected_) {
                count += made.size();
            }
            return count;
        }());

        // With more than one lane, tables were compared at the same time (else this proves nothing of lanes).
        bool overlapped = false;
        for (auto one = seen.begin(); one != seen.end(); ++one) {
            for (auto other = std::next(one); other != seen.end(); ++other) {
                overlapped = overlapped ||
                             (one->second.first < other->second.second && other->second.first < one->second.second);
            }
        }
        QCOMPARE(overlapped, lanes > 1);
    }

    void cleanupTestCase() {
        auto up = connectTo(upstreamRoot());
        auto down = connectTo(downstreamRoot());
        for (auto* side : {up.get(), down.get()}) {
            side->execute("SET SESSION sql_log_bin = 0");
            side->execute(std::string("DROP DATABASE IF EXISTS ") + kDatabase);
        }
    }
};

QTEST_GUILESS_MAIN(VerifyParallelTablesTest)
#include "test_verify_parallel_tables.moc"
