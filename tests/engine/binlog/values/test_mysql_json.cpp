// MySQL binary JSON converts to the JSON text MySQL prints: every node type (small and large objects
// and arrays, literals, integers of each width, doubles, strings, opaque DECIMAL/DATE/TIME/DATETIME and
// other opaque types), and malformed documents are errors, not crashes.
#include <QtTest>

#include <random>

#include "engine/binlog/mysql_json.h"
#include "engine/common/error.h"
#include "tests/engine/binlog/values/value_bytes.h"

using namespace syncscope;
using namespace syncscope::binlog;
using namespace syncscope::binlog::testbytes;

namespace {

// A node of binary JSON: its type byte and its data.
struct Node {
    uint8_t type = 0;
    std::string data;
};

Node literal(uint8_t v) {
    return {0x04, le(v, 1)};
}
Node int16(int16_t v) {
    return {0x05, le(static_cast<uint16_t>(v), 2)};
}
Node uint16(uint16_t v) {
    return {0x06, le(v, 2)};
}
Node int32(int32_t v) {
    return {0x07, le(static_cast<uint32_t>(v), 4)};
}
Node uint32(uint32_t v) {
    return {0x08, le(v, 4)};
}
Node int64(int64_t v) {
    return {0x09, le(static_cast<uint64_t>(v), 8)};
}
Node uint64(uint64_t v) {
    return {0x0a, le(v, 8)};
}
Node dbl(double v) {
    return {0x0b, doubleBytes(v)};
}

std::string varLength(size_t n) {
    std::string out;
    do {
        uint8_t b = n & 0x7F;
        n >>= 7;
        out.push_back(static_cast<char>(n ? (b | 0x80) : b));
    } while (n);
    return out;
}

Node str(const std::string& s) {
    return {0x0c, varLength(s.size()) + s};
}
Node opaque(uint8_t fieldType, const std::string& data) {
    return {0x0f, std::string(1, static_cast<char>(fieldType)) + varLength(data.size()) + data};
}

bool inlined(uint8_t type, bool large) {
    return type == 0x04 || type == 0x05 || type == 0x06 || (large && (type == 0x07 || type == 0x08));
}

Node container(const std::vector<std::pair<std::string, Node>>& items, bool isObject, bool large) {
    const size_t w = large ? 4 : 2;
    const size_t n = items.size();
    size_t header = 2 * w + (isObject ? n * (w + 2) : 0) + n * (1 + w);
    std::string keys;
    std::string keyEntries;
    size_t pos = header;
    for (const auto& [key, node] : items) {
        if (isObject) {
            keyEntries += le(pos + keys.size(), w) + le(key.size(), 2);
            keys += key;
        }
    }
    pos += keys.size();
    std::string values;
    std::string valueEntries;
    for (const auto& [key, node] : items) {
        valueEntries.push_back(static_cast<char>(node.type));
        if (inlined(node.type, large)) {
            std::string v = node.data;
            v.resize(w, '\0');
            valueEntries += v;
        } else {
            valueEntries += le(pos + values.size(), w);
            values += node.data;
        }
    }
    const size_t size = header + keys.size() + values.size();
    uint8_t type = isObject ? (large ? 0x01 : 0x00) : (large ? 0x03 : 0x02);
    return {type, le(n, w) + le(size, w) + keyEntries + valueEntries + keys + values};
}

Node object(const std::vector<std::pair<std::string, Node>>& items, bool large = false) {
    return container(items, true, large);
}

Node array(const std::vector<Node>& items, bool large = false) {
    std::vector<std::pair<std::string, Node>> wrapped;
    for (const Node& n : items) {
        wrapped.emplace_back("", n);
    }
    return container(wrapped, false, large);
}

std::string doc(const Node& n) {
    return std::string(1, static_cast<char>(n.type)) + n.data;
}

QByteArray qb(const std::string& s) {
    return QByteArray(s.data(), static_cast<qsizetype>(s.size()));
}

}  // namespace

class MysqlJsonTest : public QObject {
    Q_OBJECT

private slots:
    void convertsToMysqlJsonText_data() {
        QTest::addColumn<QByteArray>("binary");
        QTest::addColumn<QString>("text");
        auto row = [](const char* name, const Node& n, const char* text) {
            QTest::addRow("%s", name) << qb(doc(n)) << QString::fromUtf8(text);
        };
        row("null", literal(0), "null");
        row("true", literal(1), "true");
        row("false", literal(2), "false");
        row("int16 min", int16(-32768), "-32768");
        row("uint16 max", uint16(65535), "65535");
        row("int32 min", int32(INT32_MIN), "-2147483648");
        row("uint32 max", uint32(UINT32_MAX), "4294967295");
        row("int64 min", int64(INT64_MIN), "-9223372036854775808");
        row("uint64 max", uint64(UINT64_MAX), "18446744073709551615");
        row("double", dbl(2.5), "2.5");
        row("double whole keeps .0", dbl(2.0), "2.0");
        row("double exponent", dbl(1e300), "1e300");
        row("string escaped", str("a\"b\\\n\x01\xC3\xA9"), "\"a\\\"b\\\\\\n\\u0001\xC3\xA9\"");
        row("long string", str(std::string(200, 'x')), ("\"" + std::string(200, 'x') + "\"").c_str());
        row("empty object", object({}), "{}");
        row("empty array", array({}), "[]");
        row("small object", object({{"a", int16(1)}, {"bb", str("x")}, {"c", literal(0)}}),
            "{\"a\": 1, \"bb\": \"x\", \"c\": null}");
        row("small array", array({int16(1), dbl(2.5), str("s"), literal(1), int64(-7)}), "[1, 2.5, \"s\", true, -7]");
        row("large object inlines int32", object({{"k", int32(-5)}, {"u", uint32(7)}}, true), "{\"k\": -5, \"u\": 7}");
        row("large array", array({str("x"), uint64(1)}, true), "[\"x\", 1]");
        row("nested", object({{"arr", array({object({{"x", literal(2)}}), array({})})}, {"o", object({})}}),
            "{\"arr\": [{\"x\": false}, []], \"o\": {}}");
        row("opaque decimal", opaque(246, std::string("\x05\x02", 2) + decimalBytes("-123.45", 5, 2)), "-123.45");
        // Packed DATETIME 2015-01-15 23:24:25.000001 and TIME -01:02:03.5, DATE 2024-02-29.
        const int64_t ymd = ((2015LL * 13 + 1) << 5) | 15;
        const int64_t hms = (23 << 12) | (24 << 6) | 25;
        const int64_t datetime = ((ymd << 17 | hms) << 24) + 1;
        row("opaque datetime", opaque(12, le(static_cast<uint64_t>(datetime), 8)), "\"2015-01-15 23:24:25.000001\"");
        row("opaque timestamp", opaque(7, le(static_cast<uint64_t>(datetime), 8)), "\"2015-01-15 23:24:25.000001\"");
        row("opaque time negative", opaque(11, le(static_cast<uint64_t>(packedTime(true, 1, 2, 3, 500000)), 8)),
            "\"-01:02:03.500000\"");
        const int64_t date = (((2024LL * 13 + 2) << 5 | 29) << 17) << 24;
        row("opaque date", opaque(10, le(static_cast<uint64_t>(date), 8)), "\"2024-02-29\"");
        row("opaque other is base64", opaque(252, "abcd"), "\"base64:type252:YWJjZA==\"");
        row("opaque other two bytes", opaque(15, "ab"), "\"base64:type15:YWI=\"");
    }

    void convertsToMysqlJsonText() {
        QFETCH(QByteArray, binary);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(mysqlJsonToText(binary.toStdString())), text);
    }

    void emptyDocumentIsNull() { QCOMPARE(mysqlJsonToText(""), std::string("null")); }

    void malformedDocumentsAreErrors_data() {
        QTest::addColumn<QByteArray>("binary");
        QTest::addColumn<QString>("messagePart");
        QTest::newRow("unknown type") << qb("\x0e") << "unknown value type 14";
        QTest::newRow("bad literal") << qb(std::string("\x04\x07", 2)) << "unknown literal 7";
        QTest::newRow("cut int64") << qb(std::string("\x09\x01\x02", 3)) << "runs past the end";
        QTest::newRow("string past end") << qb(std::string("\x0c\x05"
                                                           "ab",
                                                           4))
                                         << "string of 5 bytes";
        QTest::newRow("length over 5 bytes") << qb(std::string("\x0c\xff\xff\xff\xff\xff\x01", 7)) << "5 bytes";
        QTest::newRow("object size past end") << qb(std::string("\x00\x01\x00\x40\x00", 5)) << "does not fit";
        QTest::newRow("count past size") << qb(std::string("\x02\x09\x00\x06\x00\x00\x00", 7)) << "does not fit";
        std::string badOffset = doc(array({str("x")}));
        badOffset[6] = 0x7F;  // the value's offset, past the array
        QTest::newRow("value offset past container") << qb(badOffset) << "past its container";
        std::string badKey = doc(object({{"k", int16(1)}}));
        badKey[5] = 0x7F;  // the key's offset
        QTest::newRow("key past object") << qb(badKey) << "key runs past";
        QTest::newRow("opaque decimal bad precision")
            << qb(doc(opaque(246, std::string("\x00\x00\x80", 3)))) << "DECIMAL(0,0)";
    }

    void malformedDocumentsAreErrors() {
        QFETCH(QByteArray, binary);
        QFETCH(QString, messagePart);
        try {
            std::string text = mysqlJsonToText(binary.toStdString());
            QFAIL(("decoded to " + text).c_str());
        } catch (const Error& e) {
            QVERIFY2(QString(e.what()).contains(messagePart), e.what());
        }
    }

    void deepNestingIsRefusedNotAStackOverflow() {
        Node n = array({});
        for (int i = 0; i < 200; ++i) {
            n = array({n}, true);
        }
        try {
            mysqlJsonToText(doc(n));
            QFAIL("a 200-deep document decoded");
        } catch (const Error& e) {
            QVERIFY2(QString(e.what()).contains("nesting"), e.what());
        }
    }

    void randomBytesNeverCrash() {
        std::mt19937 random(7);
        const std::string seed =
            doc(object({{"a", array({str("xy"), dbl(1.5), int32(3)})}, {"b", object({{"c", literal(1)}})}}));
        int rejected = 0;
        for (int round = 0; round < 20000; ++round) {
            std::string bytes = seed;
            for (int k = 0; k < 3; ++k) {
                bytes[random() % bytes.size()] = static_cast<char>(random() & 0xFF);
            }
            bytes.resize(random() % (bytes.size() + 1));
            try {
                (void)mysqlJsonToText(bytes);
            } catch (const Error&) {
                ++rejected;
            }
        }
        QVERIFY(rejected > 1000);
    }
};

QTEST_GUILESS_MAIN(MysqlJsonTest)
#include "test_mysql_json.moc"
