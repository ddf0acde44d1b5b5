#include "engine/control/load_status.h"

#include <cstdio>

namespace syncscope::control {

namespace {

constexpr double kPercent = 100.0;

// DM writes progress as text: "42.00 %".
std::string percentText(uint64_t done, uint64_t total) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f %%",
                  total == 0 ? 0.0 : kPercent * static_cast<double>(done) / static_cast<double>(total));
    return text;
}

}  // namespace

nlohmann::json loadProgressJson(const load::LoadProgressView& progress) {
    nlohmann::json tables = nlohmann::json::array();
    uint64_t tablesDone = 0;
    for (const auto& table : progress.tables) {
        bool done = table.chunksDone == table.chunksTotal;
        tablesDone += done ? 1 : 0;
        tables.push_back({{"schema", table.schema},
                          {"table", table.table},
                          {"target_schema", table.targetSchema},
                          {"target_table", table.targetTable},
                          {"keyless", table.keyless},
                          {"finished_rows", table.rowsDone},
                          {"estimate_total_rows", table.rowsEstimated},
                          {"finished_bytes", table.bytesDone},
                          {"total_bytes", table.bytesEstimated},
                          {"chunks_done", table.chunksDone},
                          {"chunks_total", table.chunksTotal},
                          {"current_chunks", table.currentChunks},
                          {"done", done}});
    }
    return {
        // DM's names (query-status of the dump and load units).
        {"unit", progress.unit},
        {"total_tables", progress.tables.size()},
        {"completed_tables", tablesDone},
        {"finished_rows", progress.rowsDone},
        {"estimate_total_rows", progress.rowsEstimated},
        {"finished_bytes", progress.bytesDone},
        {"total_bytes", progress.bytesEstimated},
        {"progress", percentText(progress.rowsDone, progress.rowsEstimated)},
        {"meta_binlog", progress.snapshotPoint},
        // What DM lacks.
        {"task_mode", progress.mode},
        {"finished", progress.finished},
        {"chunks_done", progress.chunksDone},
        {"chunks_total", progress.chunksTotal},
        {"rows_per_second", progress.rowsPerSecond},
        {"bytes_per_second", progress.bytesPerSecond},
        {"eta_seconds", progress.etaSeconds ? nlohmann::json(*progress.etaSeconds) : nlohmann::json(nullptr)},
        {"writers_blocked_ms", progress.writersBlockedMilliseconds},
        {"not_copied", progress.notCopied},
        {"tables", tables},
    };
}

void writeLoadMetrics(MetricsWriter& out, const load::LoadProgressView& progress, const MetricLabels& task) {
    auto with = [&](std::initializer_list<std::pair<const char*, std::string>> extra) {
        MetricLabels labels = task;
        for (const auto& [name, value] : extra) {
            labels.emplace_back(name, value);
        }
        return labels;
    };
    out.family("syncscope_unit", "gauge",
               "1 for the unit the task runs now (DM's Dump, Load, Sync), 0 for the others.");
    for (const char* unit : {load::kUnitDump, load::kUnitLoad, load::kUnitSync}) {
        out.sample(uint64_t{progress.unit == unit ? 1U : 0U}, with({{"unit", unit}}));
    }
    out.family("syncscope_load_rows", "gauge", "Snapshot load: rows loaded and estimated, per upstream table.");
    for (const auto& table : progress.tables) {
        std::string name = table.schema + "." + table.table;
        out.sample(table.rowsDone, with({{"table", name}, {"kind", "done"}}));
        out.sample(table.rowsEstimated, with({{"table", name}, {"kind", "estimated"}}));
    }
    out.family("syncscope_load_bytes", "gauge", "Snapshot load: value bytes loaded and estimated, per upstream table.");
    for (const auto& table : progress.tables) {
        std::string name = table.schema + "." + table.table;
        out.sample(table.bytesDone, with({{"table", name}, {"kind", "done"}}));
        out.sample(table.bytesEstimated, with({{"table", name}, {"kind", "estimated"}}));
    }
    out.family("syncscope_load_chunks", "gauge", "Snapshot load: chunks committed and planned, in total.");
    out.sample(uint64_t{progress.chunksDone}, with({{"kind", "done"}}));
    out.sample(uint64_t{progress.chunksTotal}, with({{"kind", "total"}}));
    out.family("syncscope_load_rows_per_second", "gauge", "Snapshot load: rows per second since this run began.");
    out.sample(progress.rowsPerSecond, task);
    out.family("syncscope_load_eta_seconds", "gauge", "Snapshot load: seconds left at the current rate.");
    if (progress.etaSeconds) {
        out.sample(*progress.etaSeconds, task);
    }
}

}  // namespace syncscope::control
