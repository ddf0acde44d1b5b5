#include "engine/control/verify_status.h"

#include <fstream>

namespace syncscope::control {

nlohmann::json readVerifySummary(const std::string& path) {
    if (path.empty()) {
        return nullptr;
    }
    std::ifstream in(path);
    if (!in) {
        return nullptr;
    }
    auto summary = nlohmann::json::parse(in, nullptr, false);
    return summary.is_object() ? summary : nlohmann::json(nullptr);
}

void writeVerifyMetrics(const nlohmann::json& summary, MetricsWriter& writer) {
    if (!summary.is_object() || !summary.value("tables", nlohmann::json()).is_array()) {
        return;
    }
    const auto& tables = summary["tables"];
    auto family = [&](const char* name, const char* help, const char* field) {
        writer.family(name, "gauge", help);
        for (const auto& table : tables) {
            writer.sample(table.value(field, uint64_t{0}), {{"table", table.value("downstream", "")}});
        }
    };
    family("syncscope_verify_differences", "Rows that differed in the last verify of the table.", "differences");
    family("syncscope_verify_rows_compared", "Rows compared in the last verify of the table.", "rows_compared");
    family("syncscope_verify_chunks_done", "Chunks compared in the last verify of the table.", "chunks_done");
    family("syncscope_verify_chunks_total", "Chunks of the table in the last verify (an estimate until done).",
           "chunks_total");
    writer.family("syncscope_verify_equal", "gauge", "1 when the last verify found the table equal, else 0.");
    for (const auto& table : tables) {
        writer.sample(uint64_t{table.value("outcome", "") == "equal" ? 1U : 0U},
                      {{"table", table.value("downstream", "")}});
    }
    writer.family("syncscope_verify_finished_timestamp_seconds", "gauge", "When the last verify ended (Unix time).");
    writer.sample(summary.value("finished_at", uint64_t{0}));
}

}  // namespace syncscope::control
