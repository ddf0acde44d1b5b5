// /metrics in the Prometheus text format, checked by a strict parser: names, HELP and TYPE before the
// samples, label syntax and escaping, float values; and the values are the snapshot's.
#include <QtTest>

#include <limits>

#include "engine/control/error_tally.h"
#include "engine/control/metrics_page.h"
#include "engine/control/metrics_writer.h"
#include "engine/load/load_progress.h"
#include "tests/engine/control/prometheus_text_parser.h"
#include "tests/engine/control/sample_status.h"

using namespace syncscope;

namespace {

test::PrometheusPage renderSample() {
    return test::parsePrometheusText(
        control::renderMetrics(test::sampleStatus(), {{"retryable", 2}, {"needs_dba", 1}}));
}

// Prometheus naming: a unit (plural, base unit) at the end, _total for counters; 0/1 states and the
// labelled stage carry no unit.
bool hasUnitOrIsAState(const std::string& name) {
    static const char* const kUnits[] = {"_seconds", "_bytes", "_total",      "_number", "_events",      "_rows",
                                         "_jobs",    "_files", "_per_second", "_chunks", "_transactions"};
    static const char* const kStates[] = {"syncscope_stage",
                                          "syncscope_unit",
                                          "syncscope_synced",
                                          "syncscope_safe_mode",
                                          "syncscope_online_schema_changes",          // a count of running changes
                                          "syncscope_shard_ddl_locks",                // a count of locks
                                          "syncscope_shard_ddl_lock_waiting_tables",  // a count of tables
                                          "syncscope_shard_column_awaited_tables",    // a count of tables
                                          "syncscope_tables_ahead_of_global_for_shard_lock",  // a count of tables
                                          "syncscope_binlog_stream_reconnecting",
                                          "syncscope_failed_event",
                                          "syncscope_table_ahead_of_global",
                                          "syncscope_tables_ahead_of_global"};
    for (const char* unit : kUnits) {
        if (name.ends_with(unit)) {
            return true;
        }
    }
    for (const char* state : kStates) {
        if (name == state) {
            return true;
        }
    }
    return false;
}

load::LoadProgressView sampleLoad() {
    load::LoadProgressView load;
    load.unit = load::kUnitLoad;
    load.mode = "all";
    load::TableLoadView table;
    table.schema = "shop";
    table.table = "orders";
    table.targetSchema = "shop_copy";
    table.targetTable = "orders";
    table.rowsDone = 1200;
    table.rowsEstimated = 2000;
    table.bytesDone = 120000;
    table.bytesEstimated = 200000;
    table.chunksDone = 12;
    table.chunksTotal = 20;
    load.tables.push_back(table);
    load.rowsDone = table.rowsDone;
    load.rowsEstimated = table.rowsEstimated;
    load.chunksDone = table.chunksDone;
    load.chunksTotal = table.chunksTotal;
    load.rowsPerSecond = 400;
    load.etaSeconds = 2;
    return load;
}

}  // namespace

class MetricsPageTest : public QObject {
    Q_OBJECT

private slots:
    void pageOfARealSnapshotPassesTheStrictParser() {
        task::StatusSnapshot status = test::sampleStatus();
        status.load = sampleLoad();  // task-mode all: the load's families are named by the same rules
        std::string text = control::renderMetrics(status, {{"retryable", 2}, {"needs_dba", 1}});
        test::PrometheusPage page = test::parsePrometheusText(text);
        QVERIFY2(page.error.empty(), (page.error + "\n" + text).c_str());
        QVERIFY(page.samples.size() > 30);
        for (const auto& [name, family] : page.families) {
            QVERIFY2(!family.help.empty() && !family.type.empty(), name.c_str());
            QVERIFY2(family.type != "counter" || name.ends_with("_total"), name.c_str());
            QVERIFY2(hasUnitOrIsAState(name), ("no unit in the name: " + name).c_str());
        }
        QVERIFY2(page.families.contains("syncscope_load_chunks"), text.c_str());
    }

    void emptySnapshotPassesTheStrictParserToo() {
        task::StatusSnapshot empty;
        test::PrometheusPage page = test::parsePrometheusText(control::renderMetrics(empty, {}));
        QVERIFY2(page.error.empty(), page.error.c_str());
        QCOMPARE(page.count("syncscope_position_axis_bytes"), size_t{0});
        QCOMPARE(page.value("syncscope_stage", {{"stage", "New"}}), std::optional<double>(1));
    }

    // A table ahead of a global point a waiting shard DDL lock holds (its source read the DDL) is counted apart from
    // the tables ahead without a lock, which are what the critical alert watches; the lock's own families.
    void tablesAheadUnderAShardLockAreCountedApart() {
        task::StatusSnapshot status;
        status.taskName = "sh";
        status.sourceId = "a,b";
        for (const char* source : {"a", "b"}) {
            task::TablePointView table;
            table.sourceId = source;
            table.schema = std::string("db_") + source;
            table.table = "t";
            table.aheadOfGlobal = true;
            status.tables.push_back(table);
        }
        test::PrometheusPage without = test::parsePrometheusText(control::renderMetrics(status, {}));
        QCOMPARE(without.value("syncscope_tables_ahead_of_global", {}), std::optional<double>(2));
        QCOMPARE(without.value("syncscope_tables_ahead_of_global_for_shard_lock", {}), std::optional<double>(0));
        QCOMPARE(without.value("syncscope_shard_ddl_locks", {}), std::optional<double>(0));
        QVERIFY(without.families.contains("syncscope_shard_ddl_lock_age_seconds"));  // served without a sample
        task::ShardLockStatus lock;
        lock.target = {"shop", "t"};
        lock.arrived = {{"a", {"db_a", "t"}, "bin.000001:400", 1}};
        lock.waitingFor = {{"b", {"db_b", "t"}, "", 0}};
        lock.since = 1;
        status.shardLocks = {lock};
        test::PrometheusPage page = test::parsePrometheusText(control::renderMetrics(status, {}));
        QVERIFY2(page.error.empty(), page.error.c_str());
        QCOMPARE(page.value("syncscope_tables_ahead_of_global", {}), std::optional<double>(1));  // b's: no lock holds b
        QCOMPARE(page.value("syncscope_tables_ahead_of_global_for_shard_lock", {}), std::optional<double>(1));
        QCOMPARE(page.value("syncscope_shard_ddl_locks", {}), std::optional<double>(1));
        QCOMPARE(
            page.value("syncscope_shard_ddl_lock_waiting_tables", {{"target_schema", "shop"}, {"target_table", "t"}}),
            std::optional<double>(1));
        QVERIFY(page.value("syncscope_shard_ddl_lock_age_seconds", {{"target_table", "t"}}).value_or(0) > 1000);
        // Optimistic mode: a column one shard added, awaited from the other.
        QVERIFY(page.families.contains("syncscope_shard_column_awaited_tables"));  // served without a sample
        QCOMPARE(page.count("syncscope_shard_column_awaited_tables"), size_t{0});
        status.shardColumns = {{{"shop", "t"}, "c", {"a", {"db_a", "t"}, "", 0}, {{"b", {"db_b", "t"}, "", 0}}}};
        page = test::parsePrometheusText(control::renderMetrics(status, {}));
        QCOMPARE(page.value("syncscope_shard_column_awaited_tables",
                            {{"target_schema", "shop"}, {"target_table", "t"}, {"column", "c"}}),
                 std::optional<double>(1));
    }

    void stageIsALabelledGaugeWithOneStageSet() {
        test::PrometheusPage page = renderSample();
        QCOMPARE(page.count("syncscope_stage"), size_t{5});
        QCOMPARE(page.value("syncscope_stage", {{"stage", "Error"}}), std::optional<double>(1));
        QCOMPARE(page.value("syncscope_stage", {{"stage", "Running"}}), std::optional<double>(0));
        QCOMPARE(page.value("syncscope_stage", {{"stage", "Error"}, {"task", "foo-task"}, {"source_id", "mysql-3306"}}),
                 std::optional<double>(1));
    }

    void positionsAreTheSnapshotsOnTheAxisAndInTheirFiles_data() {
        QTest::addColumn<QString>("point");
        QTest::addColumn<double>("axis");
        QTest::addColumn<double>("offset");
        QTest::addRow("upstream") << "upstream" << 5200.0 << 4200.0;
        QTest::addRow("read") << "read" << 5100.0 << 4100.0;
        QTest::addRow("applied") << "applied" << 4000.0 << 3000.0;
        QTest::addRow("global in memory") << "global_in_memory" << 4000.0 << 3000.0;
        QTest::addRow("global persisted") << "global_persisted" << 3500.0 << 2500.0;
    }

    void positionsAreTheSnapshotsOnTheAxisAndInTheirFiles() {
        QFETCH(QString, point);
        QFETCH(double, axis);
        QFETCH(double, offset);
        test::PrometheusPage page = renderSample();
        std::map<std::string, std::string> labels{{"point", point.toStdString()}};
        QCOMPARE(page.value("syncscope_position_axis_bytes", labels), std::optional<double>(axis));
        QCOMPARE(page.value("syncscope_position_offset_bytes", labels), std::optional<double>(offset));
        QCOMPARE(page.value("syncscope_position_file_number", labels), std::optional<double>(2));
    }

    void pointOffTheAxisHasNoAxisSample() {
        test::PrometheusPage page = renderSample();
        QVERIFY(!page.value("syncscope_position_axis_bytes", {{"point", "exit_safe"}}));
        QCOMPARE(page.value("syncscope_position_offset_bytes", {{"point", "exit_safe"}}), std::optional<double>(9000));
    }

    void countersLagQueuesAndFlush() {
        test::PrometheusPage page = renderSample();
        QCOMPARE(page.value("syncscope_events_read_total"), std::optional<double>(1234));
        QCOMPARE(page.value("syncscope_rows_applied_total"), std::optional<double>(10));
        QCOMPARE(page.value("syncscope_lag_seconds"), std::optional<double>(3.6));
        QCOMPARE(page.value("syncscope_rows_per_second", {{"window", "recent"}}), std::optional<double>(2.5));
        QCOMPARE(page.value("syncscope_rows_per_second", {{"window", "total"}}), std::optional<double>(0.125));
        QCOMPARE(page.value("syncscope_read_queue_rows"), std::optional<double>(5));
        QCOMPARE(page.value("syncscope_worker_queue_jobs", {{"worker", "0"}}), std::optional<double>(1));
        QCOMPARE(page.value("syncscope_worker_queue_jobs", {{"worker", "1"}}), std::optional<double>(0));
        QCOMPARE(page.value("syncscope_worker_queue_bytes"), std::optional<double>(4096));
        QCOMPARE(page.value("syncscope_behind_bytes"), std::optional<double>(1 << 20));
        QCOMPARE(page.value("syncscope_catch_up_eta_seconds"), std::optional<double>(341.3));
        QCOMPARE(page.value("syncscope_apply_busy_transactions"), std::optional<double>(3));
        QCOMPARE(page.value("syncscope_apply_allowed_transactions"), std::optional<double>(4));
        QCOMPARE(page.value("syncscope_apply_ceiling_transactions"), std::optional<double>(16));
        QCOMPARE(page.value("syncscope_apply_concurrency_changes_total"), std::optional<double>(5));
        QCOMPARE(page.value("syncscope_last_flush_duration_seconds"), std::optional<double>(0.0125));
        QCOMPARE(page.value("syncscope_last_flush_timestamp_seconds"), std::optional<double>(1795986000.25));
        QCOMPARE(page.value("syncscope_safe_mode"), std::optional<double>(1));
        QCOMPARE(page.value("syncscope_online_schema_changes"), std::optional<double>(1));
        QCOMPARE(page.value("syncscope_online_schema_change_copied_rows",
                            {{"schema", "test"}, {"table", "orders"}, {"shadow_table", "_orders_new"}}),
                 std::optional<double>(4200));
        QCOMPARE(page.value("syncscope_failed_event"), std::optional<double>(1));
        QCOMPARE(page.value("syncscope_synced"), std::optional<double>(0));
        QCOMPARE(page.value("syncscope_upstream_binlog_files"), std::optional<double>(2));
        QCOMPARE(page.value("syncscope_upstream_oldest_binlog_file_number"), std::optional<double>(1));
    }

    void errorsByClass() {
        test::PrometheusPage page = renderSample();
        QCOMPARE(page.value("syncscope_errors_total", {{"class", "retryable"}}), std::optional<double>(2));
        QCOMPARE(page.value("syncscope_errors_total", {{"class", "needs_dba"}}), std::optional<double>(1));
    }

    void tableNamesAreEscapedAndReadBackExactly() {
        test::PrometheusPage page = renderSample();
        std::map<std::string, std::string> odd{{"schema", "we\"ird"}, {"table", "back\\slash\nnew line"}};
        QCOMPARE(page.value("syncscope_table_ahead_of_global", odd), std::optional<double>(1));
        QCOMPARE(page.value("syncscope_table_ahead_of_global_bytes", odd), std::optional<double>(400));
        QCOMPARE(page.value("syncscope_table_ahead_of_global", {{"table", "test1"}}), std::optional<double>(0));
        QCOMPARE(page.value("syncscope_table_ahead_of_global_bytes", {{"table", "test1"}}),
                 std::optional<double>(-100));
        QCOMPARE(page.value("syncscope_tables_ahead_of_global"), std::optional<double>(1));
        QCOMPARE(page.value("syncscope_table_rows_unmatched_total", odd), std::optional<double>(2));
        QCOMPARE(page.value("syncscope_table_rows_unmatched_total", {{"table", "test1"}}), std::optional<double>(0));
    }

    void valuesAreFormattedAsPrometheusFloats_data() {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::addRow("integer") << 42.0 << "42";
        QTest::addRow("fraction") << 0.1 << "0.1";
        QTest::addRow("negative") << -2.5 << "-2.5";
        QTest::addRow("large") << 1e21 << "1e+21";
        QTest::addRow("nan") << std::numeric_limits<double>::quiet_NaN() << "NaN";
        QTest::addRow("+inf") << std::numeric_limits<double>::infinity() << "+Inf";
        QTest::addRow("-inf") << -std::numeric_limits<double>::infinity() << "-Inf";
    }

    void valuesAreFormattedAsPrometheusFloats() {
        QFETCH(double, value);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(control::MetricsWriter::formatValue(value)), text);
    }

    void writerRefusesABadMetricName() {
        control::MetricsWriter writer;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, writer.family("9lives", "gauge", "bad"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, writer.family("has-dash", "gauge", "bad"));
    }

    // The parser itself must reject what Prometheus rejects, or the checks above prove nothing.
    void strictParserRejectsMalformedPages_data() {
        QTest::addColumn<QString>("page");
        QTest::addRow("sample before TYPE") << "# HELP a x\na 1\n";
        QTest::addRow("bad name") << "# HELP 1a x\n# TYPE 1a gauge\n1a 1\n";
        QTest::addRow("unquoted label") << "# HELP a x\n# TYPE a gauge\na{l=v} 1\n";
        QTest::addRow("bad escape") << "# HELP a x\n# TYPE a gauge\na{l=\"\\t\"} 1\n";
        QTest::addRow("not a float") << "# HELP a x\n# TYPE a gauge\na one\n";
        QTest::addRow("TYPE twice") << "# HELP a x\n# TYPE a gauge\n# TYPE a gauge\na 1\n";
        QTest::addRow("unknown type") << "# HELP a x\n# TYPE a number\na 1\n";
        QTest::addRow("not contiguous")
            << "# HELP a x\n# TYPE a gauge\na 1\n# HELP b x\n# TYPE b gauge\nb 1\na{x=\"1\"} 2\n";
        QTest::addRow("repeated series") << "# HELP a x\n# TYPE a gauge\na 1\na 2\n";
        QTest::addRow("negative counter") << "# HELP a_total x\n# TYPE a_total counter\na_total -1\n";
        QTest::addRow("no final line feed") << "# HELP a x\n# TYPE a gauge\na 1";
        QTest::addRow("empty line") << "# HELP a x\n# TYPE a gauge\n\na 1\n";
    }

    void strictParserRejectsMalformedPages() {
        QFETCH(QString, page);
        QVERIFY(!test::parsePrometheusText(page.toStdString()).error.empty());
    }

    void errorTallyCountsEachEntryIntoErrorByClass() {
        control::ErrorTally tally;
        task::StatusSnapshot running;
        running.stage = task::Stage::Running;
        task::StatusSnapshot retrying = running;
        retrying.stage = task::Stage::Error;
        retrying.stageReason = "retryable: connection lost; retrying";
        retrying.lastError = "connection lost";
        task::StatusSnapshot failed = test::sampleStatus();

        tally.observe(running);
        tally.observe(retrying);
        tally.observe(retrying);  // the same error seen twice counts once
        tally.observe(running);
        tally.observe(retrying);
        tally.observe(failed);  // a different error while in Error
        tally.observe(failed);
        auto counts = tally.counts();
        QCOMPARE(counts["retryable"], uint64_t{2});
        QCOMPARE(counts["needs_dba"], uint64_t{1});
    }
};

QTEST_GUILESS_MAIN(MetricsPageTest)
#include "test_metrics_page.moc"
