#include "engine/replica/replica_channel_status.h"

#include <map>
#include <regex>

#include "engine/common/error.h"

namespace syncscope::replica {

namespace {

uint64_t number(const std::string& column, const std::string& text) {
    try {
        size_t used = 0;
        uint64_t value = std::stoull(text, &used);
        if (used == text.size()) {
            return value;
        }
    } catch (const std::exception&) {
    }
    throw Error("SHOW ALL SLAVES STATUS: column " + column + " is '" + text + "', not a number");
}

}  // namespace

std::string ReplicaChannelStatus::describe() const {
    return connectionName.empty() ? std::string("the default channel") : "channel '" + connectionName + "'";
}

std::vector<ReplicaChannelStatus> channelsFromRows(const std::vector<std::string>& columns,
                                                   const std::vector<source::Row>& rows) {
    std::vector<ReplicaChannelStatus> channels;
    for (const auto& row : rows) {
        std::map<std::string, std::string> byName;
        for (size_t i = 0; i < columns.size() && i < row.size(); ++i) {
            if (row[i]) {
                byName[columns[i]] = *row[i];
            }
        }
        auto text = [&](const char* column) {
            auto it = byName.find(column);
            return it == byName.end() ? std::string() : it->second;
        };
        auto count = [&](const char* column) -> uint64_t {
            std::string value = text(column);
            return value.empty() ? 0 : number(column, value);
        };
        ReplicaChannelStatus channel;
        channel.connectionName = text("Connection_name");
        channel.masterHost = text("Master_Host");
        channel.masterPort = static_cast<int>(count("Master_Port"));
        channel.masterUser = text("Master_User");
        channel.readFile = text("Master_Log_File");
        channel.readPos = count("Read_Master_Log_Pos");
        channel.execFile = text("Relay_Master_Log_File");
        channel.execPos = count("Exec_Master_Log_Pos");
        channel.ioRunning = text("Slave_IO_Running");
        channel.sqlRunning = text("Slave_SQL_Running");
        channel.ioState = text("Slave_IO_State");
        channel.sqlState = text("Slave_SQL_Running_State");
        if (!text("Seconds_Behind_Master").empty()) {
            channel.secondsBehindMaster = static_cast<int64_t>(count("Seconds_Behind_Master"));
        }
        channel.lastIoErrno = static_cast<int>(count("Last_IO_Errno"));
        channel.lastIoError = text("Last_IO_Error");
        channel.lastSqlErrno = static_cast<int>(count("Last_SQL_Errno"));
        channel.lastSqlError = text("Last_SQL_Error");
        channel.usingGtid = text("Using_Gtid");
        channel.gtidIoPos = text("Gtid_IO_Pos");
        channel.gtidSlavePos = text("Gtid_Slave_Pos");
        channel.executedEntries = count("Executed_log_entries");
        channels.push_back(std::move(channel));
    }
    return channels;
}

std::string connectionLiteral(const std::string& connectionName) {
    std::string literal = "'";
    for (char c : connectionName) {
        if (c == '\'' || c == '\\') {
            literal.push_back('\\');
        }
        literal.push_back(c);
    }
    return literal + "'";
}

std::optional<uint64_t> failedEventEndPos(const std::string& lastSqlError) {
    static const std::regex endLogPos("end_log_pos ([0-9]+)");
    std::smatch match;
    if (!std::regex_search(lastSqlError, match, endLogPos)) {
        return std::nullopt;
    }
    return std::stoull(match[1].str());
}

}  // namespace syncscope::replica
