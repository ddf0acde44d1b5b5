// One decoded binlog event: the v4 common header, where it is, and a typed body for each event kind
// that a MariaDB 10.x or MySQL 5.6 to 8.x server writes into a row-based binlog.
// Events own their data (strings and row values are copies), so an event may outlive the RawEvent it
// came from and the decoder.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/binlog/event_type.h"
#include "engine/binlog/query_event.h"
#include "engine/binlog/rows_event.h"
#include "engine/binlog/table_map.h"

namespace syncscope::binlog {

struct EventHeader {
    static constexpr uint16_t kIgnorableFlag = 0x0080;   // LOG_EVENT_IGNORABLE_F
    static constexpr uint16_t kArtificialFlag = 0x0020;  // LOG_EVENT_ARTIFICIAL_F

    uint32_t timestamp = 0;  // seconds since the epoch
    EventType type = EventType::Unknown;
    uint32_t serverId = 0;
    uint32_t eventSize = 0;  // header + body + checksum
    uint32_t logPos = 0;     // end position of the event in its file (0 for some artificial events)
    uint16_t flags = 0;
};

enum class ChecksumAlgorithm : uint8_t { Off = 0, Crc32 = 1, Undefined = 255 };

struct FormatDescriptionEvent {
    uint16_t binlogVersion = 4;
    std::string serverVersion;  // e.g. "10.11.6-MariaDB-log"
    uint32_t createTimestamp = 0;
    uint8_t headerLength = 19;
    std::vector<uint8_t> postHeaderLengths;  // index = type code - 1
    ChecksumAlgorithm checksum = ChecksumAlgorithm::Off;
    bool isMariaDb() const { return serverVersion.find("MariaDB") != std::string::npos; }
};

struct RotateEvent {
    uint64_t position = 0;
    std::string nextFile;
};

struct XidEvent {
    uint64_t xid = 0;
};

struct StopEvent {};

// HEARTBEAT (v1: file name in the body, position in the header) and HEARTBEAT_V2 (both in the body).
struct HeartbeatEvent {
    bool v2 = false;
    std::string logFile;
    uint64_t logPosition = 0;
};

struct IntvarEvent {
    uint8_t kind = 0;  // 1 LAST_INSERT_ID, 2 INSERT_ID
    uint64_t value = 0;
};

struct RandEvent {
    uint64_t seed1 = 0;
    uint64_t seed2 = 0;
};

// MariaDB GTID event: starts an event group; the GTID is domain-server-seq (server = header.serverId).
struct MariaDbGtidEvent {
    static constexpr uint8_t kStandalone = 0x01;     // FL_STANDALONE: no terminating COMMIT/XID
    static constexpr uint8_t kGroupCommitId = 0x02;  // FL_GROUP_COMMIT_ID
    static constexpr uint8_t kTransactional = 0x04;  // FL_TRANSACTIONAL
    static constexpr uint8_t kAllowParallel = 0x08;  // FL_ALLOW_PARALLEL
    static constexpr uint8_t kWaited = 0x10;         // FL_WAITED
    static constexpr uint8_t kDdl = 0x20;            // FL_DDL
    static constexpr uint8_t kPreparedXa = 0x40;     // FL_PREPARED_XA
    static constexpr uint8_t kCompletedXa = 0x80;    // FL_COMPLETED_XA

    uint32_t domainId = 0;
    uint32_t serverId = 0;
    uint64_t sequence = 0;
    uint8_t flags = 0;
    std::optional<uint64_t> commitId;  // group commit id when kGroupCommitId
    std::string xid;                   // XA xid bytes (gtrid + bqual) when an XA flag is set
    uint32_t xidFormatId = 0;
    uint8_t xidGtridLength = 0;  // the first xidGtridLength bytes of xid are the gtrid, the rest the bqual
    uint8_t flagsExtra = 0;      // MariaDB 10.5+ extra flags
    std::optional<uint64_t> startAlterSequence;
    std::string text() const;  // "domain-server-seq"
};

struct MariaDbGtid {
    uint32_t domainId = 0;
    uint32_t serverId = 0;
    uint64_t sequence = 0;
};

struct GtidListEvent {
    uint8_t flags = 0;  // upper 4 bits of the count field
    std::vector<MariaDbGtid> gtids;
    std::string text() const;  // "0-1-100,1-2-5"
};

struct BinlogCheckpointEvent {
    std::string file;
};

struct AnnotateRowsEvent {
    std::string query;
};

using Uuid = std::array<uint8_t, 16>;
std::string uuidText(const Uuid& uuid);  // 8-4-4-4-12 lower-case hex

// MySQL GTID and ANONYMOUS_GTID events.
struct MySqlGtidEvent {
    bool anonymous = false;
    uint8_t flags = 0;  // bit 0: may commit in parallel ("commit flag")
    Uuid uuid{};
    int64_t gno = 0;
    std::optional<int64_t> lastCommitted;
    std::optional<int64_t> sequenceNumber;
    std::optional<uint64_t> immediateCommitTimestamp;  // microseconds
    std::optional<uint64_t> originalCommitTimestamp;
    std::optional<uint64_t> transactionLength;
    std::optional<uint32_t> immediateServerVersion;
    std::optional<uint32_t> originalServerVersion;
    std::string text() const;  // "uuid:gno"
};

struct GtidInterval {
    int64_t start = 0;  // first transaction number
    int64_t end = 0;    // one past the last, as logged
};

struct PreviousGtidsEvent {
    struct SourceIntervals {
        Uuid uuid{};
        std::vector<GtidInterval> intervals;
    };
    std::vector<SourceIntervals> sources;
    std::string text() const;  // "uuid:1-5:7-9,uuid2:1-3"
};

struct RowsQueryEvent {
    std::string query;
};

struct Event;

// MySQL 8.0.20+ binlog_transaction_compression: the whole transaction in one zstd frame.
// The inner events (without checksums) are decoded into `events` as ordinary events.
struct TransactionPayloadEvent {
    enum class Compression : uint8_t { Zstd = 0, None = 255 };
    Compression compression = Compression::Zstd;
    uint64_t payloadSize = 0;
    uint64_t uncompressedSize = 0;
    std::vector<Event> events;
};

struct TableMapEvent {
    TableMapPtr table;
};

struct IncidentEvent {
    uint16_t incident = 0;
    std::string message;
};

// An event type that is known but carries nothing the engine uses (LOAD events, USER_VAR, ...):
// its body as logged.
struct OtherEvent {
    std::string body;
};

// An unknown event flagged LOG_EVENT_IGNORABLE_F: skipped, but its position still counts.
struct IgnoredEvent {
    uint8_t typeCode = 0;
};

using EventBody = std::variant<OtherEvent, IgnoredEvent, FormatDescriptionEvent, RotateEvent, QueryEvent, XidEvent,
                               StopEvent, HeartbeatEvent, IntvarEvent, RandEvent, MariaDbGtidEvent, GtidListEvent,
                               BinlogCheckpointEvent, AnnotateRowsEvent, MySqlGtidEvent, PreviousGtidsEvent,
                               RowsQueryEvent, TransactionPayloadEvent, TableMapEvent, RowsEvent, IncidentEvent>;

struct Event {
    EventHeader header;
    std::string_view file;       // the source's file name (RawEvent::file); owned by the source
    uint64_t pos = 0;            // start offset in the file (for events inside a payload: the payload's)
    uint64_t endPos = 0;         // end offset in the file (header.logPos, or pos + size when that is 0)
    bool insidePayload = false;  // came out of a TRANSACTION_PAYLOAD
    EventBody body;

    EventType type() const { return header.type; }
    template <typename T>
    const T* as() const {
        return std::get_if<T>(&body);
    }
};

}  // namespace syncscope::binlog
