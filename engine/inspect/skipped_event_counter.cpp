#include "engine/inspect/skipped_event_counter.h"

#include <array>
#include <map>

#include "engine/source/upstream_connection.h"

namespace syncscope::inspect {

namespace {

// SHOW BINLOG EVENTS columns.
constexpr size_t kEventTypeColumn = 2;
constexpr size_t kEndPositionColumn = 4;
constexpr size_t kInfoColumn = 5;
constexpr uint64_t kEventsPerQuery = 10000;

// Events that open, close or describe a file rather than carry a change.
constexpr std::array<std::string_view, 8> kFileHeaderEvents{"Format_desc",       "Rotate",         "Gtid_list",
                                                            "Binlog_checkpoint", "Previous_gtids", "Stop",
                                                            "Start_encryption",  "Heartbeat"};

bool isFileHeader(std::string_view type) {
    for (auto header : kFileHeaderEvents) {
        if (type == header) {
            return true;
        }
    }
    return false;
}

// Write_rows, Update_rows_v1, Delete_rows_compressed_v1, ... (not Annotate_rows, Rows_query).
bool isRowsEvent(std::string_view type) {
    for (std::string_view prefix : {"Write_rows", "Update_rows", "Delete_rows", "Partial_update_rows"}) {
        if (type.substr(0, prefix.size()) == prefix) {
            return true;
        }
    }
    return false;
}

// "table_id: 33 (db.t)" or "table_id: 33 flags: STMT_END_F" -> 33.
std::optional<uint64_t> tableIdOf(std::string_view info) {
    constexpr std::string_view kPrefix = "table_id: ";
    if (info.substr(0, kPrefix.size()) != kPrefix) {
        return std::nullopt;
    }
    uint64_t id = 0;
    size_t i = kPrefix.size();
    bool any = false;
    for (; i < info.size() && info[i] >= '0' && info[i] <= '9'; ++i) {
        id = id * 10 + static_cast<uint64_t>(info[i] - '0');
        any = true;
    }
    return any ? std::optional(id) : std::nullopt;
}

std::string quoteLiteral(std::string_view text) {
    std::string out = "'";
    for (char c : text) {
        if (c == '\'' || c == '\\') {
            out += '\\';
        }
        out += c;
    }
    return out + "'";
}

}  // namespace

std::string SkippedEventCounter::count(SkipWindow& window, const std::string& schema, const std::string& table) {
    const auto& from = window.from.position();
    const auto& to = window.to.position();
    auto fromPlace = axis_.place(from);
    auto toPlace = axis_.place(to);
    if (fromPlace.placement != binlog::AxisPlacement::OnAxis || toPlace.placement != binlog::AxisPlacement::OnAxis) {
        return "the window's files are not all on the upstream";
    }
    // Table_map text names the table as "(schema.table)".
    const std::string tableMapName = "(" + schema + "." + table + ")";
    std::map<uint64_t, bool> tableIdIsOurs;
    uint64_t events = 0;
    uint64_t tableRowsEvents = 0;
    uint64_t scanned = 0;
    bool capped = false;
    try {
        for (const auto& file : axis_.files()) {
            if (file.fileNumber < from.fileNumber() || file.fileNumber > to.fileNumber() || capped) {
                continue;
            }
            const bool lastFile = file.fileNumber == to.fileNumber();
            // Only file names the upstream listed go into SQL text.
            uint64_t start = file.fileNumber == from.fileNumber() ? from.offset() : 0;
            bool done = false;
            while (!done) {
                std::string sql = "SHOW BINLOG EVENTS IN " + quoteLiteral(file.file) +
                                  (start > 0 ? " FROM " + std::to_string(start) : std::string()) + " LIMIT " +
                                  std::to_string(kEventsPerQuery);
                auto rows = upstream_.query(sql);
                for (const auto& row : rows) {
                    if (row.size() <= kInfoColumn || !row[kEventTypeColumn] || !row[kEndPositionColumn]) {
                        continue;
                    }
                    uint64_t end = std::stoull(*row[kEndPositionColumn]);
                    if (lastFile && end > to.offset()) {
                        done = true;
                        break;
                    }
                    start = end;
                    const std::string& type = *row[kEventTypeColumn];
                    const std::string info = row[kInfoColumn].value_or("");
                    if (++scanned >= kMaxScannedEvents) {
                        capped = true;
                        done = true;
                        break;
                    }
                    if (isFileHeader(type)) {
                        continue;
                    }
                    ++events;
                    auto id = tableIdOf(info);
                    if (type == "Table_map" && id) {
                        tableIdIsOurs[*id] = info.find(tableMapName) != std::string::npos;
                    } else if (isRowsEvent(type) && id && tableIdIsOurs[*id]) {
                        ++tableRowsEvents;
                    }
                }
                if (rows.size() < kEventsPerQuery) {
                    done = true;
                }
            }
        }
    } catch (const std::exception& e) {
        return std::string("cannot read the upstream's binlog: ") + e.what();
    }
    window.events = events;
    window.tableRowsEvents = tableRowsEvents;
    window.eventsCapped = capped;
    return {};
}

}  // namespace syncscope::inspect
