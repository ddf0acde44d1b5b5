// QUERY and MariaDB QUERY_COMPRESSED: post-header, status variables, default schema and statement.
#include "engine/binlog/query_event.h"

#include <cctype>

#include "engine/binlog/compression.h"
#include "engine/binlog/event_body_decoders.h"

namespace syncscope::binlog {

namespace {

// Status variable codes (MySQL's Query_event::Query_event_status_vars and MariaDB's additions).
enum StatusVar : uint8_t {
    kFlags2 = 0,
    kSqlMode = 1,
    kCatalog = 2,
    kAutoIncrement = 3,
    kCharset = 4,
    kTimeZone = 5,
    kCatalogNz = 6,
    kLcTimeNames = 7,
    kCharsetDatabase = 8,
    kTableMapForUpdate = 9,
    kMasterDataWritten = 10,
    kInvoker = 11,
    kUpdatedDbNames = 12,
    kMicroseconds = 13,
    kExplicitDefaultsForTimestamp = 16,
    kDdlLoggedWithXid = 17,
    kDefaultCollationForUtf8mb4 = 18,
    kSqlRequirePrimaryKey = 19,
    kDefaultTableEncryption = 20,
    kMariaDbHrnow = 128,
    kMariaDbXid = 129,
    kMariaDbGtidFlags3 = 130,
    kMariaDbCharacterSetCollations = 131,
};

constexpr uint8_t kOverMaxDbsInEvent = 254;               // OVER_MAX_DBS_IN_EVENT_MTS: names not logged
constexpr uint8_t kGtidFlags3WithSequence = 0x04 | 0x08;  // FL_COMMIT_ALTER_E1 | FL_ROLLBACK_ALTER_E1
constexpr size_t kCharsetCollationPairSize = 4;
constexpr uint8_t kQueryMinimumPostHeader = 11;  // MySQL 3.23/4.x: no status variables length

std::string readShortString(ByteReader& vars, const char* what) {
    const uint8_t length = vars.u8(what);
    return std::string(vars.bytes(length, what));
}

void decodeStatusVars(ByteReader vars, QueryStatusVars& status) {
    while (!vars.atEnd()) {
        const uint8_t code = vars.u8("status variable code");
        switch (code) {
            case kFlags2:
                status.flags2 = vars.u32("flags2");
                break;
            case kSqlMode:
                status.sqlMode = vars.u64("sql_mode");
                break;
            case kCatalog:
                status.catalog = readShortString(vars, "catalog");
                vars.skip(1, "catalog terminator");
                break;
            case kAutoIncrement: {
                QueryStatusVars::AutoIncrement autoIncrement;
                autoIncrement.increment = vars.u16("auto_increment_increment");
                autoIncrement.offset = vars.u16("auto_increment_offset");
                status.autoIncrement = autoIncrement;
                break;
            }
            case kCharset: {
                QueryStatusVars::Charset charset;
                charset.client = vars.u16("character_set_client");
                charset.connection = vars.u16("collation_connection");
                charset.server = vars.u16("collation_server");
                status.charset = charset;
                break;
            }
            case kTimeZone:
                status.timeZone = readShortString(vars, "time_zone");
                break;
            case kCatalogNz:
                status.catalog = readShortString(vars, "catalog");
                break;
            case kLcTimeNames:
                status.lcTimeNames = vars.u16("lc_time_names");
                break;
            case kCharsetDatabase:
                status.charsetDatabase = vars.u16("collation_database");
                break;
            case kTableMapForUpdate:
                status.tableMapForUpdate = vars.u64("table_map_for_update");
                break;
            case kMasterDataWritten:
                status.masterDataWritten = vars.u32("master_data_written");
                break;
            case kInvoker:
                status.invokerUser = readShortString(vars, "invoker user");
                status.invokerHost = readShortString(vars, "invoker host");
                break;
            case kUpdatedDbNames: {
                const uint8_t count = vars.u8("updated db names count");
                if (count == kOverMaxDbsInEvent) {
                    break;
                }
                for (uint8_t i = 0; i < count; ++i) {
                    const std::string_view rest(reinterpret_cast<const char*>(vars.current()), vars.remaining());
                    const size_t end = rest.find('\0');
                    if (end == std::string_view::npos) {
                        throw TruncatedError("truncated updated db name (no terminating zero)");
                    }
                    status.updatedDbNames.emplace_back(vars.bytes(end, "updated db name"));
                    vars.skip(1, "updated db name terminator");
                }
                break;
            }
            case kMicroseconds:
                status.microseconds = vars.u24("microseconds");
                break;
            case kExplicitDefaultsForTimestamp:
                status.explicitDefaultsForTimestamp = vars.u8("explicit_defaults_for_timestamp");
                break;
            case kDdlLoggedWithXid:
                status.ddlXid = vars.u64("ddl xid");
                break;
            case kDefaultCollationForUtf8mb4:
                status.defaultCollationForUtf8mb4 = vars.u16("default_collation_for_utf8mb4");
                break;
            case kSqlRequirePrimaryKey:
                status.sqlRequirePrimaryKey = vars.u8("sql_require_primary_key");
                break;
            case kDefaultTableEncryption:
                status.defaultTableEncryption = vars.u8("default_table_encryption");
                break;
            case kMariaDbHrnow:
                status.hrnowMicroseconds = vars.u24("hrnow");
                break;
            case kMariaDbXid:
                status.mariaDbXid = vars.u64("xid");
                break;
            case kMariaDbGtidFlags3: {
                const uint8_t flags = vars.u8("gtid flags3");
                if ((flags & kGtidFlags3WithSequence) != 0) {
                    vars.skip(sizeof(uint64_t), "start alter sequence number");
                }
                break;
            }
            case kMariaDbCharacterSetCollations: {
                const uint8_t count = vars.u8("character set collations count");
                vars.skip(static_cast<size_t>(count) * kCharsetCollationPairSize, "character set collations");
                break;
            }
            default:
                // The length of an unknown variable is unknown, so nothing after it can be read.
                throw EventFormatError("unknown query status variable code " + std::to_string(code) + " at +" +
                                       std::to_string(vars.offset() - 1) + " of the status block");
        }
    }
}

bool startsWithWord(std::string_view text, std::string_view word) {
    if (text.size() < word.size()) {
        return false;
    }
    for (size_t i = 0; i < word.size(); ++i) {
        if (std::toupper(static_cast<unsigned char>(text[i])) != word[i]) {
            return false;
        }
    }
    return text.size() == word.size() ||
           !(std::isalnum(static_cast<unsigned char>(text[word.size()])) != 0 || text[word.size()] == '_');
}

// Skips whitespace and comments; enters executable comments ("/*!50100 ...").
std::string_view skipToStatement(std::string_view text) {
    size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (std::isspace(static_cast<unsigned char>(c)) != 0) {
            ++i;
        } else if (text.substr(i, 3) == "/*!" || text.substr(i, 3) == "/*M") {
            i += 3;
            while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) != 0 || text[i] == '!')) {
                ++i;
            }
        } else if (text.substr(i, 2) == "/*") {
            const size_t end = text.find("*/", i + 2);
            i = end == std::string_view::npos ? text.size() : end + 2;
        } else if (c == '#' || text.substr(i, 3) == "-- ") {
            const size_t end = text.find('\n', i);
            i = end == std::string_view::npos ? text.size() : end + 1;
        } else {
            break;
        }
    }
    return text.substr(i);
}

}  // namespace

QueryEvent::Kind classifyQuery(std::string_view query) {
    const std::string_view text = skipToStatement(query);
    using Kind = QueryEvent::Kind;
    if (startsWithWord(text, "BEGIN")) {
        return Kind::Begin;
    }
    if (startsWithWord(text, "COMMIT")) {
        return Kind::Commit;
    }
    if (startsWithWord(text, "ROLLBACK")) {
        const std::string_view after = skipToStatement(text.substr(std::string_view("ROLLBACK").size()));
        return startsWithWord(after, "TO") ? Kind::Savepoint : Kind::Rollback;
    }
    if (startsWithWord(text, "XA")) {
        return Kind::Xa;
    }
    if (startsWithWord(text, "SAVEPOINT") || startsWithWord(text, "RELEASE")) {
        return Kind::Savepoint;
    }
    for (std::string_view word : {"CREATE", "ALTER", "DROP", "RENAME", "TRUNCATE"}) {
        if (startsWithWord(text, word)) {
            return Kind::Ddl;
        }
    }
    return Kind::Other;
}

namespace detail {

QueryEvent decodeQuery(ByteReader& body, const FormatDescriptionEvent& fde, bool compressed) {
    constexpr uint8_t kQueryPostHeader = 13;
    const uint8_t postHeader =
        postHeaderLength(fde, compressed ? EventType::QueryCompressed : EventType::Query, kQueryPostHeader);
    if (postHeader < kQueryMinimumPostHeader) {
        throw EventFormatError("query post-header length " + std::to_string(postHeader) + " is under 11");
    }
    ByteReader post = body.sub(postHeader, "query post-header");
    QueryEvent query;
    query.compressed = compressed;
    query.threadId = post.u32("thread id");
    query.execTime = post.u32("exec time");
    const uint8_t schemaLength = post.u8("schema length");
    query.errorCode = post.u16("error code");
    uint16_t statusLength = 0;
    if (postHeader >= kQueryPostHeader) {
        statusLength = post.u16("status variables length");
    }
    decodeStatusVars(body.sub(statusLength, "status variables"), query.status);
    query.schema.assign(body.bytes(schemaLength, "schema name"));
    body.skip(1, "schema name terminator");
    const std::string_view statement = body.rest();
    if (compressed) {
        inflateMariaDbCompressed(statement, query.query, "compressed query");
    } else {
        query.query.assign(statement);
    }
    query.kind = classifyQuery(query.query);
    return query;
}

}  // namespace detail
}  // namespace syncscope::binlog
