#include "engine/binlog/mysql_json.h"

#include <cstdint>
#include <cstring>

#include "engine/binlog/byte_reader.h"
#include "engine/binlog/decimal.h"
#include "engine/binlog/temporal.h"
#include "engine/binlog/value_text.h"
#include "engine/common/error.h"

namespace syncscope::binlog {

namespace {

// Value type bytes of MySQL's binary JSON (sql-common/json_binary.h).
enum JsonType : uint8_t {
    kSmallObject = 0x00,
    kLargeObject = 0x01,
    kSmallArray = 0x02,
    kLargeArray = 0x03,
    kLiteral = 0x04,
    kInt16 = 0x05,
    kUInt16 = 0x06,
    kInt32 = 0x07,
    kUInt32 = 0x08,
    kInt64 = 0x09,
    kUInt64 = 0x0a,
    kDouble = 0x0b,
    kString = 0x0c,
    kOpaque = 0x0f,
};

enum JsonLiteral : uint8_t { kNull = 0x00, kTrue = 0x01, kFalse = 0x02 };

// Field types an opaque value may carry that MySQL prints as text rather than base64.
constexpr uint8_t kOpaqueTimestamp = 7;
constexpr uint8_t kOpaqueDate = 10;
constexpr uint8_t kOpaqueTime = 11;
constexpr uint8_t kOpaqueDateTime = 12;
constexpr uint8_t kOpaqueNewDate = 14;
constexpr uint8_t kOpaqueNewDecimal = 246;

constexpr size_t kSmallOffsetSize = 2;
constexpr size_t kLargeOffsetSize = 4;
constexpr size_t kKeyLengthSize = 2;
constexpr size_t kMaxVarLengthBytes = 5;
constexpr int kMaxDepth = 150;   // MySQL refuses documents deeper than 100
constexpr uint8_t kFullFsp = 6;  // MySQL prints JSON times with all six fraction digits

class JsonPrinter {
public:
    JsonPrinter(std::string_view doc, std::string& out) : doc_(doc), out_(out) {}

    void printDocument() {
        if (doc_.empty()) {
            out_ += "null";
            return;
        }
        printValue(static_cast<uint8_t>(doc_[0]), 1, doc_.size() - 1, 0);
    }

private:
    [[noreturn]] void fail(const std::string& what, size_t at) const {
        throw Error("MySQL binary JSON: " + what + " at byte " + std::to_string(at) + " of " +
                    std::to_string(doc_.size()));
    }

    ByteReader readerAt(size_t pos, size_t length) const {
        if (pos > doc_.size() || length > doc_.size() - pos) {
            fail("value of " + std::to_string(length) + " bytes runs past the end", pos);
        }
        return ByteReader(doc_.substr(pos, length));
    }

    uint64_t readUInt(size_t pos, size_t size) const { return readerAt(pos, size).uintN(size, "JSON integer"); }

    // Prints the value of `type` whose bytes start at `pos` and may extend `available` bytes.
    void printValue(uint8_t type, size_t pos, size_t available, int depth) {
        if (depth > kMaxDepth) {
            fail("nesting deeper than " + std::to_string(kMaxDepth), pos);
        }
        switch (type) {
            case kSmallObject:
            case kLargeObject:
                printContainer(pos, available, type == kLargeObject, true, depth);
                return;
            case kSmallArray:
            case kLargeArray:
                printContainer(pos, available, type == kLargeArray, false, depth);
                return;
            case kLiteral:
                printLiteral(static_cast<uint8_t>(readUInt(pos, 1)), pos);
                return;
            case kInt16:
                out_ += std::to_string(static_cast<int16_t>(readUInt(pos, 2)));
                return;
            case kUInt16:
                out_ += std::to_string(readUInt(pos, 2));
                return;
            case kInt32:
                out_ += std::to_string(static_cast<int32_t>(readUInt(pos, 4)));
                return;
            case kUInt32:
                out_ += std::to_string(readUInt(pos, 4));
                return;
            case kInt64:
                out_ += std::to_string(static_cast<int64_t>(readUInt(pos, 8)));
                return;
            case kUInt64:
                out_ += std::to_string(readUInt(pos, 8));
                return;
            case kDouble:
                printDouble(readUInt(pos, 8));
                return;
            case kString: {
                auto [length, header] = readVarLength(pos, available);
                appendJsonString(out_, readerAt(pos + header, length).rest());
                return;
            }
            case kOpaque:
                printOpaque(pos, available);
                return;
            default:
                fail("unknown value type " + std::to_string(type), pos);
        }
    }

    void printLiteral(uint8_t literal, size_t pos) {
        switch (literal) {
            case kNull:
                out_ += "null";
                return;
            case kTrue:
                out_ += "true";
                return;
            case kFalse:
                out_ += "false";
                return;
            default:
                fail("unknown literal " + std::to_string(literal), pos);
        }
    }

    void printDouble(uint64_t raw) {
        double value;
        std::memcpy(&value, &raw, sizeof(value));
        size_t start = out_.size();
        appendDoubleText(out_, value);
        // MySQL keeps a JSON double visibly a double: 2.0, not 2.
        if (out_.find_first_of(".e", start) == std::string::npos && out_.find("n", start) == std::string::npos) {
            out_ += ".0";
        }
    }

    // Variable-length length: 7 bits a byte, least significant first, high bit = more bytes follow.
    std::pair<size_t, size_t> readVarLength(size_t pos, size_t available) const {
        uint64_t length = 0;
        for (size_t i = 0; i < kMaxVarLengthBytes; ++i) {
            if (i >= available) {
                fail("length runs past the end", pos);
            }
            auto b = static_cast<uint8_t>(readUInt(pos + i, 1));
            length |= static_cast<uint64_t>(b & 0x7F) << (7 * i);
            if ((b & 0x80) == 0) {
                if (length > available - i - 1) {
                    fail("string of " + std::to_string(length) + " bytes runs past the end", pos);
                }
                return {static_cast<size_t>(length), i + 1};
            }
        }
        fail("length longer than 5 bytes", pos);
    }

    void printContainer(size_t pos, size_t available, bool large, bool isObject, int depth) {
        const size_t offsetSize = large ? kLargeOffsetSize : kSmallOffsetSize;
        const uint64_t count = readUInt(pos, offsetSize);
        const uint64_t size = readUInt(pos + offsetSize, offsetSize);
        if (size > available || size < 2 * offsetSize) {
            fail("container size " + std::to_string(size) + " does not fit", pos);
        }
        const size_t keyEntrySize = offsetSize + kKeyLengthSize;
        const size_t valueEntrySize = 1 + offsetSize;
        const uint64_t headerSize = 2 * offsetSize + count * ((isObject ? keyEntrySize : 0) + valueEntrySize);
        if (count > size || headerSize > size) {
            fail("container of " + std::to_string(count) + " elements does not fit in " + std::to_string(size) +
                     " bytes",
                 pos);
        }
        out_.push_back(isObject ? '{' : '[');
        const size_t keyEntries = pos + 2 * offsetSize;
        const size_t valueEntries = keyEntries + (isObject ? count * keyEntrySize : 0);
        for (uint64_t i = 0; i < count; ++i) {
            if (i > 0) {
                out_ += ", ";
            }
            if (isObject) {
                const size_t entry = keyEntries + i * keyEntrySize;
                uint64_t keyOffset = readUInt(entry, offsetSize);
                uint64_t keyLength = readUInt(entry + offsetSize, kKeyLengthSize);
                if (keyOffset > size || keyLength > size - keyOffset) {
                    fail("key runs past its object", entry);
                }
                appendJsonString(out_, readerAt(pos + keyOffset, keyLength).rest());
                out_ += ": ";
            }
            const size_t entry = valueEntries + i * valueEntrySize;
            auto valueType = static_cast<uint8_t>(readUInt(entry, 1));
            if (isInlined(valueType, large)) {
                printValue(valueType, entry + 1, offsetSize, depth + 1);
            } else {
                uint64_t valueOffset = readUInt(entry + 1, offsetSize);
                if (valueOffset >= size) {
                    fail("value offset " + std::to_string(valueOffset) + " past its container", entry);
                }
                printValue(valueType, pos + valueOffset, size - valueOffset, depth + 1);
            }
        }
        out_.push_back(isObject ? '}' : ']');
    }

    static bool isInlined(uint8_t type, bool large) {
        switch (type) {
            case kLiteral:
            case kInt16:
            case kUInt16:
                return true;
            case kInt32:
            case kUInt32:
                return large;
            default:
                return false;
        }
    }

    void printOpaque(size_t pos, size_t available) {
        if (available < 1) {
            fail("opaque value without its type", pos);
        }
        auto fieldType = static_cast<uint8_t>(readUInt(pos, 1));
        auto [length, header] = readVarLength(pos + 1, available - 1);
        ByteReader data = readerAt(pos + 1 + header, length);
        switch (fieldType) {
            case kOpaqueNewDecimal: {
                if (length < 2) {
                    fail("DECIMAL without precision and scale", pos);
                }
                unsigned precision = data.u8("JSON DECIMAL precision");
                unsigned scale = data.u8("JSON DECIMAL scale");
                readDecimalText(data, precision, scale, out_);
                return;
            }
            case kOpaqueDate:
            case kOpaqueNewDate:
            case kOpaqueTime:
            case kOpaqueDateTime:
            case kOpaqueTimestamp: {
                auto packed = static_cast<int64_t>(data.u64("JSON date/time"));
                std::string text;
                if (fieldType == kOpaqueTime) {
                    TemporalValue t = timeFromPacked(packed);
                    t.fsp = kFullFsp;
                    appendTime(text, t);
                } else {
                    TemporalValue t = dateTimeFromPacked(packed);
                    t.fsp = kFullFsp;
                    if (fieldType == kOpaqueDate || fieldType == kOpaqueNewDate) {
                        appendDate(text, t);
                    } else {
                        appendDateTime(text, t);
                    }
                }
                appendJsonString(out_, text);
                return;
            }
            default: {
                std::string text = "base64:type" + std::to_string(fieldType) + ":";
                appendBase64(text, data.rest());
                appendJsonString(out_, text);
            }
        }
    }

    static void appendBase64(std::string& out, std::string_view bytes) {
        static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        size_t i = 0;
        for (; i + 3 <= bytes.size(); i += 3) {
            uint32_t v = (static_cast<uint8_t>(bytes[i]) << 16) | (static_cast<uint8_t>(bytes[i + 1]) << 8) |
                         static_cast<uint8_t>(bytes[i + 2]);
            out.push_back(kAlphabet[(v >> 18) & 63]);
            out.push_back(kAlphabet[(v >> 12) & 63]);
            out.push_back(kAlphabet[(v >> 6) & 63]);
            out.push_back(kAlphabet[v & 63]);
        }
        size_t left = bytes.size() - i;
        if (left > 0) {
            uint32_t v = static_cast<uint8_t>(bytes[i]) << 16;
            if (left == 2) {
                v |= static_cast<uint8_t>(bytes[i + 1]) << 8;
            }
            out.push_back(kAlphabet[(v >> 18) & 63]);
            out.push_back(kAlphabet[(v >> 12) & 63]);
            out.push_back(left == 2 ? kAlphabet[(v >> 6) & 63] : '=');
            out.push_back('=');
        }
    }

    std::string_view doc_;
    std::string& out_;
};

}  // namespace

void appendMysqlJsonText(std::string_view binary, std::string& out) {
    JsonPrinter(binary, out).printDocument();
}

std::string mysqlJsonToText(std::string_view binary) {
    std::string out;
    appendMysqlJsonText(binary, out);
    return out;
}

}  // namespace syncscope::binlog
