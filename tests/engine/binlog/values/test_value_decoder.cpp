// Every column type decodes from hand-built row-image bytes to the text MariaDB's SELECT shows, consumes
// exactly its bytes, and bad bytes or metadata give a clear error instead of a crash.
#include <QtTest>

#include <zlib.h>

#include <random>

#include "engine/binlog/value_decoder.h"
#include "engine/common/error.h"
#include "tests/engine/binlog/values/value_bytes.h"

using namespace syncscope;
using namespace syncscope::binlog;
using namespace syncscope::binlog::testbytes;

Q_DECLARE_METATYPE(syncscope::binlog::ColumnDef)

namespace {

QByteArray qb(const std::string& s) {
    return QByteArray(s.data(), static_cast<qsizetype>(s.size()));
}

ColumnDef withValues(ColumnDef c, std::vector<std::string> values) {
    c.enumValues = std::move(values);
    return c;
}

ColumnDef withExtended(ColumnDef c, ExtendedType type) {
    c.extendedType = type;
    return c;
}

// MariaDB's COMPRESSED column payload: header 0x80 | length bytes | raw-deflate flag, then the data.
std::string mariadbCompressed(const std::string& plain, bool raw) {
    z_stream s{};
    deflateInit2(&s, Z_DEFAULT_COMPRESSION, Z_DEFLATED, raw ? -MAX_WBITS : MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&s, plain.size()), '\0');
    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(plain.data()));
    s.avail_in = static_cast<uInt>(plain.size());
    s.next_out = reinterpret_cast<Bytef*>(out.data());
    s.avail_out = static_cast<uInt>(out.size());
    deflate(&s, Z_FINISH);
    out.resize(s.total_out);
    deflateEnd(&s);
    size_t lengthBytes = plain.size() < 256 ? 1 : plain.size() < 65536 ? 2 : 3;
    return std::string(1, static_cast<char>(0x80 | lengthBytes | (raw ? 0x08 : 0))) + be(plain.size(), lengthBytes) +
           out;
}

// A minimal MySQL binary JSON object {"a": 1} (small object, inlined int16).
std::string jsonObjectA1() {
    std::string body = le(1, 2) + le(12, 2) + le(11, 2) + le(1, 2) + std::string(1, '\x05') + le(1, 2) + "a";
    return std::string(1, '\x00') + body;
}

}  // namespace

class ValueDecoderTest : public QObject {
    Q_OBJECT

private slots:
    void decodesToMariadbSelectText_data() {
        QTest::addColumn<ColumnDef>("column");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QByteArray>("text");
        using T = ColumnType;
        auto row = [](const char* name, ColumnDef c, const std::string& bytes, const std::string& text) {
            QTest::addRow("%s", name) << c << qb(bytes) << qb(text);
        };
        // Integers of every width, both signednesses, at their limits.
        row("tinyint min", column(T::Tiny), le(0x80, 1), "-128");
        row("tinyint max", column(T::Tiny), le(0x7F, 1), "127");
        row("tinyint zero", column(T::Tiny), le(0, 1), "0");
        row("tinyint unsigned max", column(T::Tiny, 0, true), le(0xFF, 1), "255");
        row("smallint min", column(T::Short), le(0x8000, 2), "-32768");
        row("smallint unsigned max", column(T::Short, 0, true), le(0xFFFF, 2), "65535");
        row("mediumint min", column(T::Int24), le(0x800000, 3), "-8388608");
        row("mediumint -1", column(T::Int24), le(0xFFFFFF, 3), "-1");
        row("mediumint max", column(T::Int24), le(0x7FFFFF, 3), "8388607");
        row("mediumint unsigned max", column(T::Int24, 0, true), le(0xFFFFFF, 3), "16777215");
        row("int min", column(T::Long), le(0x80000000, 4), "-2147483648");
        row("int unsigned max", column(T::Long, 0, true), le(0xFFFFFFFF, 4), "4294967295");
        row("bigint min", column(T::LongLong), le(0x8000000000000000ULL, 8), "-9223372036854775808");
        row("bigint max", column(T::LongLong), le(0x7FFFFFFFFFFFFFFFULL, 8), "9223372036854775807");
        row("bigint unsigned max", column(T::LongLong, 0, true), le(~0ULL, 8), "18446744073709551615");
        // FLOAT and DOUBLE as MariaDB prints them (checked against MariaDB 10.11).
        row("float 3.14", column(T::Float, 4), floatBytes(3.14f), "3.14");
        row("float 6 digits", column(T::Float, 4), floatBytes(123456789.0f), "123457000");
        row("float exponent", column(T::Float, 4), floatBytes(1e20f), "1e20");
        row("float tiny", column(T::Float, 4), floatBytes(-1.17549435e-38f), "-1.17549e-38");
        row("float 1e-5", column(T::Float, 4), floatBytes(1e-5f), "0.00001");
        row("double 3.14", column(T::Double, 8), doubleBytes(3.14), "3.14");
        row("double 17 digits", column(T::Double, 8), doubleBytes(1234567890123456789.0), "1.2345678901234568e18");
        row("double max", column(T::Double, 8), doubleBytes(-1.7976931348623157e308), "-1.7976931348623157e308");
        row("double 1e15", column(T::Double, 8), doubleBytes(1e15), "1e15");
        row("double 15 digits", column(T::Double, 8), doubleBytes(999999999999999.0), "999999999999999");
        row("double small fixed", column(T::Double, 8), doubleBytes(1.2345678901234567e-15),
            "0.0000000000000012345678901234568");
        row("double denormal", column(T::Double, 8), doubleBytes(5e-324), "5e-324");
        row("double zero", column(T::Double, 8), doubleBytes(0.0), "0");
        // DECIMAL, exact with its scale.
        row("decimal manual example", column(T::NewDecimal, 14 << 8 | 4),
            std::string("\x81\x0D\xFB\x38\xD2\x04\xD2", 7), "1234567890.1234");
        row("decimal manual negative", column(T::NewDecimal, 14 << 8 | 4),
            std::string("\x7E\xF2\x04\xC7\x2D\xFB\x2D", 7), "-1234567890.1234");
        row("decimal 0.000", column(T::NewDecimal, 3 << 8 | 3), decimalBytes("0.000", 3, 3), "0.000");
        row("decimal -0.5", column(T::NewDecimal, 2 << 8 | 1), decimalBytes("-0.5", 2, 1), "-0.5");
        row("decimal zero scale 0", column(T::NewDecimal, 10 << 8), decimalBytes("0", 10, 0), "0");
        row("decimal 65 digits", column(T::NewDecimal, 65 << 8), decimalBytes(std::string(65, '9'), 65, 0),
            std::string(65, '9'));
        row("decimal 65,30 negative max", column(T::NewDecimal, 65 << 8 | 30),
            decimalBytes("-" + std::string(35, '9') + "." + std::string(30, '9'), 65, 30),
            "-" + std::string(35, '9') + "." + std::string(30, '9'));
        row("decimal 38 scale", column(T::NewDecimal, 38 << 8 | 38),
            decimalBytes("0.00000000000000000000000000000000000001", 38, 38),
            "0.00000000000000000000000000000000000001");
        row("decimal leading group", column(T::NewDecimal, 12 << 8 | 2), decimalBytes("-1000000000.01", 12, 2),
            "-1000000000.01");
        // YEAR, DATE and the old TIME/DATETIME/TIMESTAMP.
        row("year zero", column(T::Year), le(0, 1), "0000");
        row("year 1901", column(T::Year), le(1, 1), "1901");
        row("year 2155", column(T::Year), le(255, 1), "2155");
        row("date zero", column(T::Date), le(0, 3), "0000-00-00");
        row("date leap day", column(T::Date), le(2024 << 9 | 2 << 5 | 29, 3), "2024-02-29");
        row("date max", column(T::Date), le(9999 << 9 | 12 << 5 | 31, 3), "9999-12-31");
        row("old time negative", column(T::Time), le(static_cast<uint32_t>(-8385959) & 0xFFFFFF, 3), "-838:59:59");
        row("old time", column(T::Time), le(123456, 3), "12:34:56");
        row("old datetime", column(T::DateTime), le(20240102030405ULL, 8), "2024-01-02 03:04:05");
        row("old timestamp zero", column(T::Timestamp), le(0, 4), "0000-00-00 00:00:00");
        row("old timestamp max", column(T::Timestamp), le(2147483647, 4), "2038-01-19 03:14:07");
        // TIME2 with every fsp, negative times included.
        row("time2 fsp0 min", column(T::Time2, 0), time2Bytes(packedTime(true, 838, 59, 59, 0), 0), "-838:59:59");
        row("time2 fsp0 max", column(T::Time2, 0), time2Bytes(packedTime(false, 838, 59, 59, 0), 0), "838:59:59");
        row("time2 fsp1 -0.5", column(T::Time2, 1), time2Bytes(packedTime(true, 0, 0, 0, 500000), 1), "-00:00:00.5");
        row("time2 fsp2", column(T::Time2, 2), time2Bytes(packedTime(true, 1, 2, 3, 450000), 2), "-01:02:03.45");
        row("time2 fsp3", column(T::Time2, 3), time2Bytes(packedTime(false, 12, 34, 56, 789000), 3), "12:34:56.789");
        row("time2 fsp4 negative", column(T::Time2, 4), time2Bytes(packedTime(true, 12, 34, 56, 789100), 4),
            "-12:34:56.7891");
        row("time2 fsp4 whole negative", column(T::Time2, 4), time2Bytes(packedTime(true, 1, 0, 0, 0), 4),
            "-01:00:00.0000");
        row("time2 fsp5", column(T::Time2, 5), time2Bytes(packedTime(false, 0, 0, 0, 10), 5), "00:00:00.00001");
        row("time2 fsp6 min", column(T::Time2, 6), time2Bytes(packedTime(true, 838, 59, 59, 0), 6),
            "-838:59:59.000000");
        row("time2 fsp6 micro", column(T::Time2, 6), time2Bytes(packedTime(true, 0, 0, 1, 999999), 6),
            "-00:00:01.999999");
        row("time2 zero", column(T::Time2, 0), time2Bytes(0, 0), "00:00:00");
        // DATETIME2 with every fsp.
        for (unsigned fsp = 0; fsp <= 6; ++fsp) {
            static const char* const kTexts[] = {"2024-01-02 03:04:05",       "2024-01-02 03:04:05.1",
                                                 "2024-01-02 03:04:05.12",    "2024-01-02 03:04:05.123",
                                                 "2024-01-02 03:04:05.1234",  "2024-01-02 03:04:05.12345",
                                                 "2024-01-02 03:04:05.123456"};
            static const unsigned kMicros[] = {0, 100000, 120000, 123000, 123400, 123450, 123456};
            QTest::addRow("datetime2 fsp%u", fsp)
                << column(T::DateTime2, static_cast<uint16_t>(fsp))
                << qb(dateTime2Bytes(2024, 1, 2, 3, 4, 5, kMicros[fsp], fsp)) << QByteArray(kTexts[fsp]);
        }
        row("datetime2 zero", column(T::DateTime2, 0), dateTime2Bytes(0, 0, 0, 0, 0, 0, 0, 0), "0000-00-00 00:00:00");
        row("datetime2 max", column(T::DateTime2, 6), dateTime2Bytes(9999, 12, 31, 23, 59, 59, 999999, 6),
            "9999-12-31 23:59:59.999999");
        row("datetime2 min", column(T::DateTime2, 0), dateTime2Bytes(1000, 1, 1, 0, 0, 0, 0, 0), "1000-01-01 00:00:00");
        // TIMESTAMP2 in UTC.
        row("timestamp2 zero fsp3", column(T::Timestamp2, 3), be(0, 4) + fractionBytes(0, 3),
            "0000-00-00 00:00:00.000");
        row("timestamp2 fsp3", column(T::Timestamp2, 3), be(1704164645, 4) + fractionBytes(123000, 3),
            "2024-01-02 03:04:05.123");
        row("timestamp2 fsp6 max", column(T::Timestamp2, 6), be(2147483647, 4) + fractionBytes(999999, 6),
            "2038-01-19 03:14:07.999999");
        row("timestamp2 fsp1", column(T::Timestamp2, 1), be(1, 4) + fractionBytes(500000, 1), "1970-01-01 00:00:01.5");
        row("timestamp2 fsp0", column(T::Timestamp2, 0), be(951782400, 4), "2000-02-29 00:00:00");
        // Strings: 1- and 2-byte lengths, CHAR with the >255 length trick, binary padding.
        row("varchar empty", column(T::VarChar, 10), le(0, 1), "");
        row("varchar 1-byte length", column(T::VarChar, 255), le(3, 1) + "abc", "abc");
        const std::string emoji = "\xF0\x9F\x98\x80 \xC3\xA9t\xC3\xA9";
        row("varchar 2-byte length emoji", column(T::VarChar, 1020), le(emoji.size(), 2) + emoji, emoji);
        row("varstring", column(T::VarString, 300), le(2, 2) + "hi", "hi");
        row("char", column(T::String, 0xFE0A), le(2, 1) + "ab", "ab");
        row("char over 255 bytes", column(T::String, 0xCEFC), le(300, 2) + std::string(300, 'x'),
            std::string(300, 'x'));
        row("binary padded", column(T::String, 0xFE04, false, true), le(2, 1) + "ab", std::string("ab\0\0", 4));
        row("varbinary not padded", column(T::VarChar, 4, false, true), le(2, 1) + "ab", "ab");
        // ENUM and SET, inside STRING as MySQL/MariaDB log them, and as their own types.
        row("enum in string", withValues(column(T::String, 0xF701), {"a", "b", "c"}), le(2, 1), "b");
        row("enum empty value", withValues(column(T::String, 0xF701), {"a"}), le(0, 1), "");
        row("enum 2 bytes", withValues(column(T::String, 0xF702), {"x", "y"}), le(1, 2), "x");
        row("enum without names", column(T::String, 0xF701), le(3, 1), "3");
        row("set in string", withValues(column(T::String, 0xF801), {"a", "b", "c"}), le(5, 1), "a,c");
        row("set empty", withValues(column(T::String, 0xF801), {"a"}), le(0, 1), "");
        row("set 8 bytes", withValues(column(T::Set, 0xF808), {"a", "b"}), le(0x8000000000000002ULL, 8),
            "b,9223372036854775808");
        row("enum type", withValues(column(T::Enum, 0xF701), {"a", "b"}), le(2, 1), "b");
        // BIT as its number.
        row("bit(1)", column(T::Bit, 0x0001), be(1, 1), "1");
        row("bit(10)", column(T::Bit, 0x0102), be(1023, 2), "1023");
        row("bit(64)", column(T::Bit, 0x0800), be(~0ULL, 8), "18446744073709551615");
        // BLOB/TEXT of every pack length, GEOMETRY, JSON, VECTOR.
        row("tinyblob", column(T::Blob, 1, false, true), le(3, 1) + std::string("\x00\xFF\x01", 3),
            std::string("\x00\xFF\x01", 3));
        row("blob", column(T::Blob, 2), le(5, 2) + "hello", "hello");
        row("mediumtext emoji", column(T::Blob, 3), le(emoji.size(), 3) + emoji, emoji);
        row("longblob empty", column(T::Blob, 4, false, true), le(0, 4), "");
        row("longtext", column(T::Blob, 4), le(70000, 4) + std::string(70000, 'z'), std::string(70000, 'z'));
        row("geometry", column(T::Geometry, 4), le(5, 4) + std::string("\0\0\0\0\1", 5), std::string("\0\0\0\0\1", 5));
        row("mysql json", column(T::Json, 4), le(jsonObjectA1().size(), 4) + jsonObjectA1(), "{\"a\": 1}");
        row("mysql json empty is null", column(T::Json, 4), le(0, 4), "null");
        row("vector", column(T::Vector, 4, false, true), le(4, 4) + floatBytes(1.5f), floatBytes(1.5f));
        // MariaDB compressed columns.
        const std::string longText = std::string(500, 'a') + emoji;
        const std::string zlibStored = mariadbCompressed(longText, false);
        const std::string rawStored = mariadbCompressed(longText, true);
        row("varchar compressed zlib", column(T::VarCharCompressed, 1000), le(zlibStored.size(), 2) + zlibStored,
            longText);
        row("varchar compressed raw deflate", column(T::VarCharCompressed, 1000), le(rawStored.size(), 2) + rawStored,
            longText);
        row("varchar compressed stored plain", column(T::VarCharCompressed, 100), le(4, 1) + std::string("\0abc", 4),
            "abc");
        row("varchar compressed empty", column(T::VarCharCompressed, 100), le(0, 1), "");
        row("blob compressed", column(T::BlobCompressed, 4), le(zlibStored.size(), 4) + zlibStored, longText);
        // INET6/UUID/INET4 when the schema says so; plain bytes otherwise.
        const std::string loopback6 = std::string(15, '\0') + "\x01";
        row("inet6 text", withExtended(column(T::String, 0xFE10, false, true), ExtendedType::Inet6),
            le(16, 1) + loopback6, "::1");
        row("inet6 mapped v4", withExtended(column(T::String, 0xFE10, false, true), ExtendedType::Inet6),
            le(16, 1) + std::string(10, '\0') + std::string("\xFF\xFF\x0A\x00\x00\x01", 6), "::ffff:10.0.0.1");
        row("inet6 zero stripped and padded", withExtended(column(T::String, 0xFE10, false, true), ExtendedType::Inet6),
            le(0, 1), "::");
        row("inet4 text", withExtended(column(T::String, 0xFE04, false, true), ExtendedType::Inet4),
            le(4, 1) + "\xC0\xA8\x01\x02", "192.168.1.2");
        // UUID 6ccd780c-baba-1026-9564-5b8c656024db (v1, RFC variant) in MariaDB's swapped record order.
        row("uuid v1 swapped", withExtended(column(T::String, 0xFE10, false, true), ExtendedType::Uuid),
            le(16, 1) + std::string("\x5b\x8c\x65\x60\x24\xdb\x95\x64\x10\x26\xba\xba\x6c\xcd\x78\x0c", 16),
            "6ccd780c-baba-1026-9564-5b8c656024db");
        row("uuid not rfc kept", withExtended(column(T::String, 0xFE10, false, true), ExtendedType::Uuid),
            le(16, 1) + std::string("\x00\x11\x22\x33\x44\x55\x66\x77\x08\x99\xaa\xbb\xcc\xdd\xee\xff", 16),
            "00112233-4455-6677-0899-aabbccddeeff");
    }

    void decodesToMariadbSelectText() {
        QFETCH(ColumnDef, column);
        QFETCH(QByteArray, bytes);
        QFETCH(QByteArray, text);
        const std::string trailer = "\xEE\xEE";  // the next column's bytes must stay unread
        std::string input = bytes.toStdString() + trailer;
        ByteReader reader(input);
        ColumnValue value = decodeColumnValue(column, reader);
        QCOMPARE(reader.remaining(), trailer.size());
        QCOMPARE(QByteArray::fromStdString(value.toText(column)), text);

        // The same decoded in place over a value that held long text, and with borrowed text.
        ColumnValue reused = ColumnValue::string(std::string(100, 'r'));
        ByteReader again(input);
        decodeColumnValueInto(column, again, reused);
        QCOMPARE(again.remaining(), trailer.size());
        QCOMPARE(QByteArray::fromStdString(reused.toText(column)), text);
        QVERIFY(reused == value);
        ColumnValue borrowed;
        ByteReader third(input);
        decodeColumnValueInto(column, third, borrowed, TextStorage::Borrow);
        QCOMPARE(third.remaining(), trailer.size());
        QCOMPARE(QByteArray::fromStdString(borrowed.toText(column)), text);
        if (borrowed.isBorrowed()) {
            const std::string_view bytes = borrowed.bytes();
            QVERIFY(bytes.data() >= input.data() && bytes.data() + bytes.size() <= input.data() + input.size());
        }
        QVERIFY(ColumnValue(borrowed) == value);
    }

    void borrowedTextIsTheRowBytesUnlessTheValueIsMadeUp() {
        const std::string varchar = le(3, 1) + "abc";
        ByteReader r1(varchar);
        ColumnValue text;
        decodeColumnValueInto(column(ColumnType::VarChar, 10), r1, text, TextStorage::Borrow);
        QVERIFY(text.isBorrowed());
        QCOMPARE(text.bytes().data(), varchar.data() + 1);
        // BINARY(4) gets its trailing zeros back, so it cannot point at the row's bytes.
        const std::string binary = le(2, 1) + "ab";
        ByteReader r2(binary);
        ColumnValue padded;
        decodeColumnValueInto(column(ColumnType::String, 0xFE04, false, true), r2, padded, TextStorage::Borrow);
        QVERIFY(!padded.isBorrowed());
        QCOMPARE(padded.bytes(), std::string_view("ab\0\0", 4));
        const std::string decimal = decimalBytes("-12.50", 4, 2);
        ByteReader r3(decimal);
        ColumnValue exact;
        decodeColumnValueInto(column(ColumnType::NewDecimal, 4 << 8 | 2), r3, exact, TextStorage::Borrow);
        QVERIFY(!exact.isBorrowed());
        QCOMPARE(exact.bytes(), std::string_view("-12.50"));
    }

    void typedAccessorsHoldTheValue() {
        std::string r1Bytes = le(0xFF, 1);
        ByteReader r1(r1Bytes);
        QCOMPARE(decodeColumnValue(column(ColumnType::Tiny), r1).asInt(), int64_t(-1));
        std::string r2Bytes = le(0xFF, 1);
        ByteReader r2(r2Bytes);
        QCOMPARE(decodeColumnValue(column(ColumnType::Tiny, 0, true), r2).asUInt(), uint64_t(255));
        std::string t = time2Bytes(packedTime(true, 838, 59, 59, 0), 6);
        ByteReader r3(t);
        ColumnValue time = decodeColumnValue(column(ColumnType::Time2, 6), r3);
        QCOMPARE(time.kind(), ValueKind::Time);
        QVERIFY(time.temporal().negative);
        QCOMPARE(time.temporal().hour, uint16_t(838));
        QCOMPARE(time.temporal().fsp, uint8_t(6));
        std::string ts = be(1704164645, 4) + fractionBytes(123000, 3);
        ByteReader r4(ts);
        ColumnValue stamp = decodeColumnValue(column(ColumnType::Timestamp2, 3), r4);
        QCOMPARE(stamp.timestamp().seconds, int64_t(1704164645));
        QCOMPARE(stamp.timestamp().microsecond, uint32_t(123000));
        std::string r5Bytes = le(2, 1);
        ByteReader r5(r5Bytes);
        QCOMPARE(decodeColumnValue(column(ColumnType::String, 0xF701), r5).enumIndex(), uint16_t(2));
        std::string r6Bytes = le(6, 1);
        ByteReader r6(r6Bytes);
        QCOMPARE(decodeColumnValue(column(ColumnType::String, 0xF801), r6).bits(), uint64_t(6));
        std::string d = decimalBytes("-0.5", 2, 1);
        ByteReader r7(d);
        ColumnValue dec = decodeColumnValue(column(ColumnType::NewDecimal, 2 << 8 | 1), r7);
        QCOMPARE(dec.kind(), ValueKind::Decimal);
        QCOMPARE(dec.bytes(), std::string_view("-0.5"));
        std::string ab = le(2, 1) + "ab";
        ByteReader r8(ab);
        QCOMPARE(decodeColumnValue(column(ColumnType::VarChar, 10, false, true), r8).kind(), ValueKind::Bytes);
        ByteReader r9(ab);
        QCOMPARE(decodeColumnValue(column(ColumnType::VarChar, 10), r9).kind(), ValueKind::String);
    }

    void badBytesOrMetadataAreClearErrors_data() {
        QTest::addColumn<ColumnDef>("column");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<bool>("truncated");
        QTest::addColumn<QString>("messagePart");
        using T = ColumnType;
        auto row = [](const char* name, ColumnDef c, const std::string& bytes, bool truncated, const char* part) {
            QTest::addRow("%s", name) << c << qb(bytes) << truncated << QString(part);
        };
        row("int truncated", column(T::Long), le(1, 3), true, "integer");
        row("double truncated", column(T::Double, 8), le(1, 7), true, "DOUBLE");
        row("decimal truncated", column(T::NewDecimal, 14 << 8 | 4), "\x81\x0D", true, "DECIMAL");
        row("decimal precision 0", column(T::NewDecimal, 0), "\x80", false, "DECIMAL(0,0)");
        row("decimal precision 66", column(T::NewDecimal, 66 << 8), std::string(40, '\x80'), false, "DECIMAL(66,0)");
        row("decimal scale over precision", column(T::NewDecimal, 2 << 8 | 3), std::string(4, '\x80'), false,
            "DECIMAL(2,3)");
        row("decimal group too big", column(T::NewDecimal, 9 << 8), "\xBF\xFF\xFF\xFF", false, "digits");
        row("time2 fsp 7", column(T::Time2, 7), std::string(8, '\x80'), false, "precision 7");
        row("datetime2 fsp 9", column(T::DateTime2, 9), std::string(9, '\x80'), false, "precision 9");
        row("timestamp2 truncated fraction", column(T::Timestamp2, 6), be(1, 4) + "\x01", true, "TIMESTAMP2");
        row("varchar length past end", column(T::VarChar, 10), le(5, 1) + "ab", true, "VARCHAR");
        row("varchar 2-byte length missing", column(T::VarChar, 300), le(5, 1), true, "VARCHAR");
        row("blob length past end", column(T::Blob, 4), le(1000000, 4) + "ab", true, "BLOB");
        row("blob pack length 5", column(T::Blob, 5), le(0, 5), false, "length-prefix size 5");
        row("bit with no bits", column(T::Bit, 0), "\x01", false, "BIT(0)");
        row("bit over 64", column(T::Bit, 0x0901), std::string(10, '\x01'), false, "BIT(73)");
        row("enum 3 bytes", column(T::String, 0xF703), le(1, 3), false, "ENUM");
        row("set 9 bytes", column(T::String, 0xF809), le(1, 8) + "\x01", false, "SET");
        row("compressed corrupt", column(T::VarCharCompressed, 100), le(4, 1) + "\x81\x05\x01\x02", false, "corrupt");
        row("compressed bad method", column(T::BlobCompressed, 1), le(2, 1) + "\x91\x05", false, "method");
        row("compressed length missing", column(T::BlobCompressed, 1), le(1, 1) + "\x83", false, "header");
        row("json bad type", column(T::Json, 1), le(2, 1) + std::string("\x42\x00", 2), false, "type 66");
        row("json container too big", column(T::Json, 1), le(5, 1) + std::string("\x00\x05\x00\xFF\x00", 5), false,
            "does not fit");
        row("old decimal", column(T::Decimal), "1", false, "old DECIMAL");
        row("unknown type", column(static_cast<T>(100)), "1", false, "unknown column type 100");
    }

    void badBytesOrMetadataAreClearErrors() {
        QFETCH(ColumnDef, column);
        QFETCH(QByteArray, bytes);
        QFETCH(bool, truncated);
        QFETCH(QString, messagePart);
        std::string input = bytes.toStdString();
        ByteReader reader(input);
        try {
            decodeColumnValue(column, reader);
            QFAIL("decoding succeeded");
        } catch (const TruncatedError& e) {
            QVERIFY2(truncated, e.what());
            QVERIFY2(QString(e.what()).contains(messagePart), e.what());
        } catch (const Error& e) {
            QVERIFY2(!truncated, e.what());
            QVERIFY2(QString(e.what()).contains(messagePart), e.what());
        }
    }

    // Every prefix of a valid value and random bytes under every type: a value or an Error, never a crash.
    void randomAndCutBytesNeverCrash() {
        using T = ColumnType;
        const std::vector<ColumnDef> columns = {
            column(T::Tiny),
            column(T::LongLong),
            column(T::Float, 4),
            column(T::Double, 8),
            column(T::NewDecimal, 65 << 8 | 30),
            column(T::NewDecimal, 10 << 8 | 2),
            column(T::Year),
            column(T::Date),
            column(T::Time),
            column(T::Time2, 3),
            column(T::Time2, 6),
            column(T::DateTime2, 4),
            column(T::Timestamp2, 6),
            column(T::VarChar, 300),
            column(T::String, 0xCEFC),
            column(T::String, 0xF702),
            column(T::String, 0xF808),
            column(T::Bit, 0x0305),
            column(T::Blob, 2),
            column(T::Json, 2),
            column(T::Json, 4),
            column(T::Geometry, 4),
            column(T::VarCharCompressed, 300),
            column(T::BlobCompressed, 2),
            column(T::Timestamp),
            column(T::DateTime),
        };
        std::mt19937 random(20240102);
        size_t decoded = 0;
        size_t rejected = 0;
        for (int round = 0; round < 3000; ++round) {
            std::string bytes(random() % 48, '\0');
            for (char& c : bytes) {
                c = static_cast<char>(random() & 0xFF);
            }
            if (round % 3 == 0 && bytes.size() > 2) {
                bytes[0] = static_cast<char>(random() % 16);  // small lengths reach deeper into JSON and blobs
                bytes[1] = 0;
            }
            for (const ColumnDef& c : columns) {
                ByteReader reader(bytes);
                try {
                    ColumnValue v = decodeColumnValue(c, reader);
                    (void)v.toText(c);
                    std::string json;
                    v.appendJson(json, c);
                    ++decoded;
                } catch (const Error&) {
                    ++rejected;
                }
            }
        }
        QVERIFY(decoded > 1000);
        QVERIFY(rejected > 1000);
    }

    void jsonPrefixesAreErrorsNotCrashes() {
        std::string doc = jsonObjectA1();
        for (size_t n = 0; n < doc.size(); ++n) {
            std::string bytes = le(n, 1) + doc.substr(0, n);
            ByteReader reader(bytes);
            try {
                ColumnValue v = decodeColumnValue(column(ColumnType::Json, 1), reader);
                QVERIFY2(n == 0, "a cut JSON document decoded");
            } catch (const Error& e) {
                QVERIFY(QString(e.what()).contains("JSON"));
            }
        }
    }
};

QTEST_GUILESS_MAIN(ValueDecoderTest)
#include "test_value_decoder.moc"
