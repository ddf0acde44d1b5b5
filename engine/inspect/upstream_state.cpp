#include "engine/inspect/upstream_state.h"

#include "engine/source/upstream_connection.h"

namespace syncscope::inspect {

namespace {

constexpr size_t kFileColumn = 0;
constexpr size_t kPositionColumn = 1;
constexpr size_t kMySqlExecutedGtidColumn = 4;  // SHOW MASTER STATUS on MySQL 5.6+
constexpr size_t kLogNameColumn = 0;
constexpr size_t kFileSizeColumn = 1;

uint64_t toNumber(const std::optional<std::string>& value, const std::string& server, const std::string& what) {
    try {
        size_t used = 0;
        uint64_t number = value ? std::stoull(*value, &used) : 0;
        if (!value || used != value->size()) {
            throw std::invalid_argument("not a number");
        }
        return number;
    } catch (const std::logic_error&) {
        throw Error("upstream " + server + ": " + what + " is '" + value.value_or("NULL") + "', not a number");
    }
}

}  // namespace

UpstreamState readUpstreamState(source::UpstreamConnection& upstream) {
    UpstreamState state;
    state.server = upstream.settings().describe();

    auto status = upstream.query("SHOW MASTER STATUS");
    if (status.empty() || status.front().size() <= kPositionColumn || !status.front()[kFileColumn]) {
        throw Error("upstream " + state.server +
                    ": SHOW MASTER STATUS returned no row: the binary log is off (set log_bin and restart)");
    }
    const auto& row = status.front();
    binlog::BinlogPosition position(*row[kFileColumn],
                                    toNumber(row[kPositionColumn], state.server, "SHOW MASTER STATUS Position"));

    std::string version = upstream.queryValue("SELECT VERSION()").value_or("");
    std::string gtidText;
    if (version.find("MariaDB") != std::string::npos) {
        gtidText = upstream.queryValue("SELECT @@GLOBAL.gtid_binlog_pos").value_or("");
    } else if (row.size() > kMySqlExecutedGtidColumn && row[kMySqlExecutedGtidColumn]) {
        gtidText = *row[kMySqlExecutedGtidColumn];
    }
    try {
        state.current = binlog::Location::fromParts(position.file(), position.offset(), gtidText);
    } catch (const binlog::PositionError& e) {
        throw Error("upstream " + state.server + ": cannot read its current position: " + e.what());
    }

    for (const auto& file : upstream.query("SHOW BINARY LOGS")) {
        if (file.size() <= kFileSizeColumn || !file[kLogNameColumn]) {
            continue;
        }
        state.files.push_back(
            {*file[kLogNameColumn],
             toNumber(file[kFileSizeColumn], state.server, "SHOW BINARY LOGS File_size of " + *file[kLogNameColumn])});
    }
    return state;
}

}  // namespace syncscope::inspect
