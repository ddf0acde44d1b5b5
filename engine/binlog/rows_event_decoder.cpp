#include "engine/binlog/rows_event_decoder.h"

#include "engine/binlog/compression.h"
#include "engine/binlog/event_body_decoders.h"
#include "engine/binlog/value_decoder.h"

namespace syncscope::binlog {

namespace {

constexpr uint8_t kShortTableIdPostHeader = 6;
constexpr size_t kShortTableIdSize = 4;
constexpr size_t kTableIdSize = 6;
constexpr uint8_t kRowsV1PostHeader = 8;
constexpr uint8_t kRowsV2PostHeader = 10;
constexpr uint16_t kExtraDataLengthSize = 2;  // the v2 extra-data length counts its own 2 bytes
constexpr uint64_t kPartialJsonUpdates = 1;   // binlog_row_value_options PARTIAL_JSON_UPDATES
constexpr uint16_t kMaxJsonLengthSize = 4;
// Bounds the memory one event can take (absent columns of MINIMAL images still get a slot each).
constexpr size_t kMaxValuesPerEvent = size_t{1} << 24;

struct RowsKind {
    RowsOp op;
    uint8_t version;
    bool compressed;
    bool partial;
};

RowsKind rowsKind(EventType type) {
    switch (type) {
        case EventType::WriteRowsV0:
            return {RowsOp::Insert, 0, false, false};
        case EventType::UpdateRowsV0:
            return {RowsOp::Update, 0, false, false};
        case EventType::DeleteRowsV0:
            return {RowsOp::Delete, 0, false, false};
        case EventType::WriteRowsV1:
            return {RowsOp::Insert, 1, false, false};
        case EventType::UpdateRowsV1:
            return {RowsOp::Update, 1, false, false};
        case EventType::DeleteRowsV1:
            return {RowsOp::Delete, 1, false, false};
        case EventType::WriteRowsV2:
            return {RowsOp::Insert, 2, false, false};
        case EventType::UpdateRowsV2:
            return {RowsOp::Update, 2, false, false};
        case EventType::DeleteRowsV2:
            return {RowsOp::Delete, 2, false, false};
        case EventType::PartialUpdateRows:
            return {RowsOp::Update, 2, false, true};
        case EventType::WriteRowsCompressedV1:
            return {RowsOp::Insert, 1, true, false};
        case EventType::UpdateRowsCompressedV1:
            return {RowsOp::Update, 1, true, false};
        case EventType::DeleteRowsCompressedV1:
            return {RowsOp::Delete, 1, true, false};
        case EventType::WriteRowsCompressed:
            return {RowsOp::Insert, 2, true, false};
        case EventType::UpdateRowsCompressed:
            return {RowsOp::Update, 2, true, false};
        case EventType::DeleteRowsCompressed:
            return {RowsOp::Delete, 2, true, false};
        default:
            throw EventFormatError("not a rows event");
    }
}

// Reads a column bitmap into `bitmap` (reusing its capacity); returns how many bits are set.
size_t readBitmap(ByteReader& reader, size_t bits, std::vector<bool>& bitmap, const char* what) {
    const std::string_view bytes = reader.bytes((bits + 7) / 8, what);
    bitmap.resize(bits);
    size_t setCount = 0;
    for (size_t i = 0; i < bits; ++i) {
        const bool set = ((static_cast<uint8_t>(bytes[i / 8]) >> (i % 8)) & 1U) != 0;
        bitmap[i] = set;
        setCount += set ? 1 : 0;
    }
    return setCount;
}

bool bitSet(std::string_view bitmap, size_t index) {
    return ((static_cast<uint8_t>(bitmap[index / 8]) >> (index % 8)) & 1U) != 0;
}

std::string columnLabel(const TableMap& table, size_t index) {
    std::string label = "`" + table.schema + "`.`" + table.table + "` column " + std::to_string(index + 1);
    if (!table.columns[index].name.empty()) {
        label += " (" + table.columns[index].name + ")";
    }
    return label;
}

std::vector<JsonDiff> readJsonDiffs(ByteReader& value) {
    std::vector<JsonDiff> diffs;
    while (!value.atEnd()) {
        JsonDiff diff;
        const uint8_t op = value.u8("JSON diff operation");
        if (op > static_cast<uint8_t>(JsonDiff::Operation::Remove)) {
            throw EventFormatError("unknown JSON diff operation " + std::to_string(op));
        }
        diff.op = static_cast<JsonDiff::Operation>(op);
        const uint64_t pathLength = value.packedInt("JSON diff path length");
        value.need(pathLength, "JSON diff path");
        diff.path.assign(value.bytes(static_cast<size_t>(pathLength), "JSON diff path"));
        if (diff.op != JsonDiff::Operation::Remove) {
            const uint64_t valueLength = value.packedInt("JSON diff value length");
            value.need(valueLength, "JSON diff value");
            diff.binaryValue.assign(value.bytes(static_cast<size_t>(valueLength), "JSON diff value"));
        }
        diffs.push_back(std::move(diff));
    }
    return diffs;
}

}  // namespace

bool RowsEventDecoder::handles(EventType type) {
    switch (type) {
        case EventType::WriteRowsV0:
        case EventType::UpdateRowsV0:
        case EventType::DeleteRowsV0:
        case EventType::WriteRowsV1:
        case EventType::UpdateRowsV1:
        case EventType::DeleteRowsV1:
        case EventType::WriteRowsV2:
        case EventType::UpdateRowsV2:
        case EventType::DeleteRowsV2:
        case EventType::PartialUpdateRows:
        case EventType::WriteRowsCompressedV1:
        case EventType::UpdateRowsCompressedV1:
        case EventType::DeleteRowsCompressedV1:
        case EventType::WriteRowsCompressed:
        case EventType::UpdateRowsCompressed:
        case EventType::DeleteRowsCompressed:
            return true;
        default:
            return false;
    }
}

RowsEvent RowsEventDecoder::decode(ByteReader& body, EventType type, const FormatDescriptionEvent& fde,
                                   const TableMaps& tables) {
    RowsEvent event;
    decodeInto(body, type, fde, tables, event);
    return event;
}

void RowsEventDecoder::decodeInto(ByteReader& body, EventType type, const FormatDescriptionEvent& fde,
                                  const TableMaps& tables, RowsEvent& event, TextStorage storage) {
    const RowsKind kind = rowsKind(type);
    event.values.clear();
    event.rows.clear();
    event.partialJson.clear();
    event.extraData.clear();
    event.presentBefore.clear();
    event.presentAfter.clear();
    event.table.reset();
    event.op = kind.op;
    event.version = kind.version;
    event.compressed = kind.compressed;
    event.partialUpdate = kind.partial;

    const uint8_t postHeader =
        detail::postHeaderLength(fde, type, kind.version == 2 ? kRowsV2PostHeader : kRowsV1PostHeader);
    ByteReader post = body.sub(postHeader, "rows post-header");
    event.tableId = post.uintN(postHeader == kShortTableIdPostHeader ? kShortTableIdSize : kTableIdSize, "table id");
    event.flags = post.u16("rows flags");
    if (kind.version == 2) {
        const uint16_t extraLength = post.u16("extra data length");
        if (extraLength < kExtraDataLengthSize) {
            throw EventFormatError("extra data length " + std::to_string(extraLength) + " is under 2");
        }
        event.extraData.assign(body.bytes(extraLength - kExtraDataLengthSize, "extra data"));
    }

    const auto found = tables.find(event.tableId);
    if (found == tables.end() || !found->second) {
        throw EventFormatError("rows event for table id " + std::to_string(event.tableId) +
                               " without a TABLE_MAP event before it");
    }
    event.table = found->second;
    const TableMap& table = *event.table;

    const uint64_t width = body.packedInt("column count");
    if (width != table.columns.size()) {
        throw EventFormatError("rows event for `" + table.schema + "`.`" + table.table + "` has " +
                               std::to_string(width) + " columns, its TABLE_MAP has " +
                               std::to_string(table.columns.size()));
    }
    event.columnCount = static_cast<uint32_t>(width);
    size_t presentBefore = 0;
    size_t presentAfter = 0;
    const bool hasBefore = kind.op != RowsOp::Insert;
    const bool hasAfter = kind.op != RowsOp::Delete;
    if (hasBefore) {
        presentBefore = readBitmap(body, width, event.presentBefore, "columns bitmap");
    }
    if (hasAfter) {
        presentAfter =
            readBitmap(body, width, event.presentAfter, hasBefore ? "after-image columns bitmap" : "columns bitmap");
    }

    ByteReader rows = body;
    if (kind.compressed) {
        inflateMariaDbCompressed(body.rest(), inflated_, "compressed rows");
        rows = ByteReader(inflated_);
        // inflated_ is overwritten by the next compressed event, which may be decoded while this
        // one is still held (inside a transaction payload): its values own their bytes.
        storage = TextStorage::Copy;
    }
    while (!rows.atEnd()) {
        const size_t rowStart = rows.offset();
        if (event.values.size() + 2 * size_t{event.columnCount} > kMaxValuesPerEvent) {
            throw EventFormatError("rows event holds more than " + std::to_string(kMaxValuesPerEvent) + " values");
        }
        RowChange change;
        if (hasBefore) {
            change.before = static_cast<uint32_t>(event.values.size());
            event.rows.push_back(change);
            decodeImage(rows, event, event.presentBefore, presentBefore, false, storage);
        }
        if (hasAfter) {
            if (!hasBefore) {
                event.rows.push_back(change);
            }
            event.rows.back().after = static_cast<uint32_t>(event.values.size());
            decodeImage(rows, event, event.presentAfter, presentAfter, true, storage);
        }
        if (rows.offset() == rowStart) {
            throw EventFormatError("row of zero bytes (no column present) with " + std::to_string(rows.remaining()) +
                                   " bytes of rows left");
        }
    }
}

void RowsEventDecoder::decodeImage(ByteReader& rows, RowsEvent& event, const std::vector<bool>& present,
                                   size_t presentCount, bool afterImage, TextStorage storage) {
    const TableMap& table = *event.table;
    std::string_view partialBits;
    if (event.partialUpdate && afterImage) {
        const uint64_t options = rows.packedInt("row value options");
        if ((options & kPartialJsonUpdates) != 0) {
            partialBits = rows.bytes((table.jsonColumnCount() + 7) / 8, "partial JSON bitmap");
        }
    }
    const std::string_view nullBitmap = rows.bytes((presentCount + 7) / 8, "row null bitmap");
    const size_t first = event.values.size();
    event.values.resize(first + event.columnCount);
    if (presentCount == event.columnCount && partialBits.empty()) {
        // Every column present and no JSON diffs (a FULL image): the null bitmap is indexed by column.
        ColumnValue* const values = event.values.data() + first;
        const ColumnDef* const columns = table.columns.data();
        size_t i = 0;
        try {
            for (; i < event.columnCount; ++i) {
                if (!bitSet(nullBitmap, i)) {
                    decodeColumnValueInto(columns[i], rows, values[i], storage);
                }
            }
        } catch (const Error& e) {
            throw EventFormatError(columnLabel(table, i) + ": " + e.what());
        }
        return;
    }
    size_t presentIndex = 0;
    size_t jsonIndex = 0;
    for (size_t i = 0; i < event.columnCount; ++i) {
        const ColumnDef& column = table.columns[i];
        const bool isJson = column.type == ColumnType::Json;
        if (!present[i]) {
            jsonIndex += isJson ? 1 : 0;
            continue;
        }
        const bool isNull = bitSet(nullBitmap, presentIndex++);
        const bool partial = isJson && !partialBits.empty() && bitSet(partialBits, jsonIndex);
        jsonIndex += isJson ? 1 : 0;
        if (isNull) {
            continue;  // the slot is already a NULL value
        }
        try {
            if (partial) {
                if (column.meta == 0 || column.meta > kMaxJsonLengthSize) {
                    throw EventFormatError("JSON length size " + std::to_string(column.meta) + " is not 1 to 4");
                }
                const uint64_t length = rows.uintN(column.meta, "partial JSON length");
                rows.need(length, "partial JSON diffs");
                ByteReader diffs = rows.sub(static_cast<size_t>(length), "partial JSON diffs");
                PartialJsonValue value;
                value.row = static_cast<uint32_t>(event.rows.size() - 1);
                value.column = static_cast<uint32_t>(i);
                value.diffs = readJsonDiffs(diffs);
                event.partialJson.push_back(std::move(value));
            } else {
                decodeColumnValueInto(column, rows, event.values[first + i], storage);
            }
        } catch (const Error& e) {
            throw EventFormatError(columnLabel(table, i) + ": " + e.what());
        }
    }
}

}  // namespace syncscope::binlog
