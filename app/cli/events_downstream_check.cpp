#include "app/cli/events_downstream_check.h"

#include <nlohmann/json.hpp>

#include "engine/preview/page_row_check.h"

namespace syncscope::cli {

namespace {

nlohmann::json rowsJson(const std::vector<preview::CheckedRow>& rows) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& row : rows) {
        out.push_back({{"table", row.table},
                       {"key", row.key},
                       {"state", verify::windowRowStateName(row.state)},
                       {"differing_columns", row.differingColumns}});
    }
    return out;
}

}  // namespace

bool DownstreamCheckSink::transactionEnds(const browse::BrowsedTransaction& trx) {
    const bool goOn = printer_.transactionEnds(trx);
    shown_.push_back(trx);
    shown_.back().events.clear();  // the check needs where it lies, not what it holds
    shown_.back().events.shrink_to_fit();
    return goOn;
}

void DownstreamCheckSink::checkAndPrint(const ServerSettings& upstream, const ServerSettings& downstream,
                                        const browse::BrowseFilter& filter, bool json, std::ostream& out) const {
    verify::WindowPreviewRequest request;
    request.upstream = upstream;
    request.downstream = downstream;
    preview::PageRowCheck check = preview::checkPageRows(request, shown_, filter);
    if (!json) {
        out << "# downstream " << downstream.describe() << ": each row checked at its last change above ("
            << check.windowsRead << " binlog window(s), " << check.eventsRead << " events read)\n";
    }
    for (size_t i = 0; i < shown_.size(); ++i) {
        const preview::TransactionRowCheck& rows = check.transactions[i];
        if (rows.checkedRows() == 0) {
            continue;
        }
        const browse::BrowsedTransaction& trx = shown_[i];
        const std::string start = trx.file + ":" + std::to_string(trx.pos);
        if (json) {
            out << nlohmann::json{{"downstream_check",
                                   {{"trx_file", trx.file},
                                    {"trx_pos", trx.pos},
                                    {"gtid", trx.gtid},
                                    {"equal", rows.equal},
                                    {"missing", rows.missing},
                                    {"different", rows.different},
                                    {"not_deleted", rows.notDeleted},
                                    {"rows", rowsJson(rows.rows)}}}}
                       .dump()
                << '\n';
            continue;
        }
        out << "#   " << (trx.gtid.empty() ? std::string("transaction") : trx.gtid) << " at " << start << ": "
            << rows.summary() << '\n';
        for (const auto& row : rows.rows) {
            out << "#     " << row.text() << '\n';
        }
    }
    for (const auto& problem : check.problems) {
        if (json) {
            out << nlohmann::json{{"downstream_check",
                                   {{"table", problem.table.text()}, {"not_checked", problem.reason}}}}
                       .dump()
                << '\n';
        } else {
            out << "#   NOT CHECKED " << problem.table.text() << ": " << problem.reason << '\n';
        }
    }
}

}  // namespace syncscope::cli
