// How the verifier confirms suspect rows, on the test pair: each side's suspects read in one statement
// (a UNION ALL of single-row lookups) find exactly the rows the lookups find alone (NULL unlike '', text
// keys with quotes, unicode, a backslash and a case-only difference, a composite key with VARBINARY), in
// one batch or in many; a row that changes between the listing and the confirmation (upstream, or
// downstream as the task applies it) is not reported; while the task catches up, the suspect rows and
// the gap of an absent one are locked upstream, and other rows are not.
#include <QtTest>

#include <set>
#include <tuple>

#include "engine/verify/task_verifier.h"
#include "tests/integration/outage/outage_helpers.h"

using namespace syncscope;
using namespace syncscope::test;

namespace {

constexpr const char* kDatabase = "verify_confirm";
constexpr size_t kChunkRows = 100;
constexpr unsigned kLockWaitTimeout = 1205;

// (table, kind, key values joined by '|', differing columns joined by ',')
using Finding = std::tuple<std::string, verify::DifferenceKind, std::string, std::string>;

std::string joined(const std::vector<std::string>& values) {
    std::string text;
    for (const auto& value : values) {
        text += (text.empty() ? "" : ",") + value;
    }
    return text;
}

std::set<Finding> findingsOf(const verify::VerifyReport& report) {
    std::set<Finding> findings;
    for (const auto& table : report.tables) {
        for (const auto& difference : table.differences) {
            std::string key;
            for (const auto& value : difference.key) {
                key += (key.empty() ? "" : "|") + value.value_or("NULL");
            }
            findings.emplace(table.upstream.table, difference.kind, key, joined(difference.differingColumns));
        }
    }
    return findings;
}

const verify::TableVerifyResult& tableOf(const verify::VerifyReport& report, const std::string& name) {
    for (const auto& table : report.tables) {
        if (table.upstream.table == name) {
            return table;
        }
    }
    throw std::runtime_error("no result for " + name);
}

// The differences init() injects downstream, as verify must name them (of one table when named).
std::set<Finding> injected(const std::string& onlyTable = "") {
    using K = verify::DifferenceKind;
    std::set<Finding> all{
        {"texts", K::Different, "key0005", "v"},                // NULL upstream, '' downstream
        {"texts", K::Different, "key0100", "n"},                // a value upstream, NULL downstream
        {"texts", K::Different, "back\\slash", "v"},            //
        {"texts", K::Missing, "it's", ""},                      //
        {"texts", K::Missing, "na\xc3\xafve caf\xc3\xa9", ""},  // naïve café
        {"texts", K::Extra, "zz extra", ""},                    //
        // 'abc' became 'ABC' downstream: each is its own suspect, and each lookup finds the other side's
        // row by the column's collation, as a lookup of that key alone does.
        {"texts", K::Different, "abc", "k"},
        {"texts", K::Different, "ABC", "k"},
        {"lines", K::Missing, "100|" + std::string("\x00\x00\x01\x2c", 4), ""},
        {"lines", K::Extra, "999999|" + std::string("\x00\xff", 2), ""},
        {"lines", K::Different, "200|" + std::string("\x00\x00\x02\x59", 4), "note"},  // 'n' -> NULL
        {"lines", K::Different, "300|" + std::string("\x00\x00\x03\x84", 4), "note"},  // NULL -> ''
    };
    std::erase_if(all, [&](const Finding& finding) { return !onlyTable.empty() && std::get<0>(finding) != onlyTable; });
    return all;
}

// A task as the verifier asks it: `onFirstAsk` runs when it is first asked whether it has applied up to
// the locked point (the suspects are locked upstream then), and it has.
class ScriptedTask : public verify::TaskProgress {
public:
    std::function<void()> onFirstAsk;
    int asked = 0;

    verify::AppliedAnswer appliedUpTo(const binlog::Location&) override {
        if (asked++ == 0 && onFirstAsk) {
            onFirstAsk();
        }
        return verify::AppliedAnswer::Applied;
    }
    std::string describe() const override { return "a scripted task"; }
};

}  // namespace

class VerifyConfirmTest : public QObject {
    Q_OBJECT

    static void onBoth(const std::function<void(source::UpstreamConnection&)>& change) {
        auto up = connectTo(upstreamRoot());
        auto down = connectTo(downstreamRoot());
        for (auto* side : {up.get(), down.get()}) {
            side->execute("SET SESSION sql_log_bin = 0");
            change(*side);
        }
    }

    static void upstream(const std::string& sql) {
        auto up = connectTo(upstreamRoot());
        up->execute("SET SESSION sql_log_bin = 0");
        up->execute(sql);
    }

    static void downstream(const std::string& sql) { connectTo(downstreamRoot())->execute(sql); }

    static verify::VerifySettings smallChunks() {
        verify::VerifySettings settings;
        settings.firstChunkRows = settings.minChunkRows = settings.maxChunkRows = kChunkRows;
        return settings;
    }

    // Verifies kDatabase (only `onlyTable` when named); `afterChunk` runs after every chunk.
    static verify::VerifyReport run(const verify::VerifySettings& settings, verify::TaskProgress& task,
                                    const std::string& onlyTable = "",
                                    const std::function<void(const verify::TableVerifyResult&)>& afterChunk = {}) {
        verify::VerifyTarget target;
        target.upstream = engineSettings(upstreamRoot());
        target.downstream = engineSettings(downstreamRoot());
        target.blockAllow =
            std::make_shared<filter::BlockAllowList>(filter::BlockAllowRules{{kDatabase}, {}, {}, {}}, false);
        if (!onlyTable.empty()) {
            target.onlyTables.push_back({kDatabase, onlyTable});
        }
        verify::TaskVerifier verifier(target, settings, task);
        if (afterChunk) {
            verifier.setProgressHandler(
                [&](size_t, size_t, const verify::TableVerifyResult& result) { afterChunk(result); });
        }
        return verifier.run();
    }

private slots:
    // Fresh tables before every test: equal on both sides but for the injected differences.
    void init() {
        onBoth([](source::UpstreamConnection& side) {
            side.execute(std::string("DROP DATABASE IF EXISTS ") + kDatabase);
            side.execute(std::string("CREATE DATABASE ") + kDatabase);
            side.execute(std::string("USE ") + kDatabase);
            side.execute(
                "CREATE TABLE texts (k VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci PRIMARY KEY, "
                "v TEXT NULL, n INT NULL)");
            side.execute(
                "INSERT INTO texts SELECT CONCAT('key', LPAD(seq, 4, '0')), IF(seq % 5 = 0, NULL, "
                "CONCAT('v', seq)), IF(seq % 7 = 0, NULL, seq) FROM seq_1_to_600");
            side.execute(
                "INSERT INTO texts VALUES ('it''s', 'q', 1), ('na\xc3\xafve caf\xc3\xa9', 'u', 2), "
                "('back\\\\slash', 'b', 3), ('sp ace', 's', 4), ('abc', 'a', 5)");
            side.execute(
                "CREATE TABLE `lines` (order_id INT NOT NULL, sku VARBINARY(16) NOT NULL, qty INT NOT NULL, "
                "note VARCHAR(20) NULL, PRIMARY KEY (order_id, sku))");
            side.execute(
                "INSERT INTO `lines` SELECT seq DIV 3, UNHEX(LPAD(HEX(seq), 8, '0')), seq, "
                "IF(seq % 4 = 0, NULL, 'n') FROM seq_1_to_1500");
        });
        const std::string db = std::string(kDatabase) + ".";
        downstream("UPDATE " + db + "texts SET v = '' WHERE k = 'key0005'");
        downstream("UPDATE " + db + "texts SET n = NULL WHERE k = 'key0100'");
        downstream("UPDATE " + db + "texts SET v = 'x' WHERE k = 'back\\\\slash'");
        downstream("DELETE FROM " + db + "texts WHERE k IN ('it''s', 'na\xc3\xafve caf\xc3\xa9')");
        downstream("INSERT INTO " + db + "texts VALUES ('zz extra', NULL, NULL)");
        downstream("UPDATE " + db + "texts SET k = 'ABC' WHERE k = 'abc'");
        downstream("DELETE FROM " + db + "`lines` WHERE qty = 300");
        downstream("INSERT INTO " + db + "`lines` VALUES (999999, UNHEX('00FF'), 1, NULL)");
        downstream("UPDATE " + db + "`lines` SET note = NULL WHERE qty = 601");
        downstream("UPDATE " + db + "`lines` SET note = '' WHERE qty = 900");
    }

    void batchedConfirmationFindsExactlyTheInjectedRows_data() {
        QTest::addColumn<size_t>("confirmRows");
        QTest::addColumn<size_t>("confirmLookups");
        QTest::addRow("one batch a table, one statement a side") << size_t{1024} << size_t{256};
        QTest::addRow("batches of 3 suspects, 2 lookups a statement (padded)") << size_t{3} << size_t{2};
        QTest::addRow("one suspect at a time") << size_t{1} << size_t{1};
    }

    void batchedConfirmationFindsExactlyTheInjectedRows() {
        QFETCH(size_t, confirmRows);
        QFETCH(size_t, confirmLookups);
        verify::VerifySettings settings = smallChunks();
        settings.confirmRows = confirmRows;
        settings.confirmLookups = confirmLookups;
        verify::NoRunningTask noTask;
        verify::VerifyReport report = run(settings, noTask);
        QCOMPARE(report.failedTables(), size_t{0});
        QCOMPARE(findingsOf(report), injected());
        for (const auto& table : report.tables) {
            QCOMPARE(table.rowsInFlight, uint64_t{0});
            QVERIFY(table.chunksDone > 1);
            for (const auto& difference : table.differences) {
                // Both row images are the rows read by key: the missing one's upstream row, and so on.
                QCOMPARE(difference.upstreamRow.empty(), difference.kind == verify::DifferenceKind::Extra);
                QCOMPARE(difference.downstreamRow.empty(), difference.kind == verify::DifferenceKind::Missing);
            }
        }
        // NULL and '' told apart in the row images too.
        for (const auto& difference : tableOf(report, "texts").differences) {
            if (difference.key.front() == "key0005") {
                QCOMPARE(difference.upstreamRow[1], std::optional<std::string>());
                QCOMPARE(difference.downstreamRow[1], std::optional<std::string>(""));
            }
        }
    }

    void rowChangedBetweenListingAndConfirmationIsNotReported() {
        // key0050 differs when listed, then the upstream changes it to what the downstream holds (the task
        // applied it already); key0060 differs when listed and the task applies it downstream while the
        // verifier waits for the task with the rows locked.
        downstream(std::string("UPDATE ") + kDatabase + ".texts SET v = 'later' WHERE k = 'key0050'");
        upstream(std::string("UPDATE ") + kDatabase + ".texts SET v = 'applied' WHERE k = 'key0060'");
        ScriptedTask task;
        task.onFirstAsk = [] {
            downstream(std::string("UPDATE ") + kDatabase + ".texts SET v = 'applied' WHERE k = 'key0060'");
        };
        bool changed = false;
        verify::VerifyReport report = run(smallChunks(), task, "texts", [&](const verify::TableVerifyResult& result) {
            // After the first chunk (the special keys and key0001..key0097) was listed and compared.
            if (!changed && result.upstream.table == "texts" && result.chunksDone == 1) {
                upstream(std::string("UPDATE ") + kDatabase + ".texts SET v = 'later' WHERE k = 'key0050'");
                changed = true;
            }
        });
        QVERIFY(changed);
        QVERIFY(task.asked > 0);
        QCOMPARE(findingsOf(report), injected("texts"));  // neither key0050 nor key0060
        const auto& texts = tableOf(report, "texts");
        QCOMPARE(texts.rowsInFlight, uint64_t{2});
        QCOMPARE(texts.chunksRechecked, uint64_t{1});  // both were in the first chunk
    }

    void suspectsAndTheGapOfAnAbsentKeyStayLockedWhileTheTaskCatchesUp() {
        ScriptedTask task;
        QStringList outcomes;
        task.onFirstAsk = [&] {
            auto writer = connectTo(upstreamRoot());
            writer->execute("SET SESSION sql_log_bin = 0");
            writer->execute("SET SESSION innodb_lock_wait_timeout = 1");
            auto attempt = [&](const char* what, const std::string& sql) {
                try {
                    writer->execute(sql);
                    outcomes << QString("%1: written").arg(what);
                } catch (const source::UpstreamError& e) {
                    outcomes << QString("%1: %2").arg(what).arg(e.code() == kLockWaitTimeout ? "lock wait timeout"
                                                                                             : e.what());
                }
            };
            const std::string texts = std::string(kDatabase) + ".texts";
            attempt("suspect row", "UPDATE " + texts + " SET n = n + 1 WHERE k = 'key0100'");
            attempt("absent suspect's gap", "INSERT INTO " + texts + " VALUES ('zz extra', 'x', 1)");
            attempt("other row", "UPDATE " + texts + " SET n = n WHERE k = 'key0400'");
        };
        verify::VerifyReport report = run(smallChunks(), task, "texts");
        QCOMPARE(outcomes, QStringList({"suspect row: lock wait timeout", "absent suspect's gap: lock wait timeout",
                                        "other row: written"}));
        QCOMPARE(findingsOf(report), injected("texts"));
    }

    void cleanupTestCase() {
        onBoth([](source::UpstreamConnection& side) {
            side.execute(std::string("DROP DATABASE IF EXISTS ") + kDatabase);
        });
    }
};

QTEST_GUILESS_MAIN(VerifyConfirmTest)
#include "test_verify_confirm.moc"
