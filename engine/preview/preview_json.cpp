#include "engine/preview/preview_json.h"

namespace syncscope::preview {

namespace {

nlohmann::json valuesJson(const std::vector<apply::SqlValue>& values) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& value : values) {
        auto text = value.text();
        out.push_back(text ? nlohmann::json(*text) : nlohmann::json(nullptr));
    }
    return out;
}

nlohmann::json problemsJson(const verify::WindowPreview& preview) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& problem : preview.problems) {
        out.push_back({{"table", problem.table.text()}, {"reason", problem.reason}});
    }
    return out;
}

}  // namespace

nlohmann::json previewCounts(const verify::WindowPreview& preview) {
    using verify::WindowRowState;
    return {{"from", preview.from.toString()},
            {"to", preview.to.toString()},
            {"transactions", preview.transactions.size()},
            {"rows", preview.rowCount()},
            {"rows_equal", preview.rowsIn(WindowRowState::Equal)},
            {"rows_missing", preview.rowsIn(WindowRowState::Missing)},
            {"rows_different", preview.rowsIn(WindowRowState::Different)},
            {"rows_not_deleted", preview.rowsIn(WindowRowState::NotDeleted)},
            {"not_checked", problemsJson(preview)}};
}

nlohmann::json previewJson(const verify::WindowPreview& preview) {
    nlohmann::json out = previewCounts(preview);
    out["events_read"] = preview.eventsRead;
    nlohmann::json transactions = nlohmann::json::array();
    for (const auto& transaction : preview.transactions) {
        transactions.push_back({{"start", transaction.start.toString()},
                                {"end", transaction.end.toString()},
                                {"gtid", transaction.gtid},
                                {"timestamp", transaction.timestamp},
                                {"row_changes", transaction.rowChanges},
                                {"tables", transaction.tables}});
    }
    out["transaction_list"] = std::move(transactions);
    nlohmann::json tables = nlohmann::json::array();
    for (const auto& table : preview.tables) {
        nlohmann::json keyColumns = nlohmann::json::array();
        for (size_t position : table.keyColumns) {
            keyColumns.push_back(table.columns.at(position));
        }
        nlohmann::json rows = nlohmann::json::array();
        for (const auto& row : table.rows) {
            rows.push_back({{"key", valuesJson(row.key)},
                            {"state", verify::windowRowStateName(row.state)},
                            {"deleted", row.image.empty()},
                            {"image", row.image.empty() ? nlohmann::json(nullptr) : valuesJson(row.image)},
                            {"differing_columns", row.differingColumns},
                            {"last_change", row.lastChange}});
        }
        tables.push_back({{"table", table.table.text()},
                          {"downstream_table", table.downstreamTable.text()},
                          {"columns", table.columns},
                          {"key_columns", std::move(keyColumns)},
                          {"row_changes", table.rowChanges},
                          {"rows", std::move(rows)}});
    }
    out["tables"] = std::move(tables);
    return out;
}

}  // namespace syncscope::preview
