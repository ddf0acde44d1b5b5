// ColumnValue stays compact, copies and moves without losing or leaking its bytes, refuses accessors
// of another kind, and renders the JSON form `syncscope-cli decode --json` prints.
#include <QtTest>

#include <nlohmann/json.hpp>

#include "engine/binlog/column_value.h"
#include "engine/common/error.h"

using namespace syncscope;
using namespace syncscope::binlog;

Q_DECLARE_METATYPE(syncscope::binlog::ColumnValue)
Q_DECLARE_METATYPE(syncscope::binlog::ColumnDef)

namespace {

ColumnDef plainColumn() {
    return ColumnDef{};
}

ColumnDef enumColumn(std::vector<std::string> values) {
    ColumnDef c;
    c.enumValues = std::move(values);
    return c;
}

TemporalValue timeOf(bool negative, uint16_t h, uint8_t m, uint8_t s, uint32_t micro, uint8_t fsp) {
    TemporalValue t;
    t.negative = negative;
    t.hour = h;
    t.minute = m;
    t.second = s;
    t.microsecond = micro;
    t.fsp = fsp;
    return t;
}

}  // namespace

class ColumnValueTest : public QObject {
    Q_OBJECT

private slots:
    void fixedSizeValuesAreCompact() {
        QVERIFY(sizeof(ColumnValue) <= 40);
        QVERIFY(!ColumnValue::signedInt(1).hasBytes());
        QVERIFY(!ColumnValue::time(timeOf(true, 838, 59, 59, 0, 6)).hasBytes());
        QVERIFY(ColumnValue::decimal("1.5").hasBytes());
    }

    void copiesAndMovesKeepTheValue() {
        const std::string longText(1000, 'q');
        ColumnValue text = ColumnValue::string(longText);
        ColumnValue copy = text;
        QCOMPARE(copy.bytes(), std::string_view(longText));
        ColumnValue moved = std::move(copy);
        QCOMPARE(moved.bytes(), std::string_view(longText));
        ColumnValue target = ColumnValue::signedInt(5);
        target = moved;  // scalar to string
        QCOMPARE(target.bytes(), std::string_view(longText));
        target = ColumnValue::doubleValue(2.5);  // string to scalar
        QCOMPARE(target.asDouble(), 2.5);
        target = ColumnValue::json("{}");   // scalar to string again
        target = ColumnValue::bytes("ab");  // string to string
        QCOMPARE(target.kind(), ValueKind::Bytes);
        QCOMPARE(target.bytes(), std::string_view("ab"));
        std::vector<ColumnValue> row(3);
        row[1] = text;
        row.resize(100);  // reallocation moves every value
        QCOMPARE(row[1].bytes(), std::string_view(longText));
        QVERIFY(row[0].isNull());
        QVERIFY(ColumnValue::decimal("1.50") == ColumnValue::decimal("1.50"));
        QVERIFY(!(ColumnValue::decimal("1.50") == ColumnValue::string("1.50")));
        QVERIFY(ColumnValue::unsignedInt(7) == ColumnValue::unsignedInt(7));
        QVERIFY(!(ColumnValue::unsignedInt(7) == ColumnValue::bit(7)));
    }

    void shortTextIsInsideTheValueLongTextOnTheHeap() {
        const std::string shortText(ColumnValue::kInlineCapacity, 's');
        ColumnValue inlineValue = ColumnValue::string(shortText);
        const auto* self = reinterpret_cast<const char*>(&inlineValue);
        const char* data = inlineValue.bytes().data();
        QVERIFY(data >= self && data < self + sizeof(ColumnValue));  // no heap allocation
        QCOMPARE(inlineValue.bytes(), std::string_view(shortText));
        ColumnValue moved = std::move(inlineValue);
        QCOMPARE(moved.bytes(), std::string_view(shortText));
        const std::string longText(ColumnValue::kInlineCapacity + 1, 'l');
        ColumnValue heapValue = ColumnValue::bytes(longText);
        data = heapValue.bytes().data();
        self = reinterpret_cast<const char*>(&heapValue);
        QVERIFY(data < self || data >= self + sizeof(ColumnValue));
        QCOMPARE(heapValue.bytes(), std::string_view(longText));
    }

    void inPlaceSettersKeepTheHeapBufferForText() {
        ColumnValue value;
        const std::string first(200, 'a');
        value.setText(ValueKind::String, first);
        const char* buffer = value.bytes().data();
        value.setText(ValueKind::Bytes, std::string(100, 'b'));  // shorter: same buffer
        QCOMPARE(value.kind(), ValueKind::Bytes);
        QCOMPARE(value.bytes().data(), buffer);
        QCOMPARE(value.bytes(), std::string_view(std::string(100, 'b')));
        value.setText(ValueKind::Decimal, "-1.50");  // short text, still the same buffer
        QCOMPARE(value.bytes(), std::string_view("-1.50"));
        QCOMPARE(value.bytes().data(), buffer);
        value.setSignedInt(-7);  // to a scalar: the buffer is released
        QCOMPARE(value.asInt(), int64_t{-7});
        QVERIFY(!value.hasBytes());
        value.setTimestamp(TimestampValue{951868799, 1, 6});
        QCOMPARE(value.toText(plainColumn()), std::string("2000-02-29 23:59:59.000001"));
        value.setText(ValueKind::String, value.toText(plainColumn()));
        QCOMPARE(value.bytes(), std::string_view("2000-02-29 23:59:59.000001"));
        value.setText(ValueKind::String, value.bytes().substr(11));  // its own bytes
        QCOMPARE(value.bytes(), std::string_view("23:59:59.000001"));
        value.setNull();
        QVERIFY(value.isNull());
        QVERIFY(!value.hasBytes());
    }

    void borrowedTextPointsAtItsSourceAndCopiesOwn() {
        std::string source = "a value longer than the inline capacity of a column value";
        ColumnValue borrowed;
        borrowed.setBorrowedText(ValueKind::String, source);
        QVERIFY(borrowed.isBorrowed());
        QCOMPARE(borrowed.bytes().data(), source.data());
        ColumnValue moved = std::move(borrowed);
        QVERIFY(moved.isBorrowed());
        QCOMPARE(moved.bytes().data(), source.data());
        ColumnValue copy = moved;
        QVERIFY(!copy.isBorrowed());
        ColumnValue assigned = ColumnValue::string(std::string(300, 'x'));
        assigned = moved;
        QVERIFY(!assigned.isBorrowed());
        std::vector<ColumnValue> kept{moved};
        source.assign(source.size(), '#');  // the source changes; the copies do not
        QCOMPARE(copy.bytes(), std::string_view("a value longer than the inline capacity of a column value"));
        QCOMPARE(assigned.bytes(), copy.bytes());
        QCOMPARE(kept[0].bytes(), copy.bytes());
        QVERIFY(copy == kept[0]);
        QCOMPARE(moved.bytes(), std::string_view(source));
        ColumnValue shortBorrowed;
        shortBorrowed.setBorrowedText(ValueKind::Bytes, std::string_view(source).substr(0, 3));
        ColumnValue shortCopy = shortBorrowed;
        QVERIFY(!shortCopy.isBorrowed());
        QCOMPARE(shortCopy.bytes(), std::string_view("###"));
        QCOMPARE(shortCopy.kind(), ValueKind::Bytes);
    }

    void accessorOfAnotherKindIsAClearError() {
        ColumnValue value = ColumnValue::unsignedInt(3);
        try {
            (void)value.asInt();
            QFAIL("asInt on an unsigned value succeeded");
        } catch (const Error& e) {
            QCOMPARE(QString(e.what()), QString("column value is unsigned integer, not signed integer"));
        }
        QVERIFY_THROWS_EXCEPTION(Error, (void)ColumnValue::null().bytes());
        QVERIFY_THROWS_EXCEPTION(Error, (void)ColumnValue::signedInt(1).temporal());
        QVERIFY_THROWS_EXCEPTION(Error, (void)ColumnValue::enumIndex(1).bits());
    }

    void rendersText_data() {
        QTest::addColumn<ColumnValue>("value");
        QTest::addColumn<ColumnDef>("column");
        QTest::addColumn<QString>("text");
        QTest::newRow("null") << ColumnValue::null() << plainColumn() << "NULL";
        QTest::newRow("time negative fsp6")
            << ColumnValue::time(timeOf(true, 838, 59, 59, 0, 6)) << plainColumn() << "-838:59:59.000000";
        QTest::newRow("time fsp3 micro cut")
            << ColumnValue::time(timeOf(false, 1, 2, 3, 123456, 3)) << plainColumn() << "01:02:03.123";
        QTest::newRow("timestamp zero fsp2")
            << ColumnValue::timestamp(0, 0, 2) << plainColumn() << "0000-00-00 00:00:00.00";
        QTest::newRow("timestamp utc") << ColumnValue::timestamp(951868799, 1, 6) << plainColumn()
                                       << "2000-02-29 23:59:59.000001";
        QTest::newRow("year 0") << ColumnValue::year(0) << plainColumn() << "0000";
        QTest::newRow("enum") << ColumnValue::enumIndex(2) << enumColumn({"small", "large"}) << "large";
        QTest::newRow("enum past names") << ColumnValue::enumIndex(3) << enumColumn({"small"}) << "3";
        QTest::newRow("set") << ColumnValue::set(0b101) << enumColumn({"r", "w", "x"}) << "r,x";
        QTest::newRow("set without names") << ColumnValue::set(0b101) << plainColumn() << "5";
        QTest::newRow("float 0.1") << ColumnValue::floatValue(0.1f) << plainColumn() << "0.1";
        QTest::newRow("float negative 6 digits") << ColumnValue::floatValue(-0.000123f) << plainColumn() << "-0.000123";
        QTest::newRow("double 1e16") << ColumnValue::doubleValue(1e16) << plainColumn() << "1e16";
        QTest::newRow("double fraction over 15 digits")
            << ColumnValue::doubleValue(1234567890123456.7) << plainColumn() << "1234567890123456.8";
        QTest::newRow("double 1e-15 fixed") << ColumnValue::doubleValue(1e-15) << plainColumn() << "0.000000000000001";
        QTest::newRow("double 1e-16") << ColumnValue::doubleValue(1e-16) << plainColumn() << "1e-16";
        QTest::newRow("double 1e-14 fixed") << ColumnValue::doubleValue(1e-14) << plainColumn() << "0.00000000000001";
    }

    void rendersText() {
        QFETCH(ColumnValue, value);
        QFETCH(ColumnDef, column);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(value.toText(column)), text);
    }

    void rendersJson_data() {
        QTest::addColumn<ColumnValue>("value");
        QTest::addColumn<ColumnDef>("column");
        QTest::addColumn<QString>("json");
        ColumnDef inet6;
        inet6.extendedType = ExtendedType::Inet6;
        QTest::newRow("null") << ColumnValue::null() << plainColumn() << "null";
        QTest::newRow("bigint min") << ColumnValue::signedInt(INT64_MIN) << plainColumn() << "-9223372036854775808";
        QTest::newRow("bigint unsigned max")
            << ColumnValue::unsignedInt(UINT64_MAX) << plainColumn() << "18446744073709551615";
        QTest::newRow("float") << ColumnValue::floatValue(3.14f) << plainColumn() << "3.14";
        QTest::newRow("double exponent") << ColumnValue::doubleValue(-1.5e300) << plainColumn() << "-1.5e300";
        QTest::newRow("decimal is a string") << ColumnValue::decimal("-0.50") << plainColumn() << "\"-0.50\"";
        QTest::newRow("year is a number") << ColumnValue::year(2024) << plainColumn() << "2024";
        QTest::newRow("bit is a number") << ColumnValue::bit(1023) << plainColumn() << "1023";
        QTest::newRow("time is a string")
            << ColumnValue::time(timeOf(true, 1, 0, 0, 500000, 1)) << plainColumn() << "\"-01:00:00.5\"";
        QTest::newRow("date") << ColumnValue::date(2024, 2, 29) << plainColumn() << "\"2024-02-29\"";
        QTest::newRow("enum is its name") << ColumnValue::enumIndex(1) << enumColumn({"on"}) << "\"on\"";
        QTest::newRow("text escaped") << ColumnValue::string("a\"b\\c\n\x01") << plainColumn()
                                      << "\"a\\\"b\\\\c\\n\\u0001\"";
        QTest::newRow("emoji text") << ColumnValue::string("\xF0\x9F\x98\x80") << plainColumn()
                                    << QString::fromUtf8("\"\xF0\x9F\x98\x80\"");
        QTest::newRow("invalid utf8 text is hex")
            << ColumnValue::string("\xC3") << plainColumn() << "{\"hex\": \"c3\"}";
        QTest::newRow("binary valid utf8 is a string") << ColumnValue::bytes("ab") << plainColumn() << "\"ab\"";
        QTest::newRow("binary is hex") << ColumnValue::bytes(std::string("\x00\xFF", 2)) << plainColumn()
                                       << "{\"hex\": \"00ff\"}";
        QTest::newRow("overlong utf8 is hex")
            << ColumnValue::bytes("\xC0\xAF") << plainColumn() << "{\"hex\": \"c0af\"}";
        QTest::newRow("surrogate is hex")
            << ColumnValue::bytes("\xED\xA0\x80") << plainColumn() << "{\"hex\": \"eda080\"}";
        QTest::newRow("geometry is hex") << ColumnValue::geometry("ab") << plainColumn() << "{\"hex\": \"6162\"}";
        QTest::newRow("inet6 is its text") << ColumnValue::bytes(std::string(15, '\0') + "\x01") << inet6 << "\"::1\"";
        QTest::newRow("json document") << ColumnValue::json("{\"a\": [1, 2.5]}") << plainColumn()
                                       << "{\"a\": [1, 2.5]}";
    }

    void rendersJson() {
        QFETCH(ColumnValue, value);
        QFETCH(ColumnDef, column);
        QFETCH(QString, json);
        std::string appended;
        value.appendJson(appended, column);
        QCOMPARE(QString::fromStdString(appended), json);
        // The nlohmann form is the same document.
        QCOMPARE(value.toJson(column), nlohmann::json::parse(appended));
    }
};

QTEST_GUILESS_MAIN(ColumnValueTest)
#include "test_column_value.moc"
