// TABLE_MAP: table id, schema, table, column types with their metadata, nullability, and the optional
// metadata of binlog_row_metadata=MINIMAL/FULL (names, signedness, charsets, enum/set strings,
// geometry types, primary key, visibility).
#include <memory>

#include "engine/binlog/event_body_decoders.h"

namespace syncscope::binlog::detail {

namespace {

constexpr uint8_t kShortTableIdPostHeader = 6;  // MySQL 5.1.0-5.1.3: 4-byte table id
constexpr size_t kShortTableIdSize = 4;
constexpr size_t kTableIdSize = 6;
constexpr uint8_t kTableMapPostHeader = 8;
constexpr uint32_t kBinaryCollation = 63;
constexpr uint8_t kStringRealTypeBits = 0x30;  // STRING metadata: real type with length bits folded in

// Optional metadata field types (Table_map_log_event::Optional_metadata_field_type).
enum OptionalField : uint8_t {
    kSignedness = 1,
    kDefaultCharset = 2,
    kColumnCharset = 3,
    kColumnName = 4,
    kSetStrValue = 5,
    kEnumStrValue = 6,
    kGeometryType = 7,
    kSimplePrimaryKey = 8,
    kPrimaryKeyWithPrefix = 9,
    kEnumAndSetDefaultCharset = 10,
    kEnumAndSetColumnCharset = 11,
    kColumnVisibility = 12,
};

// Bytes of TABLE_MAP metadata a column type has, and how they combine into ColumnDef::meta.
enum class MetaLayout { None, OneByte, TwoBytesLittleEndian, TwoBytesBigEndian };

MetaLayout metaLayout(uint8_t code) {
    switch (static_cast<ColumnType>(code)) {
        case ColumnType::Float:
        case ColumnType::Double:
        case ColumnType::TinyBlob:
        case ColumnType::MediumBlob:
        case ColumnType::LongBlob:
        case ColumnType::Blob:
        case ColumnType::Geometry:
        case ColumnType::Json:
        case ColumnType::Timestamp2:
        case ColumnType::DateTime2:
        case ColumnType::Time2:
        case ColumnType::BlobCompressed:
        case ColumnType::Vector:
            return MetaLayout::OneByte;
        case ColumnType::VarChar:
        case ColumnType::VarCharCompressed:
        case ColumnType::Bit:
            return MetaLayout::TwoBytesLittleEndian;
        case ColumnType::NewDecimal:
        case ColumnType::String:
        case ColumnType::VarString:
        case ColumnType::Enum:
        case ColumnType::Set:
            return MetaLayout::TwoBytesBigEndian;
        case ColumnType::Decimal:
        case ColumnType::Tiny:
        case ColumnType::Short:
        case ColumnType::Long:
        case ColumnType::Null:
        case ColumnType::Timestamp:
        case ColumnType::LongLong:
        case ColumnType::Int24:
        case ColumnType::Date:
        case ColumnType::Time:
        case ColumnType::DateTime:
        case ColumnType::Year:
        case ColumnType::NewDate:
        case ColumnType::TypedArray:
            return MetaLayout::None;
    }
    throw EventFormatError("unknown column type " + std::to_string(code));
}

// The type a column really has: STRING columns carry ENUM, SET or CHAR in their metadata.
ColumnType realType(const ColumnDef& column) {
    if (column.type != ColumnType::String) {
        return column.type;
    }
    const auto high = static_cast<uint8_t>(column.meta >> 8);
    if ((high & kStringRealTypeBits) != kStringRealTypeBits) {
        return ColumnType::String;  // CHAR longer than 255 bytes: length bits folded into the type byte
    }
    return static_cast<ColumnType>(high);
}

bool isNumeric(ColumnType type) {
    switch (type) {
        case ColumnType::Tiny:
        case ColumnType::Short:
        case ColumnType::Int24:
        case ColumnType::Long:
        case ColumnType::LongLong:
        case ColumnType::NewDecimal:
        case ColumnType::Float:
        case ColumnType::Double:
            return true;
        default:
            return false;
    }
}

// Columns that DEFAULT_CHARSET and COLUMN_CHARSET count. MariaDB counts GEOMETRY (a BLOB underneath)
// and its compressed types, MySQL counts VECTOR.
bool isCharacter(ColumnType type, bool mariaDb) {
    switch (type) {
        case ColumnType::String:
        case ColumnType::VarString:
        case ColumnType::VarChar:
        case ColumnType::TinyBlob:
        case ColumnType::MediumBlob:
        case ColumnType::LongBlob:
        case ColumnType::Blob:
            return true;
        case ColumnType::Geometry:
        case ColumnType::VarCharCompressed:
        case ColumnType::BlobCompressed:
            return mariaDb;
        case ColumnType::Vector:
            return !mariaDb;
        default:
            return false;
    }
}

bool isEnumOrSet(ColumnType type) {
    return type == ColumnType::Enum || type == ColumnType::Set;
}

bool bitMostSignificantFirst(std::string_view bitmap, size_t index) {
    return ((static_cast<uint8_t>(bitmap[index / 8]) >> (7 - index % 8)) & 1U) != 0;
}

uint32_t readIndex(ByteReader& field, size_t columnCount, const char* what) {
    const uint64_t index = field.packedInt(what);
    if (index >= columnCount) {
        throw EventFormatError(std::string(what) + " " + std::to_string(index) + " is not a column (table has " +
                               std::to_string(columnCount) + ")");
    }
    return static_cast<uint32_t>(index);
}

uint32_t readCollation(ByteReader& field, const char* what) {
    const uint64_t id = field.packedInt(what);
    if (id > UINT32_MAX) {
        throw EventFormatError(std::string(what) + " " + std::to_string(id) + " is out of range");
    }
    return static_cast<uint32_t>(id);
}

// Columns selected by a predicate, in column order: the targets of per-kind metadata lists.
template <typename Predicate>
std::vector<ColumnDef*> select(TableMap& map, Predicate predicate) {
    std::vector<ColumnDef*> selected;
    for (ColumnDef& column : map.columns) {
        if (predicate(column)) {
            selected.push_back(&column);
        }
    }
    return selected;
}

void expectEnd(const ByteReader& field, const char* what) {
    if (!field.atEnd()) {
        throw EventFormatError(std::string(what) + " metadata has " + std::to_string(field.remaining()) +
                               " bytes more than its columns use");
    }
}

void setCharset(ColumnDef& column, uint32_t collation) {
    column.charset = collation;
    column.isBinary = collation == kBinaryCollation;
}

void readDefaultCharset(ByteReader& field, const std::vector<ColumnDef*>& targets, const char* what) {
    const uint32_t defaultCollation = readCollation(field, what);
    for (ColumnDef* column : targets) {
        setCharset(*column, defaultCollation);
    }
    while (!field.atEnd()) {
        const uint32_t index = readIndex(field, targets.size(), what);
        setCharset(*targets[index], readCollation(field, what));
    }
}

void readColumnCharsets(ByteReader& field, const std::vector<ColumnDef*>& targets, const char* what) {
    for (ColumnDef* column : targets) {
        setCharset(*column, readCollation(field, what));
    }
    expectEnd(field, what);
}

void readStringValues(ByteReader& field, const std::vector<ColumnDef*>& targets, const char* what) {
    for (ColumnDef* column : targets) {
        const uint64_t count = field.packedInt(what);
        if (count > field.remaining()) {
            throw TruncatedError(std::string("truncated ") + what + ": " + std::to_string(count) + " values announced");
        }
        column->enumValues.clear();
        column->enumValues.reserve(count);
        for (uint64_t i = 0; i < count; ++i) {
            const uint64_t length = field.packedInt(what);
            field.need(length, what);
            column->enumValues.emplace_back(field.bytes(static_cast<size_t>(length), what));
        }
    }
    expectEnd(field, what);
}

void readOptionalMetadata(ByteReader& body, TableMap& map, bool mariaDb) {
    const size_t columnCount = map.columns.size();
    const auto character = [mariaDb](const ColumnDef& c) { return isCharacter(realType(c), mariaDb); };
    const auto enumOrSet = [](const ColumnDef& c) { return isEnumOrSet(realType(c)); };
    while (!body.atEnd()) {
        const uint8_t type = body.u8("optional metadata type");
        const uint64_t length = body.packedInt("optional metadata length");
        body.need(length, "optional metadata field");
        ByteReader field = body.sub(static_cast<size_t>(length), "optional metadata field");
        switch (type) {
            case kSignedness: {
                const std::vector<ColumnDef*> numeric =
                    select(map, [](const ColumnDef& c) { return isNumeric(c.type); });
                const std::string_view bitmap = field.bytes((numeric.size() + 7) / 8, "signedness bitmap");
                for (size_t i = 0; i < numeric.size(); ++i) {
                    numeric[i]->isUnsigned = bitMostSignificantFirst(bitmap, i);
                }
                map.hasSignedness = true;
                break;
            }
            case kDefaultCharset: {
                const std::vector<ColumnDef*> targets = select(map, character);
                readDefaultCharset(field, targets, "default charset");
                map.defaultCharset = targets.empty() ? 0 : targets.front()->charset;
                break;
            }
            case kColumnCharset:
                readColumnCharsets(field, select(map, character), "column charset");
                break;
            case kColumnName:
                for (ColumnDef& column : map.columns) {
                    const uint64_t nameLength = field.packedInt("column name length");
                    field.need(nameLength, "column name");
                    column.name.assign(field.bytes(static_cast<size_t>(nameLength), "column name"));
                }
                expectEnd(field, "column name");
                map.hasColumnNames = true;
                break;
            case kSetStrValue:
                readStringValues(field, select(map, [](const ColumnDef& c) { return realType(c) == ColumnType::Set; }),
                                 "set values");
                break;
            case kEnumStrValue:
                readStringValues(field, select(map, [](const ColumnDef& c) { return realType(c) == ColumnType::Enum; }),
                                 "enum values");
                break;
            case kGeometryType:
                for (ColumnDef* column :
                     select(map, [](const ColumnDef& c) { return c.type == ColumnType::Geometry; })) {
                    column->geometryType = static_cast<uint16_t>(field.packedInt("geometry type"));
                }
                expectEnd(field, "geometry type");
                break;
            case kSimplePrimaryKey:
                while (!field.atEnd()) {
                    map.primaryKey.push_back(readIndex(field, columnCount, "primary key column"));
                    map.primaryKeyPrefixes.push_back(0);
                }
                map.hasPrimaryKey = true;
                break;
            case kPrimaryKeyWithPrefix:
                while (!field.atEnd()) {
                    map.primaryKey.push_back(readIndex(field, columnCount, "primary key column"));
                    map.primaryKeyPrefixes.push_back(static_cast<uint32_t>(field.packedInt("primary key prefix")));
                }
                map.hasPrimaryKey = true;
                break;
            case kEnumAndSetDefaultCharset:
                readDefaultCharset(field, select(map, enumOrSet), "enum and set default charset");
                break;
            case kEnumAndSetColumnCharset:
                readColumnCharsets(field, select(map, enumOrSet), "enum and set column charset");
                break;
            case kColumnVisibility: {
                const std::string_view bitmap = field.bytes((columnCount + 7) / 8, "column visibility bitmap");
                map.columnVisible.resize(columnCount);
                for (size_t i = 0; i < columnCount; ++i) {
                    map.columnVisible[i] = bitMostSignificantFirst(bitmap, i);
                }
                break;
            }
            default:
                break;  // a later kind of metadata: skipped, it says its length
        }
    }
    for (uint32_t index : map.primaryKey) {
        map.columns[index].inPrimaryKey = true;
    }
}

}  // namespace

TableMapPtr decodeTableMap(ByteReader& body, const FormatDescriptionEvent& fde) {
    auto map = std::make_shared<TableMap>();
    const uint8_t postHeader = postHeaderLength(fde, EventType::TableMap, kTableMapPostHeader);
    map->tableId = body.uintN(postHeader == kShortTableIdPostHeader ? kShortTableIdSize : kTableIdSize, "table id");
    map->flags = body.u16("table map flags");
    const uint8_t schemaLength = body.u8("schema name length");
    map->schema.assign(body.bytes(schemaLength, "schema name"));
    body.skip(1, "schema name terminator");
    const uint8_t tableLength = body.u8("table name length");
    map->table.assign(body.bytes(tableLength, "table name"));
    body.skip(1, "table name terminator");

    const uint64_t columnCount = body.packedInt("column count");
    const std::string_view types = body.bytes(static_cast<size_t>(columnCount), "column types");
    const uint64_t metaLength = body.packedInt("column metadata length");
    body.need(metaLength, "column metadata");
    ByteReader meta = body.sub(static_cast<size_t>(metaLength), "column metadata");
    map->columns.resize(types.size());
    for (size_t i = 0; i < types.size(); ++i) {
        ColumnDef& column = map->columns[i];
        const auto code = static_cast<uint8_t>(types[i]);
        column.type = static_cast<ColumnType>(code);
        switch (metaLayout(code)) {
            case MetaLayout::None:
                break;
            case MetaLayout::OneByte:
                column.meta = meta.u8("column metadata");
                break;
            case MetaLayout::TwoBytesLittleEndian:
                column.meta = meta.u16("column metadata");
                break;
            case MetaLayout::TwoBytesBigEndian:
                column.meta = static_cast<uint16_t>(meta.uintBigEndian(2, "column metadata"));
                break;
        }
        column.isCompressed = column.type == ColumnType::VarCharCompressed || column.type == ColumnType::BlobCompressed;
    }
    if (!meta.atEnd()) {
        throw EventFormatError("column metadata is " + std::to_string(metaLength) + " bytes but the column types use " +
                               std::to_string(meta.offset()));
    }
    const std::string_view nullBitmap = body.bytes((types.size() + 7) / 8, "column null bitmap");
    for (size_t i = 0; i < types.size(); ++i) {
        map->columns[i].nullable = ((static_cast<uint8_t>(nullBitmap[i / 8]) >> (i % 8)) & 1U) != 0;
    }
    readOptionalMetadata(body, *map, fde.isMariaDb());
    return map;
}

}  // namespace syncscope::binlog::detail
