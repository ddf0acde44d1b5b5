#include "engine/verify/verify_summary.h"

#include "engine/verify/verify_summary_file.h"

#include <chrono>
#include <cstdio>
#include <fstream>

namespace syncscope::verify {

nlohmann::json verifySummary(const VerifyReport& report) {
    nlohmann::json tables = nlohmann::json::array();
    for (const auto& table : report.tables) {
        nlohmann::json entry = tableDetailsJson(table);  // the rows, for the GUI (verify_summary_file.h)
        entry.update(
            nlohmann::json{{"upstream", table.upstream.text()},
                           {"downstream", table.downstream.text()},
                           {"outcome", tableOutcomeName(table.outcome)},
                           {"verified_at", table.verifiedAt.isEmpty() ? std::string() : table.verifiedAt.toString()},
                           {"verified_file", table.verifiedAt.position().file()},
                           {"verified_pos", table.verifiedAt.position().offset()},
                           {"chunks_done", table.chunksDone},
                           {"chunks_total", table.chunksTotal},
                           {"rows_compared", table.rowsCompared},
                           {"differences", table.differences.size()},
                           {"problem", table.problem}});
        tables.push_back(std::move(entry));
    }
    auto now = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch());
    return {
        {"finished_at", now.count()}, {"seconds", report.seconds}, {"cancelled", report.cancelled}, {"tables", tables}};
}

void saveVerifySummary(const std::string& path, const nlohmann::json& summary) {
    const std::string temporary = path + ".tmp";
    {
        std::ofstream out(temporary, std::ios::trunc);
        out << summary.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
        if (!out) {
            throw VerifyError("cannot write the verify summary '" + temporary + "'");
        }
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0) {
        throw VerifyError("cannot rename '" + temporary + "' to '" + path + "'");
    }
}

}  // namespace syncscope::verify
