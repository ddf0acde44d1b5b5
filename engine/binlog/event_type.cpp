#include "engine/binlog/event_type.h"

namespace syncscope::binlog {

std::string_view eventTypeName(EventType type) {
    switch (type) {
        case EventType::Unknown:
            return "UNKNOWN_EVENT";
        case EventType::StartV3:
            return "START_EVENT_V3";
        case EventType::Query:
            return "QUERY_EVENT";
        case EventType::Stop:
            return "STOP_EVENT";
        case EventType::Rotate:
            return "ROTATE_EVENT";
        case EventType::Intvar:
            return "INTVAR_EVENT";
        case EventType::Load:
            return "LOAD_EVENT";
        case EventType::Slave:
            return "SLAVE_EVENT";
        case EventType::CreateFile:
            return "CREATE_FILE_EVENT";
        case EventType::AppendBlock:
            return "APPEND_BLOCK_EVENT";
        case EventType::ExecLoad:
            return "EXEC_LOAD_EVENT";
        case EventType::DeleteFile:
            return "DELETE_FILE_EVENT";
        case EventType::NewLoad:
            return "NEW_LOAD_EVENT";
        case EventType::Rand:
            return "RAND_EVENT";
        case EventType::UserVar:
            return "USER_VAR_EVENT";
        case EventType::FormatDescription:
            return "FORMAT_DESCRIPTION_EVENT";
        case EventType::Xid:
            return "XID_EVENT";
        case EventType::BeginLoadQuery:
            return "BEGIN_LOAD_QUERY_EVENT";
        case EventType::ExecuteLoadQuery:
            return "EXECUTE_LOAD_QUERY_EVENT";
        case EventType::TableMap:
            return "TABLE_MAP_EVENT";
        case EventType::WriteRowsV0:
            return "WRITE_ROWS_EVENT_V0";
        case EventType::UpdateRowsV0:
            return "UPDATE_ROWS_EVENT_V0";
        case EventType::DeleteRowsV0:
            return "DELETE_ROWS_EVENT_V0";
        case EventType::WriteRowsV1:
            return "WRITE_ROWS_EVENT_V1";
        case EventType::UpdateRowsV1:
            return "UPDATE_ROWS_EVENT_V1";
        case EventType::DeleteRowsV1:
            return "DELETE_ROWS_EVENT_V1";
        case EventType::Incident:
            return "INCIDENT_EVENT";
        case EventType::Heartbeat:
            return "HEARTBEAT_LOG_EVENT";
        case EventType::Ignorable:
            return "IGNORABLE_LOG_EVENT";
        case EventType::RowsQuery:
            return "ROWS_QUERY_LOG_EVENT";
        case EventType::WriteRowsV2:
            return "WRITE_ROWS_EVENT";
        case EventType::UpdateRowsV2:
            return "UPDATE_ROWS_EVENT";
        case EventType::DeleteRowsV2:
            return "DELETE_ROWS_EVENT";
        case EventType::Gtid:
            return "GTID_LOG_EVENT";
        case EventType::AnonymousGtid:
            return "ANONYMOUS_GTID_LOG_EVENT";
        case EventType::PreviousGtids:
            return "PREVIOUS_GTIDS_LOG_EVENT";
        case EventType::TransactionContext:
            return "TRANSACTION_CONTEXT_EVENT";
        case EventType::ViewChange:
            return "VIEW_CHANGE_EVENT";
        case EventType::XaPrepare:
            return "XA_PREPARE_LOG_EVENT";
        case EventType::PartialUpdateRows:
            return "PARTIAL_UPDATE_ROWS_EVENT";
        case EventType::TransactionPayload:
            return "TRANSACTION_PAYLOAD_EVENT";
        case EventType::HeartbeatV2:
            return "HEARTBEAT_LOG_EVENT_V2";
        case EventType::GtidTagged:
            return "GTID_TAGGED_LOG_EVENT";
        case EventType::AnnotateRows:
            return "ANNOTATE_ROWS_EVENT";
        case EventType::BinlogCheckpoint:
            return "BINLOG_CHECKPOINT_EVENT";
        case EventType::MariaDbGtid:
            return "GTID_EVENT";
        case EventType::GtidList:
            return "GTID_LIST_EVENT";
        case EventType::StartEncryption:
            return "START_ENCRYPTION_EVENT";
        case EventType::QueryCompressed:
            return "QUERY_COMPRESSED_EVENT";
        case EventType::WriteRowsCompressedV1:
            return "WRITE_ROWS_COMPRESSED_EVENT_V1";
        case EventType::UpdateRowsCompressedV1:
            return "UPDATE_ROWS_COMPRESSED_EVENT_V1";
        case EventType::DeleteRowsCompressedV1:
            return "DELETE_ROWS_COMPRESSED_EVENT_V1";
        case EventType::WriteRowsCompressed:
            return "WRITE_ROWS_COMPRESSED_EVENT";
        case EventType::UpdateRowsCompressed:
            return "UPDATE_ROWS_COMPRESSED_EVENT";
        case EventType::DeleteRowsCompressed:
            return "DELETE_ROWS_COMPRESSED_EVENT";
    }
    return "UNKNOWN";
}

bool isKnownEventType(uint8_t code) {
    constexpr uint8_t kLastMySqlCode = static_cast<uint8_t>(EventType::GtidTagged);
    constexpr uint8_t kFirstMariaDbCode = static_cast<uint8_t>(EventType::AnnotateRows);
    constexpr uint8_t kLastMariaDbCode = static_cast<uint8_t>(EventType::DeleteRowsCompressed);
    return (code >= 1 && code <= kLastMySqlCode) || (code >= kFirstMariaDbCode && code <= kLastMariaDbCode);
}

}  // namespace syncscope::binlog
