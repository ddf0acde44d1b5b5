// The body of QUERY (and MariaDB QUERY_COMPRESSED) events: the statement, its default schema and the
// session state the server logged with it (status variables).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace syncscope::binlog {

// Status variables of a QUERY event; each is empty when the event does not carry it.
struct QueryStatusVars {
    struct Charset {
        uint16_t client = 0;      // character_set_client
        uint16_t connection = 0;  // collation_connection
        uint16_t server = 0;      // collation_server
    };
    struct AutoIncrement {
        uint16_t increment = 1;
        uint16_t offset = 1;
    };
    std::optional<uint32_t> flags2;
    std::optional<uint64_t> sqlMode;
    std::optional<std::string> catalog;
    std::optional<AutoIncrement> autoIncrement;
    std::optional<Charset> charset;
    std::optional<std::string> timeZone;
    std::optional<uint16_t> lcTimeNames;
    std::optional<uint16_t> charsetDatabase;
    std::optional<uint64_t> tableMapForUpdate;
    std::optional<uint32_t> masterDataWritten;
    std::optional<std::string> invokerUser;
    std::optional<std::string> invokerHost;
    std::vector<std::string> updatedDbNames;  // empty when absent or when over the logged maximum
    std::optional<uint32_t> microseconds;
    std::optional<uint8_t> explicitDefaultsForTimestamp;
    std::optional<uint64_t> ddlXid;
    std::optional<uint16_t> defaultCollationForUtf8mb4;
    std::optional<uint8_t> sqlRequirePrimaryKey;
    std::optional<uint8_t> defaultTableEncryption;
    // MariaDB
    std::optional<uint32_t> hrnowMicroseconds;  // Q_HRNOW: fraction of the event's timestamp
    std::optional<uint64_t> mariaDbXid;         // Q_XID
};

struct QueryEvent {
    // What the statement is, so that the syncer can find transaction boundaries without parsing SQL.
    enum class Kind : uint8_t { Begin, Commit, Rollback, Xa, Savepoint, Ddl, Other };

    uint32_t threadId = 0;
    uint32_t execTime = 0;
    uint16_t errorCode = 0;
    bool compressed = false;  // MariaDB QUERY_COMPRESSED_EVENT
    Kind kind = Kind::Other;
    std::string schema;  // default database, may be empty
    std::string query;   // the statement (decompressed)
    QueryStatusVars status;
};

// Classifies a statement by its first keyword(s); comments and whitespace before it are skipped.
QueryEvent::Kind classifyQuery(std::string_view query);

}  // namespace syncscope::binlog
