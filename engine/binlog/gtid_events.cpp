// GTID events of both servers: MariaDB's GTID and GTID_LIST, MySQL's GTID, ANONYMOUS_GTID and
// PREVIOUS_GTIDS. GTIDs stay plain fields and text here; the GTID set types live in mysql_gtid_set.h
// and mariadb_gtid_position.h.
#include "engine/binlog/event_body_decoders.h"

namespace syncscope::binlog::detail {

namespace {

constexpr size_t kMariaDbXidMaxPart = 64;            // gtrid and bqual are at most 64 bytes each
constexpr uint8_t kExtraMultiEngine = 0x01;          // FL_EXTRA_MULTI_ENGINE_E1
constexpr uint8_t kExtraCommitAlter = 0x04;          // FL_COMMIT_ALTER_E1
constexpr uint8_t kExtraRollbackAlter = 0x08;        // FL_ROLLBACK_ALTER_E1
constexpr uint32_t kGtidListCountMask = 0x0FFFFFFF;  // low 28 bits count, high 4 bits flags
constexpr unsigned kGtidListFlagsShift = 28;
constexpr size_t kGtidListEntrySize = 16;
constexpr uint8_t kLogicalTimestampTypeCode = 2;
constexpr size_t kCommitTimestampLength = 7;
constexpr uint64_t kOriginalTimestampFollows = 1ULL << 55;
constexpr uint32_t kOriginalServerVersionFollows = 1U << 31;
constexpr size_t kPreviousGtidsIntervalSize = 16;
constexpr size_t kUuidSize = 16;

}  // namespace

MariaDbGtidEvent decodeMariaDbGtid(ByteReader& body, const EventHeader& header) {
    MariaDbGtidEvent gtid;
    gtid.sequence = body.u64("GTID sequence number");
    gtid.domainId = body.u32("GTID domain id");
    gtid.serverId = header.serverId;
    gtid.flags = body.u8("GTID flags");
    if ((gtid.flags & MariaDbGtidEvent::kGroupCommitId) != 0) {
        gtid.commitId = body.u64("GTID commit id");
    }
    if ((gtid.flags & (MariaDbGtidEvent::kPreparedXa | MariaDbGtidEvent::kCompletedXa)) != 0) {
        gtid.xidFormatId = body.u32("XA format id");
        const uint8_t gtridLength = body.u8("XA gtrid length");
        const uint8_t bqualLength = body.u8("XA bqual length");
        if (gtridLength > kMariaDbXidMaxPart || bqualLength > kMariaDbXidMaxPart) {
            throw EventFormatError("XA xid part longer than 64 bytes");
        }
        gtid.xidGtridLength = gtridLength;
        gtid.xid.assign(body.bytes(gtridLength + bqualLength, "XA xid"));
    }
    // MariaDB 10.5+: extra flags after the fixed part (zero padding in older events).
    if (!body.atEnd()) {
        gtid.flagsExtra = body.u8("GTID extra flags");
        if ((gtid.flagsExtra & kExtraMultiEngine) != 0) {
            body.u8("GTID extra engines");
        }
        if ((gtid.flagsExtra & (kExtraCommitAlter | kExtraRollbackAlter)) != 0) {
            gtid.startAlterSequence = body.u64("GTID start alter sequence number");
        }
    }
    return gtid;
}

GtidListEvent decodeGtidList(ByteReader& body) {
    const uint32_t countAndFlags = body.u32("GTID list count");
    GtidListEvent list;
    list.flags = static_cast<uint8_t>(countAndFlags >> kGtidListFlagsShift);
    const uint32_t count = countAndFlags & kGtidListCountMask;
    body.need(static_cast<size_t>(count) * kGtidListEntrySize, "GTID list entries");
    list.gtids.reserve(count);
    for (uint32_t i = 0; i < count; ++i) {
        MariaDbGtid gtid;
        gtid.domainId = body.u32("GTID list domain id");
        gtid.serverId = body.u32("GTID list server id");
        gtid.sequence = body.u64("GTID list sequence number");
        list.gtids.push_back(gtid);
    }
    return list;
}

MySqlGtidEvent decodeMySqlGtid(ByteReader& body, bool anonymous) {
    MySqlGtidEvent gtid;
    gtid.anonymous = anonymous;
    gtid.flags = body.u8("GTID flags");
    const std::string_view uuid = body.bytes(kUuidSize, "GTID source uuid");
    std::copy(uuid.begin(), uuid.end(), gtid.uuid.begin());
    gtid.gno = static_cast<int64_t>(body.u64("GTID transaction number"));
    if (body.atEnd()) {
        return gtid;  // MySQL 5.6
    }
    const uint8_t timestampType = body.u8("GTID logical timestamp type");
    if (timestampType != kLogicalTimestampTypeCode) {
        throw EventFormatError("GTID logical timestamp type " + std::to_string(timestampType) + " (expected 2)");
    }
    gtid.lastCommitted = static_cast<int64_t>(body.u64("GTID last committed"));
    gtid.sequenceNumber = static_cast<int64_t>(body.u64("GTID sequence number"));
    if (body.atEnd()) {
        return gtid;  // MySQL 5.7
    }
    uint64_t immediate = body.uintN(kCommitTimestampLength, "GTID immediate commit timestamp");
    if ((immediate & kOriginalTimestampFollows) != 0) {
        immediate &= ~kOriginalTimestampFollows;
        gtid.originalCommitTimestamp = body.uintN(kCommitTimestampLength, "GTID original commit timestamp");
    } else {
        gtid.originalCommitTimestamp = immediate;
    }
    gtid.immediateCommitTimestamp = immediate;
    if (body.atEnd()) {
        return gtid;
    }
    gtid.transactionLength = body.packedInt("GTID transaction length");
    if (body.atEnd()) {
        return gtid;
    }
    uint32_t serverVersion = body.u32("GTID immediate server version");
    if ((serverVersion & kOriginalServerVersionFollows) != 0) {
        serverVersion &= ~kOriginalServerVersionFollows;
        gtid.originalServerVersion = body.u32("GTID original server version");
    } else {
        gtid.originalServerVersion = serverVersion;
    }
    gtid.immediateServerVersion = serverVersion;
    // Later fields (commit group ticket, ...) are not needed; they end the event.
    return gtid;
}

PreviousGtidsEvent decodePreviousGtids(ByteReader& body) {
    PreviousGtidsEvent previous;
    const uint64_t sourceCount = body.u64("previous GTIDs source count");
    // Each source needs at least a uuid and an interval count: bound the count before reserving.
    constexpr size_t kSourceMinimumSize = kUuidSize + sizeof(uint64_t);
    if (sourceCount > body.remaining() / kSourceMinimumSize) {
        throw TruncatedError("truncated previous GTIDs: " + std::to_string(sourceCount) + " sources announced, " +
                             std::to_string(body.remaining()) + " bytes left");
    }
    for (uint64_t i = 0; i < sourceCount; ++i) {
        PreviousGtidsEvent::SourceIntervals source;
        const std::string_view uuid = body.bytes(kUuidSize, "previous GTIDs uuid");
        std::copy(uuid.begin(), uuid.end(), source.uuid.begin());
        const uint64_t intervalCount = body.u64("previous GTIDs interval count");
        if (intervalCount > body.remaining() / kPreviousGtidsIntervalSize) {
            throw TruncatedError("truncated previous GTIDs intervals: " + std::to_string(intervalCount) +
                                 " intervals announced, " + std::to_string(body.remaining()) + " bytes left");
        }
        source.intervals.reserve(intervalCount);
        for (uint64_t k = 0; k < intervalCount; ++k) {
            GtidInterval interval;
            interval.start = static_cast<int64_t>(body.u64("previous GTIDs interval start"));
            interval.end = static_cast<int64_t>(body.u64("previous GTIDs interval end"));
            if (interval.end <= interval.start) {
                throw EventFormatError("previous GTIDs interval " + std::to_string(interval.start) + "-" +
                                       std::to_string(interval.end) + " is empty or reversed");
            }
            source.intervals.push_back(interval);
        }
        previous.sources.push_back(std::move(source));
    }
    return previous;
}

}  // namespace syncscope::binlog::detail
