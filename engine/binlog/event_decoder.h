// Decodes raw binlog events (v4 format) into Events. Keeps what a stream's earlier events decide:
// the FORMAT_DESCRIPTION (checksum algorithm, post-header lengths) and the table-map cache.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/binlog/event.h"
#include "engine/binlog/raw_event.h"
#include "engine/binlog/rows_event_decoder.h"

namespace syncscope::binlog {

class EventDecoder {
public:
    EventDecoder();

    // Decodes one event. Throws DecodeError ("FILE:OFFSET: what") for a truncated, inconsistent or
    // unknown (and not ignorable) event, a CRC32 mismatch, or an encrypted binlog. An unknown event
    // flagged ignorable comes back as IgnoredEvent. A TRANSACTION_PAYLOAD comes back with its inner
    // events decoded in TransactionPayloadEvent::events.
    Event decode(const RawEvent& raw);

    // Like decode(), but appends to `out`; a TRANSACTION_PAYLOAD appends its inner events in its
    // place (marked insidePayload, with the payload's pos and endPos).
    void decodeInto(const RawEvent& raw, std::vector<Event>& out);

    // Checksum handling until a FORMAT_DESCRIPTION says otherwise (a server stream negotiates it;
    // files start with an FDE). Default: detect from the FDE.
    void setChecksum(ChecksumAlgorithm algorithm) { checksum_ = algorithm; }
    ChecksumAlgorithm checksum() const { return checksum_; }

    // Skip CRC32 verification (the bytes are still stripped) for speed when the source already checked.
    void setVerifyChecksums(bool verify) { verifyChecksums_ = verify; }

    // For a caller that is done with each event before the source reads the next one (a streaming
    // printer or benchmark): row values of text and bytes may point into the raw event's bytes (or
    // the decoder's payload buffer) instead of owning copies. They are then valid until the raw
    // event's bytes go away or the next decode call, whichever comes first. Default: Copy.
    void setRowTextStorage(TextStorage storage) { rowTextStorage_ = storage; }

    // Clears `events` and keeps the memory of their rows events (value and row vectors) for the
    // next rows events this decoder decodes, so that a loop of decodeInto() and recycle() does not
    // allocate per event.
    void recycle(std::vector<Event>& events);

    // The last FORMAT_DESCRIPTION seen, or a default v4 description before any.
    const FormatDescriptionEvent& formatDescription() const { return fde_; }

    // The table map cached for a table id, or null.
    TableMapPtr tableMap(uint64_t tableId) const;

    // Forget everything learned from the stream (a new file, a reconnect).
    void reset();

private:
    Event decodeEvent(std::string_view bytes, const RawEvent& raw, bool insidePayload);
    void decodeEventInto(std::string_view bytes, const RawEvent& raw, bool insidePayload, Event& event);
    void decodeBody(ByteReader& body, Event& event, const RawEvent& raw);
    TransactionPayloadEvent decodePayload(ByteReader& body, const Event& payload, const RawEvent& raw);
    size_t tableIdSize() const;
    std::string_view verifiedBody(std::string_view bytes, const RawEvent& raw, const EventHeader& header);

    FormatDescriptionEvent fde_;
    ChecksumAlgorithm checksum_ = ChecksumAlgorithm::Off;
    bool verifyChecksums_ = true;
    std::unordered_map<uint64_t, TableMapPtr> tableMaps_;
    // The TABLE_MAP body each cached map came from: a server repeats the same map before every
    // transaction, and an identical body reuses the decoded map instead of decoding it again.
    std::unordered_map<uint64_t, std::string> tableMapBodies_;
    RowsEventDecoder rows_;
    std::string payload_;  // decompressed TRANSACTION_PAYLOAD, reused between events
    TextStorage rowTextStorage_ = TextStorage::Copy;
    std::vector<RowsEvent> spareRows_;  // recycled rows events, their capacity kept
};

}  // namespace syncscope::binlog
