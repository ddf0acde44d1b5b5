// MySQL/MariaDB server error numbers the engine acts on, named once (the server's own names in comments).
#pragma once

namespace syncscope::server_error {

constexpr int kDatabaseExists = 1007;    // ER_DB_CREATE_EXISTS
constexpr int kUnknownDatabase = 1049;   // ER_BAD_DB_ERROR
constexpr int kUnknownColumn = 1054;     // ER_BAD_FIELD_ERROR
constexpr int kDatabaseMissing = 1008;   // ER_DB_DROP_EXISTS
constexpr int kTableExists = 1050;       // ER_TABLE_EXISTS_ERROR
constexpr int kUnknownTable = 1051;      // ER_BAD_TABLE_ERROR
constexpr int kDuplicateColumn = 1060;   // ER_DUP_FIELDNAME
constexpr int kDuplicateKeyName = 1061;  // ER_DUP_KEYNAME
constexpr int kDuplicateEntry = 1062;    // ER_DUP_ENTRY
constexpr int kCannotDropField = 1091;   // ER_CANT_DROP_FIELD_OR_KEY
constexpr int kNoSuchTable = 1146;       // ER_NO_SUCH_TABLE

}  // namespace syncscope::server_error
