// Binlog event type codes (v4 format) as MySQL 5.6 to 8.x and MariaDB 10.x write them, and their names.
#pragma once

#include <cstdint>
#include <string_view>

namespace syncscope::binlog {

enum class EventType : uint8_t {
    Unknown = 0,
    StartV3 = 1,
    Query = 2,
    Stop = 3,
    Rotate = 4,
    Intvar = 5,
    Load = 6,
    Slave = 7,
    CreateFile = 8,
    AppendBlock = 9,
    ExecLoad = 10,
    DeleteFile = 11,
    NewLoad = 12,
    Rand = 13,
    UserVar = 14,
    FormatDescription = 15,
    Xid = 16,
    BeginLoadQuery = 17,
    ExecuteLoadQuery = 18,
    TableMap = 19,
    WriteRowsV0 = 20,  // PRE_GA_WRITE_ROWS (MySQL 5.1.0 to 5.1.15)
    UpdateRowsV0 = 21,
    DeleteRowsV0 = 22,
    WriteRowsV1 = 23,
    UpdateRowsV1 = 24,
    DeleteRowsV1 = 25,
    Incident = 26,
    Heartbeat = 27,
    Ignorable = 28,
    RowsQuery = 29,
    WriteRowsV2 = 30,
    UpdateRowsV2 = 31,
    DeleteRowsV2 = 32,
    Gtid = 33,
    AnonymousGtid = 34,
    PreviousGtids = 35,
    TransactionContext = 36,
    ViewChange = 37,
    XaPrepare = 38,
    PartialUpdateRows = 39,
    TransactionPayload = 40,
    HeartbeatV2 = 41,
    GtidTagged = 42,
    // MariaDB
    AnnotateRows = 160,
    BinlogCheckpoint = 161,
    MariaDbGtid = 162,
    GtidList = 163,
    StartEncryption = 164,
    QueryCompressed = 165,
    WriteRowsCompressedV1 = 166,
    UpdateRowsCompressedV1 = 167,
    DeleteRowsCompressedV1 = 168,
    WriteRowsCompressed = 169,
    UpdateRowsCompressed = 170,
    DeleteRowsCompressed = 171,
};

// The server's own name for the type ("WRITE_ROWS_EVENT_V1", "GTID_EVENT", ...); "UNKNOWN_EVENT_<n>"
// style names are not produced: an unknown code gives "UNKNOWN".
std::string_view eventTypeName(EventType type);

// True for a code this decoder knows (not necessarily decodes in detail).
bool isKnownEventType(uint8_t code);

}  // namespace syncscope::binlog
