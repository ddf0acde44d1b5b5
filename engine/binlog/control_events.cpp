// Small event bodies: ROTATE, XID, HEARTBEAT v1/v2, INTVAR, RAND, INCIDENT, MariaDB's
// BINLOG_CHECKPOINT and ANNOTATE_ROWS, MySQL's ROWS_QUERY, and TRANSACTION_PAYLOAD's header.
#include "engine/binlog/event_body_decoders.h"

namespace syncscope::binlog::detail {

namespace {

constexpr uint8_t kRotatePositionLength = 8;

// Type-length-value fields of HEARTBEAT_V2 and TRANSACTION_PAYLOAD (MySQL's "on the wire" codec).
constexpr uint64_t kFieldEndMark = 0;
constexpr uint64_t kHeartbeatLogFilename = 1;
constexpr uint64_t kHeartbeatLogPosition = 2;
constexpr uint64_t kPayloadSize = 1;
constexpr uint64_t kPayloadCompressionType = 2;
constexpr uint64_t kPayloadUncompressedSize = 3;

struct Field {
    uint64_t type = kFieldEndMark;
    ByteReader value;
};

// Reads one field; the end mark has no length and no value.
Field readField(ByteReader& body) {
    Field field;
    field.type = body.packedInt("field type");
    if (field.type == kFieldEndMark) {
        return field;
    }
    const uint64_t length = body.packedInt("field length");
    body.need(length, "field value");
    field.value = body.sub(static_cast<size_t>(length), "field value");
    return field;
}

}  // namespace

RotateEvent decodeRotate(ByteReader& body, const FormatDescriptionEvent& fde) {
    RotateEvent rotate;
    if (postHeaderLength(fde, EventType::Rotate, kRotatePositionLength) >= kRotatePositionLength) {
        rotate.position = body.u64("rotate position");
    }
    rotate.nextFile.assign(body.rest());
    if (rotate.nextFile.empty()) {
        throw EventFormatError("rotate event without a file name");
    }
    return rotate;
}

XidEvent decodeXid(ByteReader& body) {
    return XidEvent{body.u64("xid")};
}

HeartbeatEvent decodeHeartbeat(ByteReader& body, const EventHeader& header) {
    HeartbeatEvent heartbeat;
    heartbeat.logFile.assign(body.rest());
    heartbeat.logPosition = header.logPos;
    return heartbeat;
}

HeartbeatEvent decodeHeartbeatV2(ByteReader& body) {
    HeartbeatEvent heartbeat;
    heartbeat.v2 = true;
    while (!body.atEnd()) {
        Field field = readField(body);
        if (field.type == kFieldEndMark) {
            break;
        }
        if (field.type == kHeartbeatLogFilename) {
            heartbeat.logFile.assign(field.value.rest());
        } else if (field.type == kHeartbeatLogPosition) {
            heartbeat.logPosition = field.value.packedInt("heartbeat log position");
        }  // later fields are skipped: each says its length
    }
    return heartbeat;
}

IntvarEvent decodeIntvar(ByteReader& body) {
    IntvarEvent intvar;
    intvar.kind = body.u8("intvar type");
    intvar.value = body.u64("intvar value");
    return intvar;
}

RandEvent decodeRand(ByteReader& body) {
    RandEvent rand;
    rand.seed1 = body.u64("rand seed 1");
    rand.seed2 = body.u64("rand seed 2");
    return rand;
}

IncidentEvent decodeIncident(ByteReader& body) {
    IncidentEvent incident;
    incident.incident = body.u16("incident number");
    if (!body.atEnd()) {
        const uint8_t length = body.u8("incident message length");
        incident.message.assign(body.bytes(length, "incident message"));
    }
    return incident;
}

BinlogCheckpointEvent decodeBinlogCheckpoint(ByteReader& body) {
    const uint32_t length = body.u32("checkpoint file name length");
    BinlogCheckpointEvent checkpoint;
    checkpoint.file.assign(body.bytes(length, "checkpoint file name"));
    return checkpoint;
}

AnnotateRowsEvent decodeAnnotateRows(ByteReader& body) {
    return AnnotateRowsEvent{std::string(body.rest())};
}

RowsQueryEvent decodeRowsQuery(ByteReader& body) {
    // The length byte is the query length truncated to 255; the query runs to the end of the event.
    body.u8("rows query length");
    return RowsQueryEvent{std::string(body.rest())};
}

TransactionPayloadHeader decodeTransactionPayloadHeader(ByteReader& body) {
    TransactionPayloadHeader header;
    bool hasSize = false;
    bool ended = false;
    while (!ended) {
        Field field = readField(body);
        switch (field.type) {
            case kFieldEndMark:
                ended = true;
                break;
            case kPayloadSize:
                header.payloadSize = field.value.packedInt("payload size");
                hasSize = true;
                break;
            case kPayloadCompressionType: {
                const uint64_t type = field.value.packedInt("payload compression type");
                if (type != static_cast<uint64_t>(TransactionPayloadEvent::Compression::Zstd) &&
                    type != static_cast<uint64_t>(TransactionPayloadEvent::Compression::None)) {
                    throw EventFormatError("unknown payload compression type " + std::to_string(type));
                }
                header.compression = static_cast<TransactionPayloadEvent::Compression>(type);
                break;
            }
            case kPayloadUncompressedSize:
                header.uncompressedSize = field.value.packedInt("payload uncompressed size");
                header.hasUncompressedSize = true;
                break;
            default:
                break;  // a later field: skipped, it says its length
        }
    }
    header.payload = body.rest();
    if (hasSize && header.payloadSize != header.payload.size()) {
        throw EventFormatError("payload size field says " + std::to_string(header.payloadSize) + " bytes, event has " +
                               std::to_string(header.payload.size()));
    }
    header.payloadSize = header.payload.size();
    if (!header.hasUncompressedSize && header.compression == TransactionPayloadEvent::Compression::None) {
        header.uncompressedSize = header.payloadSize;
    }
    return header;
}

}  // namespace syncscope::binlog::detail
