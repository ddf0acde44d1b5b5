// How row changes hold their memory on the pipeline's hot path (issue 12): text values borrowed from
// one buffer per rows event stay right when the event's own bytes are gone, a copy of a borrowed value
// owns its bytes, and a value that would not fit the buffer is owned instead of moving the buffer.
#include <QtTest>

#include <memory>
#include <string>

#include "engine/apply/row_change.h"
#include "engine/apply/sql_value.h"
#include "engine/binlog/column_value.h"

using namespace syncscope;
using namespace syncscope::apply;

namespace {

binlog::ColumnDef utf8Column() {
    binlog::ColumnDef column;
    column.type = binlog::ColumnType::VarChar;
    column.charset = 45;  // utf8mb4_general_ci
    return column;
}

}  // namespace

class RowMemoryTest : public QObject {
    Q_OBJECT

private slots:
    void textBorrowedFromTheEventBufferOutlivesTheEventBytes() {
        auto origin = std::make_shared<RowsOrigin>();
        std::vector<SqlValue> values;
        {
            // The event's bytes (what the decoder borrowed from) go away after conversion.
            std::string eventBytes = "first value, longer than any inline buffer|second";
            origin->text.reserve(eventBytes.size());
            values.push_back(SqlValue::fromColumn(binlog::ColumnValue::string(eventBytes.substr(0, 42)), utf8Column(),
                                                  origin->text));
            values.push_back(
                SqlValue::fromColumn(binlog::ColumnValue::string(eventBytes.substr(43)), utf8Column(), origin->text));
            eventBytes.assign(eventBytes.size(), 'x');
        }
        QVERIFY(values[0].isBorrowed());
        QVERIFY(values[1].isBorrowed());
        QCOMPARE(values[0].kind(), SqlValueKind::Text);
        QCOMPARE(std::string(values[0].asString()), std::string("first value, longer than any inline buffer"));
        QCOMPARE(std::string(values[1].asString()), std::string("second"));
        QCOMPARE(origin->text.size(), size_t(48));
    }

    void aCopyOfABorrowedValueOwnsItsBytes() {
        SqlValue copy;
        {
            std::string buffer;
            buffer.reserve(64);
            SqlValue borrowed = SqlValue::fromColumn(binlog::ColumnValue::string("kept after the buffer is gone"),
                                                     utf8Column(), buffer);
            QVERIFY(borrowed.isBorrowed());
            copy = borrowed;
            SqlValue constructed(borrowed);
            QVERIFY(!constructed.isBorrowed());
            QVERIFY(constructed == borrowed);
            buffer.assign(buffer.size(), '#');
        }
        QVERIFY(!copy.isBorrowed());
        QCOMPARE(std::string(copy.asString()), std::string("kept after the buffer is gone"));
    }

    void aValueThatWouldMoveTheBufferIsOwned() {
        std::string buffer;
        buffer.reserve(8);
        const char* before = buffer.data();
        SqlValue fits = SqlValue::fromColumn(binlog::ColumnValue::string("short"), utf8Column(), buffer);
        SqlValue tooLong = SqlValue::fromColumn(binlog::ColumnValue::string("does not fit in what was reserved"),
                                                utf8Column(), buffer);
        QVERIFY(fits.isBorrowed());
        QVERIFY(!tooLong.isBorrowed());
        QCOMPARE(static_cast<const void*>(buffer.data()), static_cast<const void*>(before));
        QCOMPARE(std::string(fits.asString()), std::string("short"));
        QCOMPARE(std::string(tooLong.asString()), std::string("does not fit in what was reserved"));
    }

    // A bound value is a decoded column value restricted to the bind forms: no second storage beside it
    // (it was 72 bytes with its own string and view), short text inside the value, the number's bits for
    // key hashing whatever its sign.
    void aBoundValueCostsNoMoreThanADecodedOne() {
        QVERIFY(sizeof(SqlValue) <= sizeof(binlog::ColumnValue));
        SqlValue owned = SqlValue::text(std::string(100, 'a'));
        QCOMPARE(owned.kind(), SqlValueKind::Text);
        QCOMPARE(owned.asString().size(), size_t(100));
        QVERIFY(!owned.isBorrowed());
        QCOMPARE(SqlValue::bytes(std::string("\x00\x01", 2)).asString().size(), size_t(2));
        QCOMPARE(SqlValue::bytes("b").kind(), SqlValueKind::Bytes);
        QCOMPARE(SqlValue::signedInt(-1).asUnsigned(), ~uint64_t(0));
        QCOMPARE(SqlValue::unsignedInt(7).asSigned(), int64_t(7));
        QCOMPARE(SqlValue::real(2.5).asDouble(), 2.5);
        QCOMPARE(SqlValue::null().asUnsigned(), uint64_t(0));
        QVERIFY(SqlValue::null().asString().empty());
        QVERIFY(SqlValue::signedInt(3).asString().empty());
        QVERIFY(!(SqlValue::signedInt(3) == SqlValue::unsignedInt(3)));
        QVERIFY(SqlValue::text("x") == SqlValue::text("x"));
        QVERIFY(!(SqlValue::text("x") == SqlValue::bytes("x")));
    }

    void aChangeWithoutOriginHasAnUnknownSource() {
        RowChange change;
        QVERIFY(change.source().file.empty());
        QCOMPARE(change.source().text(), std::string("(unknown position)"));
        change.setSource({"mariadb-bin.000002", 77, "0-1-5"});
        QCOMPARE(change.source().text(), std::string("mariadb-bin.000002:77 gtid 0-1-5"));
    }
};

QTEST_GUILESS_MAIN(RowMemoryTest)
#include "test_row_memory.moc"
