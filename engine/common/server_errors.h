// MySQL/MariaDB server and client error numbers the engine acts on, named once (the server's own names from
// mysqld_error.h and errmsg.h in comments). Every part uses these; none declares a number of its own.
#pragma once

namespace syncscope::server_error {

// Server errors (mysqld_error.h).
constexpr int kDatabaseExists = 1007;                // ER_DB_CREATE_EXISTS
constexpr int kDatabaseMissing = 1008;               // ER_DB_DROP_EXISTS
constexpr int kTooManyConnections = 1040;            // ER_CON_COUNT_ERROR
constexpr int kDatabaseAccessDenied = 1044;          // ER_DBACCESS_DENIED_ERROR
constexpr int kAccessDenied = 1045;                  // ER_ACCESS_DENIED_ERROR
constexpr int kColumnCannotBeNull = 1048;            // ER_BAD_NULL_ERROR
constexpr int kUnknownDatabase = 1049;               // ER_BAD_DB_ERROR
constexpr int kTableExists = 1050;                   // ER_TABLE_EXISTS_ERROR
constexpr int kUnknownTable = 1051;                  // ER_BAD_TABLE_ERROR
constexpr int kServerShutdown = 1053;                // ER_SERVER_SHUTDOWN
constexpr int kUnknownColumn = 1054;                 // ER_BAD_FIELD_ERROR
constexpr int kDuplicateColumn = 1060;               // ER_DUP_FIELDNAME
constexpr int kDuplicateKeyName = 1061;              // ER_DUP_KEYNAME
constexpr int kDuplicateEntry = 1062;                // ER_DUP_ENTRY
constexpr int kCannotDropField = 1091;               // ER_CANT_DROP_FIELD_OR_KEY
constexpr int kTableAccessDenied = 1142;             // ER_TABLEACCESS_DENIED_ERROR
constexpr int kNoSuchTable = 1146;                   // ER_NO_SUCH_TABLE
constexpr int kNetReadError = 1158;                  // ER_NET_READ_ERROR
constexpr int kNetReadInterrupted = 1159;            // ER_NET_READ_INTERRUPTED
constexpr int kNetWriteError = 1160;                 // ER_NET_ERROR_ON_WRITE
constexpr int kNetWriteInterrupted = 1161;           // ER_NET_WRITE_INTERRUPTED
constexpr int kLockWaitTimeout = 1205;               // ER_LOCK_WAIT_TIMEOUT
constexpr int kDeadlock = 1213;                      // ER_LOCK_DEADLOCK
constexpr int kSpecificAccessDenied = 1227;          // ER_SPECIFIC_ACCESS_DENIED_ERROR
constexpr int kOutOfRange = 1264;                    // ER_WARN_DATA_OUT_OF_RANGE
constexpr int kReadOnly = 1290;                      // ER_OPTION_PREVENTS_STATEMENT
constexpr int kQueryInterrupted = 1317;              // ER_QUERY_INTERRUPTED
constexpr int kIncorrectValue = 1366;                // ER_TRUNCATED_WRONG_VALUE_FOR_FIELD
constexpr int kDataTooLong = 1406;                   // ER_DATA_TOO_LONG
constexpr int kRowIsReferenced = 1451;               // ER_ROW_IS_REFERENCED_2 (a parent row its children still need)
constexpr int kNoReferencedRow = 1452;               // ER_NO_REFERENCED_ROW_2 (a child row without its parent)
constexpr int kForeignDuplicateWithChild = 1761;     // ER_FOREIGN_DUPLICATE_KEY_WITH_CHILD_INFO
constexpr int kForeignDuplicateWithoutChild = 1762;  // ER_FOREIGN_DUPLICATE_KEY_WITHOUT_CHILD_INFO
constexpr int kConnectionKilled = 1927;              // ER_CONNECTION_KILLED (MariaDB)

// Client errors (errmsg.h).
constexpr int kCannotConnectLocal = 2002;  // CR_CONNECTION_ERROR
constexpr int kCannotConnect = 2003;       // CR_CONN_HOST_ERROR
constexpr int kUnknownHost = 2005;         // CR_UNKNOWN_HOST
constexpr int kServerGone = 2006;          // CR_SERVER_GONE_ERROR
constexpr int kServerLost = 2013;          // CR_SERVER_LOST
constexpr int kTlsError = 2026;            // CR_SSL_CONNECTION_ERROR
constexpr int kServerLostExtended = 2055;  // CR_SERVER_LOST_EXTENDED

}  // namespace syncscope::server_error
