// The decoders of single event bodies that EventDecoder dispatches to. Each reads the body (after the
// common header, without the checksum) and throws TruncatedError when it ends early or
// EventFormatError when it is inconsistent; EventDecoder adds the file, the offset and the event type.
#pragma once

#include <cstdint>
#include <string>

#include "engine/binlog/byte_reader.h"
#include "engine/binlog/event.h"

namespace syncscope::binlog {

class EventFormatError : public Error {
public:
    explicit EventFormatError(const std::string& what) : Error(what) {}
};

namespace detail {

// The post-header length the FORMAT_DESCRIPTION gives for a type, or `fallback` when it has none.
uint8_t postHeaderLength(const FormatDescriptionEvent& fde, EventType type, uint8_t fallback);

FormatDescriptionEvent decodeFormatDescription(ByteReader& body);
// The FORMAT_DESCRIPTION a v4 binlog implies before its first FDE (the server's default lengths).
FormatDescriptionEvent defaultFormatDescription();

QueryEvent decodeQuery(ByteReader& body, const FormatDescriptionEvent& fde, bool compressed);
RotateEvent decodeRotate(ByteReader& body, const FormatDescriptionEvent& fde);
XidEvent decodeXid(ByteReader& body);
HeartbeatEvent decodeHeartbeat(ByteReader& body, const EventHeader& header);
HeartbeatEvent decodeHeartbeatV2(ByteReader& body);
IntvarEvent decodeIntvar(ByteReader& body);
RandEvent decodeRand(ByteReader& body);
IncidentEvent decodeIncident(ByteReader& body);
MariaDbGtidEvent decodeMariaDbGtid(ByteReader& body, const EventHeader& header);
GtidListEvent decodeGtidList(ByteReader& body);
BinlogCheckpointEvent decodeBinlogCheckpoint(ByteReader& body);
AnnotateRowsEvent decodeAnnotateRows(ByteReader& body);
MySqlGtidEvent decodeMySqlGtid(ByteReader& body, bool anonymous);
PreviousGtidsEvent decodePreviousGtids(ByteReader& body);
RowsQueryEvent decodeRowsQuery(ByteReader& body);

// TABLE_MAP with its optional metadata.
TableMapPtr decodeTableMap(ByteReader& body, const FormatDescriptionEvent& fde);

// TRANSACTION_PAYLOAD's header fields; `payload` is left at the compressed bytes.
struct TransactionPayloadHeader {
    TransactionPayloadEvent::Compression compression = TransactionPayloadEvent::Compression::Zstd;
    uint64_t payloadSize = 0;
    uint64_t uncompressedSize = 0;
    bool hasUncompressedSize = false;
    std::string_view payload;
};
TransactionPayloadHeader decodeTransactionPayloadHeader(ByteReader& body);

}  // namespace detail
}  // namespace syncscope::binlog
