// TABLE_MAP optional metadata and rows events on hand-built bytes: every version, partial images,
// null bitmaps, MariaDB compression, MySQL partial JSON updates and transaction payloads.
#include <QTest>

#include "engine/binlog/decode_error.h"
#include "engine/binlog/event_decoder.h"
#include "tests/engine/binlog/events/sample_events.h"

using namespace syncscope;
using namespace syncscope::binlog;
using test::Bytes;
using test::makeEvent;

namespace {

constexpr std::string_view kFile = "binlog.000009";

EventDecoder decoderFor(std::string_view version) {
    EventDecoder decoder;
    const std::string fde = test::makeFormatDescription(version, true);
    decoder.decode(RawEvent{fde, kFile, 4});
    return decoder;
}

Event decodeOne(EventDecoder& decoder, const std::string& bytes, uint64_t pos = 1000) {
    return decoder.decode(RawEvent{bytes, kFile, pos});
}

std::vector<std::string> texts(const RowsEvent& rows, std::span<const ColumnValue> image) {
    std::vector<std::string> out;
    for (size_t c = 0; c < image.size(); ++c) {
        out.push_back(image[c].toText(rows.table->columns[c]));
    }
    return out;
}

using Texts = std::vector<std::string>;

}  // namespace

class TestRowsEvents : public QObject {
    Q_OBJECT

private slots:
    void tableMapFillsEveryOptionalMetadataField() {
        EventDecoder decoder = decoderFor("8.0.36");
        const Event event = decodeOne(decoder, makeEvent(EventType::TableMap, test::itemsTableMapBody(), true));
        const TableMap& t = *event.as<TableMapEvent>()->table;
        QCOMPARE(t.tableId, test::kSampleTableId);
        QCOMPARE(t.schema, std::string("shop"));
        QCOMPARE(t.table, std::string("items"));
        QCOMPARE(t.columns.size(), size_t{8});
        QCOMPARE(t.columns[1].name, std::string("name"));
        QCOMPARE(t.columns[7].name, std::string("doc"));
        QVERIFY(!t.columns[0].isUnsigned);
        QVERIFY(t.columns[2].isUnsigned);
        QVERIFY(!t.columns[6].isUnsigned);
        QCOMPARE(t.columns[1].meta, uint16_t{80});
        QCOMPARE(t.columns[3].meta, uint16_t{(247 << 8) | 1});
        QCOMPARE(t.columns[1].charset, uint32_t{45});
        QCOMPARE(t.columns[4].charset, uint32_t{63});
        QVERIFY(t.columns[4].isBinary);
        QVERIFY(!t.columns[1].isBinary);
        QCOMPARE(t.columns[3].charset, uint32_t{8});
        QCOMPARE(t.columns[3].enumValues, (std::vector<std::string>{"s", "m"}));
        QCOMPARE(t.columns[5].geometryType, uint16_t{1});
        QCOMPARE(t.primaryKey, (std::vector<uint32_t>{0}));
        QVERIFY(t.columns[0].inPrimaryKey);
        QVERIFY(!t.columns[0].nullable);
        QVERIFY(t.columns[1].nullable);
        QCOMPARE(t.columnVisible, (std::vector<bool>{true, true, true, true, true, true, true, false}));
        QCOMPARE(decoder.tableMap(test::kSampleTableId).get(), event.as<TableMapEvent>()->table.get());
    }

    // SIGNEDNESS is one bit per numeric column, most significant bit first, over numeric columns only.
    void signednessBitmapIsMostSignificantBitFirst() {
        EventDecoder decoder = decoderFor("8.0.36");
        Bytes b;
        b.u48(3).u16(0).u8(1).str("d").u8(0).u8(1).str("t").u8(0).packed(11);
        b.u8(15);  // a VARCHAR first: not numeric, takes no bit
        for (int i = 0; i < 10; ++i) {
            b.u8(1);
        }
        b.packedStr(Bytes().u16(4)).u8(0).u8(0);
        b.u8(1).packedStr(Bytes().u8(0x81).u8(0x40));  // numeric columns 0, 7 and 9 unsigned
        const Event event = decodeOne(decoder, makeEvent(EventType::TableMap, b, true));
        const TableMap& t = *event.as<TableMapEvent>()->table;
        std::vector<bool> unsignedColumns;
        for (const ColumnDef& c : t.columns) {
            unsignedColumns.push_back(c.isUnsigned);
        }
        QCOMPARE(unsignedColumns,
                 (std::vector<bool>{false, true, false, false, false, false, false, false, true, false, true}));
    }

    void rowsOfEveryVersionDecode_data() {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("version");
        QTest::addRow("write v0") << int(EventType::WriteRowsV0) << 0;
        QTest::addRow("write v1") << int(EventType::WriteRowsV1) << 1;
        QTest::addRow("write v2") << int(EventType::WriteRowsV2) << 2;
    }
    void rowsOfEveryVersionDecode() {
        QFETCH(int, type);
        QFETCH(int, version);
        EventDecoder decoder = decoderFor("5.7.21-log");
        decodeOne(decoder, makeEvent(EventType::TableMap, test::smallTableMapBody(), true));
        const std::string rows = test::smallRowImage(-5, "héllo", true, 0) + test::smallRowImage(2, "", false, 255);
        const Event event = decodeOne(
            decoder, makeEvent(static_cast<EventType>(type), test::smallRowsBody(version, false, rows), true));
        const RowsEvent& r = *event.as<RowsEvent>();
        QCOMPARE(r.op, RowsOp::Insert);
        QCOMPARE(int(r.version), version);
        QCOMPARE(r.rowCount(), size_t{2});
        QVERIFY(!r.hasBefore(0));
        QCOMPARE(texts(r, r.after(0)), (Texts{"-5", "héllo", "NULL"}));
        QVERIFY(r.after(0)[2].isNull());
        QCOMPARE(texts(r, r.after(1)), (Texts{"2", "", "-1"}));  // TINYINT without signedness: signed
        QVERIFY(r.statementEnd());
        if (version == 2) {
            QCOMPARE(r.extraData, std::string("\x00\x01\x09", 3));
        }
        QCOMPARE(r.table->table, std::string("t3"));
    }

    void updateAndDeleteCarryBeforeImages() {
        EventDecoder decoder = decoderFor("5.7.21-log");
        decodeOne(decoder, makeEvent(EventType::TableMap, test::smallTableMapBody(), true));
        const std::string update = test::smallRowImage(1, "a", false, 1) + test::smallRowImage(1, "b", true, 0);
        const Event u =
            decodeOne(decoder, makeEvent(EventType::UpdateRowsV2, test::smallRowsBody(2, true, update), true));
        const RowsEvent& ur = *u.as<RowsEvent>();
        QCOMPARE(ur.op, RowsOp::Update);
        QCOMPARE(ur.rowCount(), size_t{1});
        QCOMPARE(texts(ur, ur.before(0)), (Texts{"1", "a", "1"}));
        QCOMPARE(texts(ur, ur.after(0)), (Texts{"1", "b", "NULL"}));
        const Event d =
            decodeOne(decoder, makeEvent(EventType::DeleteRowsV1,
                                         test::smallRowsBody(1, false, test::smallRowImage(9, "z", false, 3)), true));
        const RowsEvent& dr = *d.as<RowsEvent>();
        QCOMPARE(dr.op, RowsOp::Delete);
        QVERIFY(!dr.hasAfter(0));
        QCOMPARE(texts(dr, dr.before(0)), (Texts{"9", "z", "3"}));
    }

    // binlog_row_image=MINIMAL: the before image holds the key, the after image the changed columns;
    // the null bitmap counts present columns only.
    void partialImagesUsePresentBitmaps() {
        EventDecoder decoder = decoderFor("10.11.6-MariaDB-log");
        decodeOne(decoder, makeEvent(EventType::TableMap, test::smallTableMapBody(), true));
        Bytes body;
        body.u48(7).u16(1).packed(3).u8(0x01).u8(0x06);
        body.u8(0x00).u32(42);           // before: a = 42
        body.u8(0x02).u8(3).str("new");  // after: b = 'new', c = NULL (second present column)
        const Event event = decodeOne(decoder, makeEvent(EventType::UpdateRowsV1, body, true));
        const RowsEvent& r = *event.as<RowsEvent>();
        QCOMPARE(r.presentBefore, (std::vector<bool>{true, false, false}));
        QCOMPARE(r.presentAfter, (std::vector<bool>{false, true, true}));
        QCOMPARE(r.before(0)[0].toText(r.table->columns[0]), std::string("42"));
        QCOMPARE(r.after(0)[1].toText(r.table->columns[1]), std::string("new"));
        QVERIFY(r.after(0)[2].isNull());
    }

    void compressedRowsAreInflated() {
        EventDecoder decoder = decoderFor("10.11.6-MariaDB-log");
        decodeOne(decoder, makeEvent(EventType::TableMap, test::smallTableMapBody(), true));
        const std::string rows = test::smallRowImage(3, std::string(100, 'q'), false, 4);
        Bytes body;
        body.u48(7).u16(1).packed(3).u8(0x07).str(test::mariaDbCompress(rows));
        const Event event = decodeOne(decoder, makeEvent(EventType::WriteRowsCompressedV1, body, true));
        const RowsEvent& r = *event.as<RowsEvent>();
        QVERIFY(r.compressed);
        QCOMPARE(texts(r, r.after(0)), (Texts{"3", std::string(100, 'q'), "4"}));
    }

    void partialJsonUpdateDecodesTheDiffs() {
        EventDecoder decoder = decoderFor("8.0.36");
        Bytes map;
        map.u48(11)
            .u16(1)
            .u8(1)
            .str("d")
            .u8(0)
            .u8(1)
            .str("j")
            .u8(0)
            .packed(2)
            .u8(3)
            .u8(245)
            .packedStr(Bytes().u8(4))
            .u8(2);
        decodeOne(decoder, makeEvent(EventType::TableMap, map, true));
        Bytes body;
        body.u48(11).u16(1).u16(2).packed(2).u8(0x03).u8(0x03);
        body.u8(0x00).u32(1).u32(2).u8(0x04).u8(0x00);  // before: 1, JSON null literal
        body.packed(1).u8(0x01);                        // value options: partial JSON; bit for doc
        Bytes diffs;
        diffs.u8(0).packedStr("$.a").packedStr(std::string("\x04\x01", 2));  // REPLACE $.a true
        diffs.u8(2).packedStr("$.b");                                        // REMOVE $.b
        body.u8(0x00).u32(1).u32(diffs.data().size()).str(diffs);
        const Event event = decodeOne(decoder, makeEvent(EventType::PartialUpdateRows, body, true));
        const RowsEvent& r = *event.as<RowsEvent>();
        QVERIFY(r.partialUpdate);
        QCOMPARE(r.partialJson.size(), size_t{1});
        const PartialJsonValue& value = r.partialJson.front();
        QCOMPARE(value.row, uint32_t{0});
        QCOMPARE(value.column, uint32_t{1});
        QCOMPARE(value.diffs.size(), size_t{2});
        QCOMPARE(value.diffs[0].op, JsonDiff::Operation::Replace);
        QCOMPARE(value.diffs[0].path, std::string("$.a"));
        QCOMPARE(value.diffs[0].binaryValue, std::string("\x04\x01", 2));
        QCOMPARE(value.diffs[1].op, JsonDiff::Operation::Remove);
        QCOMPARE(value.diffs[1].path, std::string("$.b"));
        QCOMPARE(r.after(0)[0].toText(r.table->columns[0]), std::string("1"));
    }

    void rowsWithoutTableMapAreAnError() {
        EventDecoder decoder = decoderFor("5.7.21-log");
        try {
            decodeOne(decoder,
                      makeEvent(EventType::WriteRowsV1,
                                test::smallRowsBody(1, false, test::smallRowImage(1, "a", true, 0)), true),
                      5555);
            QFAIL("rows without a table map decoded");
        } catch (const DecodeError& e) {
            QCOMPARE(e.offset(), uint64_t{5555});
            QVERIFY2(e.problem().find("table id 7 without a TABLE_MAP") != std::string::npos, e.what());
        }
    }

    void columnCountMismatchIsAnError() {
        EventDecoder decoder = decoderFor("5.7.21-log");
        decodeOne(decoder, makeEvent(EventType::TableMap, test::smallTableMapBody(), true));
        Bytes body;
        body.u48(7).u16(1).packed(2).u8(0x03).u8(0x00).u32(1).u8(0);
        QVERIFY_THROWS_EXCEPTION(DecodeError, decodeOne(decoder, makeEvent(EventType::WriteRowsV1, body, true)));
    }

    void transactionPayloadExposesInnerEvents() {
        EventDecoder decoder = decoderFor("8.0.36");
        std::string inner;
        const std::string payload = makeEvent(EventType::TransactionPayload, test::payloadBody(&inner), true, 2000);
        const Event event = decodeOne(decoder, payload, 2000);
        const auto& p = *event.as<TransactionPayloadEvent>();
        QCOMPARE(p.events.size(), size_t{4});
        QCOMPARE(p.uncompressedSize, uint64_t{inner.size()});
        QCOMPARE(p.events[0].as<QueryEvent>()->kind, QueryEvent::Kind::Begin);
        QCOMPARE(p.events[3].as<XidEvent>()->xid, uint64_t{55});

        std::vector<Event> flat;
        decoder.decodeInto(RawEvent{payload, kFile, 2000}, flat);
        QCOMPARE(flat.size(), size_t{4});
        const RowsEvent& rows = *flat[2].as<RowsEvent>();
        QCOMPARE(texts(rows, rows.after(0)), (Texts{"1", "x", "2"}));
        for (const Event& e : flat) {
            QVERIFY(e.insidePayload);
            QCOMPARE(e.pos, uint64_t{2000});
            QCOMPARE(e.endPos, uint64_t{2000 + payload.size()});
        }
    }
};

QTEST_GUILESS_MAIN(TestRowsEvents)
#include "test_rows_events.moc"
