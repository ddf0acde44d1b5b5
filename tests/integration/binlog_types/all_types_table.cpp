#include "tests/integration/binlog_types/all_types_table.h"

namespace syncscope::test {

namespace {

constexpr int kBigEnumValues = 300;  // over 255 values: a 2-byte ENUM
constexpr int kBigSetMembers = 64;   // the most a SET has: 8 bytes

std::string quotedList(const char* prefix, int count) {
    std::string out;
    for (int i = 1; i <= count; ++i) {
        out += (i > 1 ? "," : "") + std::string("'") + prefix + std::to_string(i) + "'";
    }
    return out;
}

std::vector<TypedColumn> makeColumns() {
    std::vector<TypedColumn> columns = {
        {"id", "INT NOT NULL PRIMARY KEY", ""},
        {"c_tiny", "TINYINT", ""},
        {"c_utiny", "TINYINT UNSIGNED", ""},
        {"c_small", "SMALLINT", ""},
        {"c_usmall", "SMALLINT UNSIGNED", ""},
        {"c_medium", "MEDIUMINT", ""},
        {"c_umedium", "MEDIUMINT UNSIGNED", ""},
        {"c_int", "INT", ""},
        {"c_uint", "INT UNSIGNED", ""},
        {"c_big", "BIGINT", ""},
        {"c_ubig", "BIGINT UNSIGNED", ""},
        {"c_float", "FLOAT", ""},
        {"c_double", "DOUBLE", ""},
        {"c_dec", "DECIMAL(10,2)", ""},
        {"c_dec_int", "DECIMAL(5,0)", ""},
        {"c_dec_frac", "DECIMAL(3,3)", ""},
        {"c_dec_65_30", "DECIMAL(65,30)", ""},
        {"c_dec_65_0", "DECIMAL(65,0)", ""},
        {"c_dec_38_38", "DECIMAL(38,38)", ""},
        {"c_year", "YEAR", ""},
        {"c_date", "DATE", ""},
        {"c_blob_tiny", "TINYBLOB", ""},
        {"c_blob", "BLOB", ""},
        {"c_blob_medium", "MEDIUMBLOB", ""},
        {"c_blob_long", "LONGBLOB", ""},
        {"c_text_tiny", "TINYTEXT", ""},
        {"c_text", "TEXT", ""},
        {"c_text_medium", "MEDIUMTEXT", ""},
        {"c_text_long", "LONGTEXT", ""},
        {"c_char", "CHAR(10)", ""},
        {"c_char_long", "CHAR(255)", ""},  // 1020 bytes in utf8mb4: the >255-length STRING metadata
        {"c_varchar", "VARCHAR(100)", ""},
        {"c_varchar_long", "VARCHAR(1000)", ""},
        {"c_binary", "BINARY(8)", ""},
        {"c_varbinary", "VARBINARY(300)", ""},
        {"c_enum", "ENUM('a','b','c')", ""},
        {"c_enum_big", "ENUM(" + quotedList("v", kBigEnumValues) + ")", ""},
        {"c_set", "SET('x','y','z')", ""},
        {"c_set_big", "SET(" + quotedList("m", kBigSetMembers) + ")", ""},
        {"c_bit1", "BIT(1)", "c_bit1 + 0"},
        {"c_bit10", "BIT(10)", "c_bit10 + 0"},
        {"c_bit64", "BIT(64)", "c_bit64 + 0"},
        {"c_json", "JSON", ""},
        {"c_geometry", "GEOMETRY", ""},
        {"c_point", "POINT", ""},
        {"c_varchar_comp", "VARCHAR(1000) COMPRESSED", ""},
        {"c_blob_comp", "BLOB COMPRESSED", ""},
        {"c_text_comp", "TEXT COMPRESSED", ""},
        {"c_inet6", "INET6", ""},
        {"c_uuid", "UUID", ""},
        {"c_inet4", "INET4", ""},
    };
    for (int fsp = 0; fsp <= 6; ++fsp) {
        const std::string suffix = std::to_string(fsp);
        const std::string precision = fsp == 0 ? "" : "(" + suffix + ")";
        columns.push_back({"c_time" + suffix, "TIME" + precision, ""});
        columns.push_back({"c_datetime" + suffix, "DATETIME" + precision, ""});
        columns.push_back({"c_timestamp" + suffix, "TIMESTAMP" + precision + " NULL DEFAULT NULL", ""});
    }
    return columns;
}

// The same literal for a temporal column of every fsp (MariaDB cuts the fraction to the column's).
void everyFsp(LiteralRow& row, const std::string& kind, const std::string& literal) {
    for (int fsp = 0; fsp <= 6; ++fsp) {
        row.emplace_back("c_" + kind + std::to_string(fsp), literal);
    }
}

std::string repeat(const std::string& s, int times) {
    std::string out;
    for (int i = 0; i < times; ++i) {
        out += s;
    }
    return out;
}

}  // namespace

const std::vector<TypedColumn>& allTypesColumns() {
    static const std::vector<TypedColumn> columns = makeColumns();
    return columns;
}

std::string allTypesCreateTable(const std::string& qualifiedName) {
    std::string sql = "CREATE TABLE " + qualifiedName + " (";
    bool first = true;
    for (const TypedColumn& column : allTypesColumns()) {
        sql += (first ? "" : ", ") + column.name + " " + column.sqlType;
        first = false;
    }
    return sql + ") DEFAULT CHARSET=utf8mb4";
}

std::vector<LiteralRow> allTypesRows() {
    const std::string emoji = "'\xF0\x9F\x98\x80 gr\xC3\xBC\xC3\x9F \xE6\x97\xA5\xE6\x9C\xAC'";
    std::vector<LiteralRow> rows;
    rows.push_back({});  // every column NULL

    LiteralRow zeros = {
        {"c_tiny", "0"},
        {"c_utiny", "0"},
        {"c_small", "0"},
        {"c_usmall", "0"},
        {"c_medium", "0"},
        {"c_umedium", "0"},
        {"c_int", "0"},
        {"c_uint", "0"},
        {"c_big", "0"},
        {"c_ubig", "0"},
        {"c_float", "0"},
        {"c_double", "0"},
        {"c_dec", "0"},
        {"c_dec_int", "0"},
        {"c_dec_frac", "0"},
        {"c_dec_65_30", "0"},
        {"c_dec_65_0", "0"},
        {"c_dec_38_38", "0"},
        {"c_year", "0"},
        {"c_date", "'0000-00-00'"},
        {"c_blob_tiny", "''"},
        {"c_blob", "''"},
        {"c_blob_medium", "''"},
        {"c_blob_long", "''"},
        {"c_text_tiny", "''"},
        {"c_text", "''"},
        {"c_text_medium", "''"},
        {"c_text_long", "''"},
        {"c_char", "''"},
        {"c_char_long", "''"},
        {"c_varchar", "''"},
        {"c_varchar_long", "''"},
        {"c_binary", "''"},
        {"c_varbinary", "''"},
        {"c_enum", "''"},
        {"c_enum_big", "''"},
        {"c_set", "''"},
        {"c_set_big", "''"},
        {"c_bit1", "0"},
        {"c_bit10", "0"},
        {"c_bit64", "0"},
        {"c_json", "'[]'"},
        {"c_geometry", "ST_GeomFromText('POINT(0 0)')"},
        {"c_point", "POINT(0, 0)"},
        {"c_varchar_comp", "''"},
        {"c_blob_comp", "''"},
        {"c_text_comp", "''"},
        {"c_inet6", "'::'"},
        {"c_uuid", "'00000000-0000-0000-0000-000000000000'"},
        {"c_inet4", "'0.0.0.0'"},
    };
    everyFsp(zeros, "time", "'00:00:00'");
    everyFsp(zeros, "datetime", "'0000-00-00 00:00:00'");
    everyFsp(zeros, "timestamp", "'0000-00-00 00:00:00'");
    rows.push_back(zeros);

    LiteralRow minimums = {
        {"c_tiny", "-128"},
        {"c_utiny", "0"},
        {"c_small", "-32768"},
        {"c_usmall", "0"},
        {"c_medium", "-8388608"},
        {"c_umedium", "0"},
        {"c_int", "-2147483648"},
        {"c_uint", "0"},
        {"c_big", "-9223372036854775808"},
        {"c_ubig", "0"},
        {"c_float", "-3.40282e38"},
        {"c_double", "-1.7976931348623157e308"},
        {"c_dec", "-99999999.99"},
        {"c_dec_int", "-99999"},
        {"c_dec_frac", "-0.999"},
        {"c_dec_65_30", "-" + repeat("9", 35) + "." + repeat("9", 30)},
        {"c_dec_65_0", "-" + repeat("9", 65)},
        {"c_dec_38_38", "-0." + repeat("9", 38)},
        {"c_year", "1901"},
        {"c_date", "'1000-01-01'"},
        {"c_text", emoji},
        {"c_char", emoji},
        {"c_varchar", emoji},
        {"c_enum", "'a'"},
        {"c_enum_big", "'v1'"},
        {"c_set", "'x'"},
        {"c_set_big", "'m1'"},
        {"c_bit1", "1"},
        {"c_bit10", "1"},
        {"c_bit64", "1"},
        {"c_json", "'{\"a\": -1}'"},
        {"c_inet6", "'::1'"},
        {"c_uuid", "'00000000-0000-0000-0000-000000000001'"},
        {"c_inet4", "'1.2.3.4'"},
    };
    everyFsp(minimums, "time", "'-838:59:59'");
    everyFsp(minimums, "datetime", "'1000-01-01 00:00:00'");
    everyFsp(minimums, "timestamp", "'1970-01-01 00:00:01'");
    rows.push_back(minimums);

    LiteralRow maximums = {
        {"c_tiny", "127"},
        {"c_utiny", "255"},
        {"c_small", "32767"},
        {"c_usmall", "65535"},
        {"c_medium", "8388607"},
        {"c_umedium", "16777215"},
        {"c_int", "2147483647"},
        {"c_uint", "4294967295"},
        {"c_big", "9223372036854775807"},
        {"c_ubig", "18446744073709551615"},
        {"c_float", "3.40282e38"},
        {"c_double", "1.7976931348623157e308"},
        {"c_dec", "99999999.99"},
        {"c_dec_int", "99999"},
        {"c_dec_frac", "0.999"},
        {"c_dec_65_30", repeat("9", 35) + "." + repeat("9", 30)},
        {"c_dec_65_0", repeat("9", 65)},
        {"c_dec_38_38", "0." + repeat("9", 38)},
        {"c_year", "2155"},
        {"c_date", "'9999-12-31'"},
        {"c_blob_tiny", "REPEAT(x'FF00', 127)"},
        {"c_blob", "REPEAT(x'00FF', 30000)"},
        {"c_blob_medium", "REPEAT(x'ABCD', 40000)"},
        {"c_blob_long", "REPEAT(x'01', 100000)"},
        {"c_text_tiny", "REPEAT('z', 255)"},
        {"c_text", "REPEAT(" + emoji + ", 3000)"},
        {"c_text_medium", "REPEAT(" + emoji + ", 5000)"},
        {"c_text_long", "REPEAT(" + emoji + ", 6000)"},
        {"c_char", "REPEAT('\xF0\x9F\x98\x80', 10)"},
        {"c_char_long", "REPEAT('\xF0\x9F\x98\x80', 255)"},
        {"c_varchar", "REPEAT('\xC3\xA9', 100)"},
        {"c_varchar_long", "REPEAT('\xF0\x9F\x98\x80', 1000)"},
        {"c_binary", "x'FFFFFFFFFFFFFFFF'"},
        {"c_varbinary", "REPEAT(x'FE', 300)"},
        {"c_enum", "'c'"},
        {"c_enum_big", "'v300'"},
        {"c_set", "'x,y,z'"},
        {"c_set_big", "'m1,m2,m32,m33,m63,m64'"},
        {"c_bit1", "b'1'"},
        {"c_bit10", "b'1111111111'"},
        {"c_bit64", "18446744073709551615"},
        {"c_json", "'{\"k\": [1, 2.5, \"x\", null, true], \"nested\": {\"e\": \"\xF0\x9F\x98\x80\"}}'"},
        {"c_geometry", "ST_GeomFromText('POLYGON((0 0, 10 0, 10 10, 0 10, 0 0))')"},
        {"c_point", "POINT(-1.5, 1e300)"},
        {"c_varchar_comp", "REPEAT('\xF0\x9F\x98\x80', 1000)"},
        {"c_blob_comp", "REPEAT(x'00FF', 30000)"},
        {"c_text_comp", "REPEAT(" + emoji + ", 2000)"},
        {"c_inet6", "'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'"},
        {"c_uuid", "'ffffffff-ffff-1fff-bfff-ffffffffffff'"},
        {"c_inet4", "'255.255.255.255'"},
    };
    everyFsp(maximums, "time", "'838:59:59'");
    everyFsp(maximums, "datetime", "'9999-12-31 23:59:59.999999'");
    everyFsp(maximums, "timestamp", "'2038-01-19 03:14:07.999999'");
    rows.push_back(maximums);

    LiteralRow fractions = {
        {"c_tiny", "-1"},
        {"c_small", "-2"},
        {"c_medium", "-3"},
        {"c_int", "-4"},
        {"c_big", "-5"},
        {"c_float", "3.14"},
        {"c_double", "0.00001"},
        {"c_dec", "-0.5"},
        {"c_dec_int", "-1"},
        {"c_dec_frac", "-0.001"},
        {"c_dec_65_30", "-0.000000000000000000000000000001"},
        {"c_dec_65_0", "-1"},
        {"c_dec_38_38", "0.00000000000000000000000000000000000001"},
        {"c_year", "2024"},
        {"c_date", "'2024-02-29'"},
        {"c_text_tiny", emoji},
        {"c_char", "'ab  '"},
        {"c_varchar", "'trailing  '"},
        {"c_varchar_long", "REPEAT('\xC3\xA9', 300)"},
        {"c_binary", "x'41000000'"},
        {"c_varbinary", "x'FF00FE'"},
        {"c_enum", "'b'"},
        {"c_enum_big", "'v256'"},
        {"c_set", "'z,x'"},
        {"c_set_big", "'m9,m17,m25'"},
        {"c_bit10", "b'1000000001'"},
        {"c_bit64", "b'1000000000000000000000000000000000000000000000000000000000000001'"},
        {"c_json", "'\"just a string\"'"},
        {"c_point", "POINT(1.5, -2.25)"},
        {"c_varchar_comp", "'short'"},
        {"c_blob_comp", "x'00'"},
        {"c_text_comp", emoji},
        {"c_inet6", "'2001:db8::ff00:42:8329'"},
        {"c_uuid", "'123e4567-e89b-42d3-a456-556642440000'"},
        {"c_inet4", "'10.0.0.1'"},
        {"c_time0", "'-12:34:56'"},
        {"c_time1", "'-00:00:00.5'"},
        {"c_time2", "'-01:02:03.45'"},
        {"c_time3", "'12:34:56.789'"},
        {"c_time4", "'-12:34:56.7891'"},
        {"c_time5", "'00:00:00.00001'"},
        {"c_time6", "'-838:59:59.000000'"},
    };
    everyFsp(fractions, "datetime", "'2024-01-02 03:04:05.123456'");
    everyFsp(fractions, "timestamp", "'2024-01-02 03:04:05.654321'");
    rows.push_back(fractions);

    LiteralRow moreFractions;
    everyFsp(moreFractions, "time", "'-00:00:01.999999'");
    everyFsp(moreFractions, "datetime", "'2000-02-29 23:59:59.000001'");
    everyFsp(moreFractions, "timestamp", "'2000-02-29 23:59:59.000001'");
    moreFractions.emplace_back("c_float", "-0.000123");
    moreFractions.emplace_back("c_double", "1.2345678901234568e18");
    moreFractions.emplace_back("c_dec", "12345678.9");
    rows.push_back(moreFractions);
    return rows;
}

}  // namespace syncscope::test
