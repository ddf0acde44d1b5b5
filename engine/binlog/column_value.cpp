#include "engine/binlog/column_value.h"

#include <charconv>
#include <cstring>

#include "engine/binlog/temporal.h"
#include "engine/binlog/value_text.h"
#include "engine/common/error.h"

namespace syncscope::binlog {

static_assert(sizeof(ColumnValue) <= 40, "ColumnValue must stay compact: rows hold one per column");

const char* valueKindName(ValueKind kind) {
    switch (kind) {
        case ValueKind::Null:
            return "NULL";
        case ValueKind::Int:
            return "signed integer";
        case ValueKind::UInt:
            return "unsigned integer";
        case ValueKind::Float:
            return "FLOAT";
        case ValueKind::Double:
            return "DOUBLE";
        case ValueKind::Decimal:
            return "DECIMAL";
        case ValueKind::Year:
            return "YEAR";
        case ValueKind::Date:
            return "DATE";
        case ValueKind::Time:
            return "TIME";
        case ValueKind::DateTime:
            return "DATETIME";
        case ValueKind::Timestamp:
            return "TIMESTAMP";
        case ValueKind::Bit:
            return "BIT";
        case ValueKind::Enum:
            return "ENUM";
        case ValueKind::Set:
            return "SET";
        case ValueKind::String:
            return "string";
        case ValueKind::Bytes:
            return "bytes";
        case ValueKind::Json:
            return "JSON";
        case ValueKind::Geometry:
            return "GEOMETRY";
    }
    return "unknown";
}

void ColumnValue::destroy() noexcept {
    if (storage_ == Storage::Heap) {
        heap_.~basic_string();
    }
    storage_ = Storage::Scalar;
    kind_ = ValueKind::Null;
    scalar_.u = 0;
}

void ColumnValue::setText(ValueKind kind, std::string_view bytes) {
    if (storage_ == Storage::Heap) {
        heap_.assign(bytes);  // keeps the capacity; assign copes with bytes inside heap_
    } else if (bytes.size() <= kInlineCapacity) {
        std::memmove(inline_.data, bytes.data(), bytes.size());  // bytes may be this value's own
        inline_.size = static_cast<uint8_t>(bytes.size());
        storage_ = Storage::Inline;
    } else {
        new (&heap_) std::string(bytes);  // bytes are not in inline_ (too long for it)
        storage_ = Storage::Heap;
    }
    kind_ = kind;
}

void ColumnValue::setBorrowedText(ValueKind kind, std::string_view bytes) noexcept {
    if (storage_ == Storage::Heap) {
        heap_.~basic_string();
    }
    new (&borrowed_) std::string_view(bytes);
    storage_ = Storage::Borrowed;
    kind_ = kind;
}

// A copy owns its bytes, also when the original borrows them.
void ColumnValue::copyFrom(const ColumnValue& other) {
    if (other.storage_ == Storage::Scalar) {
        std::memcpy(static_cast<void*>(&scalar_), &other.scalar_, sizeof(Scalar));
        storage_ = Storage::Scalar;
        kind_ = other.kind_;
        return;
    }
    setText(other.kind_, other.textView());
}

void ColumnValue::moveFrom(ColumnValue&& other) noexcept {
    if (other.storage_ == Storage::Heap) {
        new (&heap_) std::string(std::move(other.heap_));
    } else {
        std::memcpy(static_cast<void*>(&inline_), &other.inline_, sizeof(InlineText));
    }
    storage_ = other.storage_;
    kind_ = other.kind_;
}

ColumnValue::ColumnValue(const ColumnValue& other) : kind_(ValueKind::Null), storage_(Storage::Scalar) {
    copyFrom(other);
}

ColumnValue::ColumnValue(ColumnValue&& other) noexcept : kind_(ValueKind::Null), storage_(Storage::Scalar) {
    moveFrom(std::move(other));
}

ColumnValue& ColumnValue::operator=(const ColumnValue& other) {
    if (this != &other) {
        if (storage_ == Storage::Heap && other.storage_ != Storage::Scalar) {
            setText(other.kind_, other.textView());  // keeps this value's capacity
        } else {
            destroy();
            copyFrom(other);
        }
    }
    return *this;
}

ColumnValue& ColumnValue::operator=(ColumnValue&& other) noexcept {
    if (this != &other) {
        if (storage_ == Storage::Heap && other.storage_ == Storage::Heap) {
            heap_ = std::move(other.heap_);
            kind_ = other.kind_;
        } else {
            destroy();
            moveFrom(std::move(other));
        }
    }
    return *this;
}

ColumnValue ColumnValue::withText(ValueKind kind, std::string_view text) {
    ColumnValue v;
    v.setText(kind, text);
    return v;
}

ColumnValue ColumnValue::signedInt(int64_t value) {
    ColumnValue v;
    v.kind_ = ValueKind::Int;
    v.scalar_.i = value;
    return v;
}

ColumnValue ColumnValue::unsignedInt(uint64_t value) {
    ColumnValue v;
    v.kind_ = ValueKind::UInt;
    v.scalar_.u = value;
    return v;
}

ColumnValue ColumnValue::floatValue(float value) {
    ColumnValue v;
    v.kind_ = ValueKind::Float;
    v.scalar_.f = value;
    return v;
}

ColumnValue ColumnValue::doubleValue(double value) {
    ColumnValue v;
    v.kind_ = ValueKind::Double;
    v.scalar_.d = value;
    return v;
}

ColumnValue ColumnValue::decimal(std::string text) {
    return withText(ValueKind::Decimal, text);
}

ColumnValue ColumnValue::year(uint16_t value) {
    ColumnValue v;
    v.kind_ = ValueKind::Year;
    v.scalar_.u = value;
    return v;
}

ColumnValue ColumnValue::date(uint16_t yearValue, uint8_t month, uint8_t day) {
    ColumnValue v;
    v.kind_ = ValueKind::Date;
    v.scalar_.t = TemporalValue{};
    v.scalar_.t.year = yearValue;
    v.scalar_.t.month = month;
    v.scalar_.t.day = day;
    return v;
}

ColumnValue ColumnValue::time(const TemporalValue& value) {
    ColumnValue v;
    v.kind_ = ValueKind::Time;
    v.scalar_.t = value;
    return v;
}

ColumnValue ColumnValue::dateTime(const TemporalValue& value) {
    ColumnValue v;
    v.kind_ = ValueKind::DateTime;
    v.scalar_.t = value;
    return v;
}

ColumnValue ColumnValue::timestamp(int64_t seconds, uint32_t microsecond, uint8_t fsp) {
    ColumnValue v;
    v.kind_ = ValueKind::Timestamp;
    v.scalar_.ts = TimestampValue{seconds, microsecond, fsp};
    return v;
}

ColumnValue ColumnValue::bit(uint64_t value) {
    ColumnValue v;
    v.kind_ = ValueKind::Bit;
    v.scalar_.u = value;
    return v;
}

ColumnValue ColumnValue::enumIndex(uint16_t index) {
    ColumnValue v;
    v.kind_ = ValueKind::Enum;
    v.scalar_.u = index;
    return v;
}

ColumnValue ColumnValue::set(uint64_t members) {
    ColumnValue v;
    v.kind_ = ValueKind::Set;
    v.scalar_.u = members;
    return v;
}

ColumnValue ColumnValue::string(std::string_view text) {
    return withText(ValueKind::String, text);
}
ColumnValue ColumnValue::bytes(std::string_view data) {
    return withText(ValueKind::Bytes, data);
}
ColumnValue ColumnValue::json(std::string text) {
    return ownedText(ValueKind::Json, std::move(text));
}

ColumnValue ColumnValue::ownedText(ValueKind kind, std::string text) {
    if (text.size() <= kInlineCapacity) {
        return withText(kind, text);
    }
    ColumnValue v;
    new (&v.heap_) std::string(std::move(text));
    v.storage_ = Storage::Heap;
    v.kind_ = kind;
    return v;
}
ColumnValue ColumnValue::geometry(std::string_view data) {
    return withText(ValueKind::Geometry, data);
}

void ColumnValue::expect(ValueKind kind) const {
    if (kind_ != kind) {
        throw Error(std::string("column value is ") + valueKindName(kind_) + ", not " + valueKindName(kind));
    }
}

void ColumnValue::expectEither(ValueKind a, ValueKind b) const {
    if (kind_ != a && kind_ != b) {
        throw Error(std::string("column value is ") + valueKindName(kind_) + ", not " + valueKindName(a) + " or " +
                    valueKindName(b));
    }
}

int64_t ColumnValue::asInt() const {
    expect(ValueKind::Int);
    return scalar_.i;
}

uint64_t ColumnValue::asUInt() const {
    expect(ValueKind::UInt);
    return scalar_.u;
}

float ColumnValue::asFloat() const {
    expect(ValueKind::Float);
    return scalar_.f;
}

double ColumnValue::asDouble() const {
    expect(ValueKind::Double);
    return scalar_.d;
}

uint16_t ColumnValue::asYear() const {
    expect(ValueKind::Year);
    return static_cast<uint16_t>(scalar_.u);
}

uint64_t ColumnValue::bits() const {
    expectEither(ValueKind::Bit, ValueKind::Set);
    return scalar_.u;
}

uint16_t ColumnValue::enumIndex() const {
    expect(ValueKind::Enum);
    return static_cast<uint16_t>(scalar_.u);
}

const TemporalValue& ColumnValue::temporal() const {
    if (kind_ != ValueKind::Date && kind_ != ValueKind::Time && kind_ != ValueKind::DateTime) {
        throw Error(std::string("column value is ") + valueKindName(kind_) + ", not DATE, TIME or DATETIME");
    }
    return scalar_.t;
}

const TimestampValue& ColumnValue::timestamp() const {
    expect(ValueKind::Timestamp);
    return scalar_.ts;
}

std::string_view ColumnValue::bytes() const {
    if (storage_ == Storage::Scalar) {
        throw Error(std::string("column value is ") + valueKindName(kind_) + ", which has no bytes");
    }
    return textView();
}

bool ColumnValue::operator==(const ColumnValue& other) const {
    if (kind_ != other.kind_) {
        return false;
    }
    switch (kind_) {
        case ValueKind::Null:
            return true;
        case ValueKind::Int:
            return scalar_.i == other.scalar_.i;
        case ValueKind::Float:
            return scalar_.f == other.scalar_.f;
        case ValueKind::Double:
            return scalar_.d == other.scalar_.d;
        case ValueKind::Date:
        case ValueKind::Time:
        case ValueKind::DateTime:
            return scalar_.t == other.scalar_.t;
        case ValueKind::Timestamp:
            return scalar_.ts == other.scalar_.ts;
        case ValueKind::UInt:
        case ValueKind::Year:
        case ValueKind::Bit:
        case ValueKind::Enum:
        case ValueKind::Set:
            return scalar_.u == other.scalar_.u;
        default:
            return textView() == other.textView();
    }
}

namespace {

template <typename Integer>
void appendInteger(std::string& out, Integer value) {
    char buf[24];
    auto result = std::to_chars(buf, buf + sizeof(buf), value);
    out.append(buf, result.ptr);
}

void appendSetText(std::string& out, uint64_t members, const ColumnDef& column) {
    if (column.enumValues.empty()) {
        appendInteger(out, members);
        return;
    }
    bool first = true;
    for (size_t i = 0; i < 64 && (members >> i) != 0; ++i) {
        if ((members >> i) & 1) {
            if (!first) {
                out.push_back(',');
            }
            first = false;
            if (i < column.enumValues.size()) {
                out += column.enumValues[i];
            } else {
                appendInteger(out, uint64_t{1} << i);  // a member the metadata does not name
            }
        }
    }
}

}  // namespace

void ColumnValue::appendText(std::string& out, const ColumnDef& column) const {
    switch (kind_) {
        case ValueKind::Null:
            out += "NULL";
            return;
        case ValueKind::Int:
            appendInteger(out, scalar_.i);
            return;
        case ValueKind::UInt:
        case ValueKind::Bit:
            appendInteger(out, scalar_.u);
            return;
        case ValueKind::Float:
            appendFloatText(out, scalar_.f);
            return;
        case ValueKind::Double:
            appendDoubleText(out, scalar_.d);
            return;
        case ValueKind::Year: {
            char buf[4] = {'0', '0', '0', '0'};
            uint64_t y = scalar_.u;
            for (int i = 3; i >= 0 && y > 0; --i, y /= 10) {
                buf[i] = static_cast<char>('0' + y % 10);
            }
            out.append(buf, sizeof(buf));
            return;
        }
        case ValueKind::Date:
            appendDate(out, scalar_.t);
            return;
        case ValueKind::Time:
            appendTime(out, scalar_.t);
            return;
        case ValueKind::DateTime:
            appendDateTime(out, scalar_.t);
            return;
        case ValueKind::Timestamp:
            appendDateTime(out, utcFromTimestamp(scalar_.ts));
            return;
        case ValueKind::Enum: {
            uint64_t index = scalar_.u;
            if (index == 0) {
                return;  // the empty string MariaDB stores for an invalid ENUM value
            }
            if (index <= column.enumValues.size()) {
                out += column.enumValues[index - 1];
            } else {
                appendInteger(out, index);
            }
            return;
        }
        case ValueKind::Set:
            appendSetText(out, scalar_.u, column);
            return;
        case ValueKind::Bytes:
            switch (column.extendedType) {
                case ExtendedType::Inet6:
                    appendInet6Text(out, textView());
                    return;
                case ExtendedType::Uuid:
                    appendUuidText(out, textView());
                    return;
                case ExtendedType::Inet4:
                    appendInet4Text(out, textView());
                    return;
                case ExtendedType::None:
                    break;
            }
            out += textView();
            return;
        case ValueKind::Decimal:
        case ValueKind::String:
        case ValueKind::Json:
        case ValueKind::Geometry:
            out += textView();
            return;
    }
}

std::string ColumnValue::toText(const ColumnDef& column) const {
    std::string out;
    appendText(out, column);
    return out;
}

}  // namespace syncscope::binlog
