// How decoded binlog values are bound, how they read in messages, and which downstream errors heal
// by themselves.
#include <QtTest>

#include "engine/apply/apply_failure.h"
#include "engine/apply/error_class.h"
#include "engine/apply/sql_value.h"
#include "tests/engine/apply/row_change_fixtures.h"

using namespace syncscope;
using namespace syncscope::apply;
using binlog::ColumnDef;
using binlog::ColumnType;
using binlog::ColumnValue;

Q_DECLARE_METATYPE(syncscope::apply::SqlValueKind)

namespace {

ColumnDef def(ColumnType type, uint32_t charset = 0) {
    ColumnDef column;
    column.type = type;
    column.charset = charset;
    return column;
}

constexpr uint32_t kUtf8mb4GeneralCi = 45;
constexpr uint32_t kLatin1SwedishCi = 8;
constexpr uint32_t kUtf8mb4NopadBinMaria = 1024 + 46;

}  // namespace

class ApplyValuesAndErrorsTest : public QObject {
    Q_OBJECT

private slots:
    void binlogValuesBindWithTheRightSetter_data() {
        QTest::addColumn<int>("index");
        QTest::addColumn<SqlValueKind>("kind");
        QTest::addColumn<QString>("text");
        QTest::addRow("signed") << 0 << SqlValueKind::Signed << "-5";
        QTest::addRow("unsigned beyond int64") << 1 << SqlValueKind::Unsigned << "18446744073709551615";
        QTest::addRow("decimal as exact text") << 2 << SqlValueKind::Text << "-0.50";
        QTest::addRow("enum as its index") << 3 << SqlValueKind::Unsigned << "2";
        QTest::addRow("set as its bit mask") << 4 << SqlValueKind::Unsigned << "5";
        QTest::addRow("utf8mb4 text as text") << 5 << SqlValueKind::Text << QString::fromUtf8("é😀");
        QTest::addRow("latin1 text as bytes") << 6 << SqlValueKind::Bytes << QString::fromLatin1("\xe9");
        QTest::addRow("binary as bytes") << 7 << SqlValueKind::Bytes << QString("a");
        QTest::addRow("null") << 8 << SqlValueKind::Null << QString();
        QTest::addRow("MariaDB nopad utf8mb4 collation is text") << 9 << SqlValueKind::Text << "x";
    }
    void binlogValuesBindWithTheRightSetter() {
        QFETCH(int, index);
        QFETCH(SqlValueKind, kind);
        QFETCH(QString, text);
        const std::vector<std::pair<ColumnValue, ColumnDef>> cases = {
            {ColumnValue::signedInt(-5), def(ColumnType::Long)},
            {ColumnValue::unsignedInt(UINT64_MAX), def(ColumnType::LongLong)},
            {ColumnValue::decimal("-0.50"), def(ColumnType::NewDecimal)},
            {ColumnValue::enumIndex(2), def(ColumnType::Enum)},
            {ColumnValue::set(5), def(ColumnType::Set)},
            {ColumnValue::string("é😀"), def(ColumnType::VarChar, kUtf8mb4GeneralCi)},
            {ColumnValue::string("\xe9"), def(ColumnType::VarChar, kLatin1SwedishCi)},
            {ColumnValue::bytes("a"), def(ColumnType::Blob, 63)},
            {ColumnValue::null(), def(ColumnType::Long)},
            {ColumnValue::string("x"), def(ColumnType::VarChar, kUtf8mb4NopadBinMaria)},
        };
        const auto& [value, column] = cases[size_t(index)];
        SqlValue bound = SqlValue::fromColumn(value, column);
        QCOMPARE(bound.kind(), kind);
        if (text.isNull()) {
            QVERIFY(!bound.text().has_value());
        } else {
            QCOMPARE(QByteArray::fromStdString(*bound.text()),
                     kind == SqlValueKind::Bytes && index == 6 ? QByteArray("\xe9") : text.toUtf8());
        }
    }

    void nulBytesSurviveInBytes() {
        std::string withNul("a\0b", 3);
        SqlValue value = SqlValue::fromColumn(ColumnValue::bytes(withNul), def(ColumnType::Blob, 63));
        QCOMPARE(value.asString().size(), size_t(3));
        QCOMPARE(value.display(), std::string("0x610062"));
    }

    void floatBindsAsTheDoubleItWidensTo() {
        SqlValue value = SqlValue::fromColumn(ColumnValue::floatValue(1.1f), def(ColumnType::Float));
        QCOMPARE(value.kind(), SqlValueKind::Double);
        QCOMPARE(value.asDouble(), double(1.1f));
    }

    void displayQuotesTextAndCutsLongValues() {
        QCOMPARE(SqlValue::text("it's").display(), std::string("'it''s'"));
        QCOMPARE(SqlValue::null().display(), std::string("NULL"));
        std::string shown = SqlValue::text(std::string(1000, 'x')).display();
        QVERIFY2(shown.find("(1000 bytes)") != std::string::npos, shown.c_str());
        QVERIFY(shown.size() < 300);
    }

    void downstreamErrorsAreClassed_data() {
        QTest::addColumn<int>("code");
        QTest::addColumn<bool>("retryable");
        QTest::addRow("2006 server gone away") << 2006 << true;
        QTest::addRow("2013 lost connection") << 2013 << true;
        QTest::addRow("1213 deadlock") << 1213 << true;
        QTest::addRow("1205 lock wait timeout") << 1205 << true;
        QTest::addRow("1053 server shutdown") << 1053 << true;
        QTest::addRow("2003 cannot connect") << 2003 << true;
        QTest::addRow("1927 connection killed") << 1927 << true;
        QTest::addRow("1054 unknown column") << 1054 << false;
        QTest::addRow("1146 no such table") << 1146 << false;
        QTest::addRow("1062 duplicate key") << 1062 << false;
        QTest::addRow("1142 table access denied") << 1142 << false;
        QTest::addRow("1044 database access denied") << 1044 << false;
        QTest::addRow("1366 incorrect value") << 1366 << false;
        QTest::addRow("0 client-side failure") << 0 << false;
    }
    void downstreamErrorsAreClassed() {
        QFETCH(int, code);
        QFETCH(bool, retryable);
        QCOMPARE(classifyDownstreamError(code) == ErrorClass::Retryable, retryable);
    }

    void failureDescriptionNamesRowPositionSqlAndFix() {
        auto t = testing::table("shop", "orders", {"id", "c4"}, {0});
        ApplyFailure failure;
        failure.change = testing::insert(t, testing::ints({7, 1}));
        failure.change.setSource({"mysql-bin.000004", 2345, "0-1-99"});
        failure.sql = "INSERT INTO `shop`.`orders` (`id`, `c4`) VALUES (?, ?) /* values: 7, 1 */";
        failure.code = 1054;
        failure.message = "Unknown column 'c4' in 'field list'";
        failure.errorClass = classifyDownstreamError(1054);
        std::string text = failure.describe();
        for (const char* part : {"1054", "needs the DBA", "Unknown column 'c4'", "shop.orders", "mysql-bin.000004:2345",
                                 "0-1-99", "id=7", "c4=1", "VALUES (?, ?) /* values: 7, 1 */", "ADD COLUMN"}) {
            QVERIFY2(text.find(part) != std::string::npos,
                     qPrintable(QString("'%1' missing from: %2").arg(part, QString::fromStdString(text))));
        }
    }
};

QTEST_GUILESS_MAIN(ApplyValuesAndErrorsTest)
#include "test_apply_values_and_errors.moc"
