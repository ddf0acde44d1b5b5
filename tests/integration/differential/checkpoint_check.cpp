#include "tests/integration/differential/checkpoint_check.h"

namespace syncscope::differential {

namespace {

uint64_t fileNumber(const std::string& file) {
    size_t dot = file.rfind('.');
    try {
        return dot == std::string::npos ? 0 : std::stoull(file.substr(dot + 1));
    } catch (const std::exception&) {
        return 0;
    }
}

}  // namespace

std::string BinlogPoint::text() const {
    return "(" + file + ", " + std::to_string(pos) + (gtid.empty() ? "" : ", gtid " + gtid) + ")";
}

int comparePoints(const BinlogPoint& a, const BinlogPoint& b) {
    uint64_t fa = fileNumber(a.file);
    uint64_t fb = fileNumber(b.file);
    if (fa != fb) {
        return fa < fb ? -1 : 1;
    }
    return a.pos == b.pos ? 0 : (a.pos < b.pos ? -1 : 1);
}

BinlogPoint upstreamEnd(SqlSession& upstream) {
    BinlogPoint point;
    auto rows = upstream.query("SHOW MASTER STATUS");
    if (!rows.empty()) {
        point.file = rows.front()[0].value_or("");
        point.pos = std::stoull(rows.front()[1].value_or("0"));
    }
    point.gtid = upstream.value("SELECT @@gtid_binlog_pos").value_or("");
    return point;
}

bool upstreamEndSettled(SqlSession& upstream) {
    auto status = upstream.query("SHOW MASTER STATUS");
    if (status.empty()) {
        return false;
    }
    std::string file = status.front()[0].value_or("");
    std::string lastCheckpoint;
    for (const auto& event : upstream.query("SHOW BINLOG EVENTS IN '" + file + "'")) {
        if (event[2].value_or("") == "Binlog_checkpoint") {
            lastCheckpoint = event[5].value_or("");
        }
    }
    return lastCheckpoint == file;
}

Divergences checkCheckpoints(SqlSession& downstream, const std::string& task, const BinlogPoint& end,
                             const CheckpointExpectations& expect, const std::string& where) {
    Divergences found;
    std::vector<SqlRow> rows;
    try {
        rows = downstream.query(
            "SELECT cp_schema, cp_table, binlog_name, binlog_pos, binlog_gtid, "
            "exit_safe_binlog_name, exit_safe_binlog_pos, is_global FROM `dm_meta`.`" +
            task + "_syncer_checkpoint`");
    } catch (const SqlFailure& e) {
        if (e.code() == 1146) {  // no such table: nothing flushed yet
            return found;
        }
        throw;
    }
    BinlogPoint global;
    BinlogPoint exitSafe;
    std::vector<std::pair<std::string, BinlogPoint>> tables;
    for (const auto& row : rows) {
        BinlogPoint point{row[2].value_or(""), std::stoull(row[3].value_or("0")), row[4].value_or("")};
        if (row[7].value_or("0") == "1") {
            global = point;
            exitSafe = {row[5].value_or(""), std::stoull(row[6].value_or("0")), {}};
        } else {
            tables.emplace_back(row[0].value_or("") + "." + row[1].value_or(""), point);
        }
    }
    if (!global.known()) {
        if (!tables.empty()) {
            found.push_back({"checkpoint-no-global", where + ": table points but no global row"});
        }
        return found;
    }
    for (const auto& [table, point] : tables) {
        if (point.known() && comparePoints(point, global) > 0 && !expect.shardLockMayHold) {
            found.push_back({"checkpoint-table-ahead", where + ": table point of " + table + " " + point.text() +
                                                           " is ahead of the global point " + global.text()});
        }
    }
    if (comparePoints(global, end) > 0) {
        found.push_back({"checkpoint-beyond-upstream",
                         where + ": global point " + global.text() + " is past the upstream's end " + end.text()});
    }
    if (expect.afterGracefulStop && exitSafe.known() && comparePoints(exitSafe, global) > 0) {
        found.push_back({"exit-safe-after-stop", where + ": after a graceful stop the exit-safe point " +
                                                     exitSafe.text() + " is ahead of the global point " +
                                                     global.text() + " (safe mode stays on at the next start)"});
    }
    if (expect.caughtUp && comparePoints(global, end) != 0) {
        found.push_back({"global-short-of-end", where + ": caught up and stopped gracefully, the global point " +
                                                    global.text() + " is not the upstream's end " + end.text()});
    }
    return found;
}

}  // namespace syncscope::differential
