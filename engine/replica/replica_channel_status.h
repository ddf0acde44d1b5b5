// One replication channel of a MariaDB (or MySQL) replica as SHOW ALL SLAVES STATUS reports it: the
// master, what the IO thread has read, what the SQL thread has executed, both threads' state, lag and
// last errors. Read by column name, so that the columns of any 10.x version are understood.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/source/upstream_connection.h"

namespace syncscope::replica {

struct ReplicaChannelStatus {
    std::string connectionName;  // "" for the default (unnamed) channel
    std::string masterHost;
    int masterPort = 0;
    std::string masterUser;
    std::string readFile;                        // Master_Log_File: the master's file the IO thread reads
    uint64_t readPos = 0;                        // Read_Master_Log_Pos
    std::string execFile;                        // Relay_Master_Log_File: the master's file of the last executed event
    uint64_t execPos = 0;                        // Exec_Master_Log_Pos
    std::string ioRunning;                       // Slave_IO_Running: Yes, No, Connecting, Preparing
    std::string sqlRunning;                      // Slave_SQL_Running: Yes, No
    std::string ioState;                         // Slave_IO_State
    std::string sqlState;                        // Slave_SQL_Running_State
    std::optional<int64_t> secondsBehindMaster;  // NULL when a thread is not running
    int lastIoErrno = 0;
    std::string lastIoError;
    int lastSqlErrno = 0;
    std::string lastSqlError;
    std::string usingGtid;         // No, Slave_Pos, Current_Pos
    std::string gtidIoPos;         // Gtid_IO_Pos: the GTIDs the IO thread has received
    std::string gtidSlavePos;      // @@gtid_slave_pos (one per replica, shown on every channel)
    uint64_t executedEntries = 0;  // Executed_log_entries (MariaDB)

    bool ioThreadRunning() const { return ioRunning == "Yes"; }
    bool sqlThreadRunning() const { return sqlRunning == "Yes"; }
    bool failed() const { return lastSqlErrno != 0 || lastIoErrno != 0; }
    // "the default channel" or "channel 'name'", for messages.
    std::string describe() const;
};

// Every row of SHOW ALL SLAVES STATUS (or SHOW SLAVE STATUS) by column name; an absent column keeps its
// default. Throws syncscope::Error naming the column when a number does not parse.
std::vector<ReplicaChannelStatus> channelsFromRows(const std::vector<std::string>& columns,
                                                   const std::vector<source::Row>& rows);

// The connection name as a SQL string literal: 'name' with quotes and backslashes escaped.
std::string connectionLiteral(const std::string& connectionName);

// The end_log_pos an SQL thread error names ("... master log mariadb-bin.000001, end_log_pos 1234"), or
// nullopt when the message names none.
std::optional<uint64_t> failedEventEndPos(const std::string& lastSqlError);

}  // namespace syncscope::replica
