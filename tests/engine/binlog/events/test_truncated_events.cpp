// Truncated events of every kind: each sample event cut at every length is refused with a
// DecodeError naming the file and offset. Cut bodies that are re-framed (size field and checksum
// made to match) decode or are refused, never crash or throw anything else.
#include <QTest>

#include "engine/binlog/decode_error.h"
#include "engine/binlog/event_decoder.h"
#include "tests/engine/binlog/events/sample_events.h"

using namespace syncscope;
using namespace syncscope::binlog;
using test::Bytes;
using test::makeEvent;

namespace {

constexpr std::string_view kFile = "cut-bin.000001";
constexpr uint64_t kPos = 4096;

struct Sample {
    std::string version;
    std::vector<std::string> prelude;  // events decoded before (table maps)
    std::string event;
};

std::string mySqlGtidBody() {
    Bytes b;
    b.u8(1).zero(16).u64(23).u8(2).u64(10).u64(11);
    b.le((1ULL << 55) | 5, 7).le(4, 7).packed(900).u32((1U << 31) | 80036).u32(80020);
    return b;
}

std::string queryWithStatusVars(bool compressed) {
    Bytes vars;
    vars.u8(0).u32(0).u8(1).u64(0).u8(6).u8(3).str("std").u8(4).u16(33).u16(45).u16(46).u8(5).u8(3).str("UTC");
    vars.u8(11).u8(1).str("u").u8(1).str("h").u8(12).u8(1).str("db").u8(0).u8(128).u24(5);
    const std::string sql = "INSERT INTO t VALUES (1, 'some text')";
    Bytes b;
    b.u32(1).u32(0).u8(2).u16(0).u16(vars.data().size()).str(vars).str("db").u8(0);
    b.str(compressed ? test::mariaDbCompress(sql) : sql);
    return b;
}

std::vector<Sample> samples() {
    const std::string mysql = "8.0.36";
    const std::string mariadb = "10.11.6-MariaDB-log";
    const std::string tableMap = makeEvent(EventType::TableMap, test::smallTableMapBody(), true);
    const std::string rows = test::smallRowImage(-5, "héllo", true, 0) + test::smallRowImage(2, "ab", false, 9);
    Bytes compressedRows;
    compressedRows.u48(7).u16(1).packed(3).u8(0x07).str(test::mariaDbCompress(rows));
    Bytes jsonMap;
    jsonMap.u48(11)
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
    Bytes diffs;
    diffs.u8(0).packedStr("$.a").packedStr(std::string("\x04\x01", 2)).u8(2).packedStr("$.b");
    Bytes partial;
    partial.u48(11).u16(1).u16(2).packed(2).u8(0x03).u8(0x03).u8(0).u32(1).u32(2).u8(4).u8(0);
    partial.packed(1).u8(1).u8(0).u32(1).u32(diffs.data().size()).str(diffs);
    return {
        {mysql, {}, test::makeFormatDescription(mysql, true)},
        {mariadb, {}, test::makeFormatDescription(mariadb, true)},
        {mysql, {}, makeEvent(EventType::Query, queryWithStatusVars(false), true)},
        {mariadb, {}, makeEvent(EventType::QueryCompressed, queryWithStatusVars(true), true)},
        {mysql, {}, makeEvent(EventType::Rotate, Bytes().u64(4).str("binlog.000002"), true)},
        {mysql, {}, makeEvent(EventType::Xid, Bytes().u64(77), true)},
        {mysql, {}, makeEvent(EventType::Intvar, Bytes().u8(1).u64(77), true)},
        {mysql,
         {},
         makeEvent(EventType::HeartbeatV2, Bytes().u8(1).packedStr("binlog.000002").u8(2).u8(1).u8(99).u8(0), true)},
        {mariadb, {}, makeEvent(EventType::MariaDbGtid, Bytes().u64(5).u32(1).u8(2).u64(4).u8(0), true)},
        {mariadb,
         {},
         makeEvent(EventType::MariaDbGtid, Bytes().u64(5).u32(1).u8(0x40).u32(1).u8(2).u8(1).str("abc"), true)},
        {mariadb, {}, makeEvent(EventType::GtidList, Bytes().u32(2).u32(0).u32(1).u64(9).u32(1).u32(2).u64(3), true)},
        {mariadb, {}, makeEvent(EventType::BinlogCheckpoint, Bytes().u32(8).str("bin.0001"), true)},
        {mysql, {}, makeEvent(EventType::Gtid, mySqlGtidBody(), true)},
        {mysql,
         {},
         makeEvent(EventType::PreviousGtids, Bytes().u64(1).zero(16).u64(2).u64(1).u64(5).u64(7).u64(9), true)},
        {mysql, {}, makeEvent(EventType::RowsQuery, Bytes().u8(6).str("DELETE"), true)},
        {mysql, {}, makeEvent(EventType::TableMap, test::itemsTableMapBody(), true)},
        {mysql, {}, tableMap},
        {mysql, {tableMap}, makeEvent(EventType::WriteRowsV1, test::smallRowsBody(1, false, rows), true)},
        {mysql, {tableMap}, makeEvent(EventType::WriteRowsV2, test::smallRowsBody(2, false, rows), true)},
        {mysql, {tableMap}, makeEvent(EventType::UpdateRowsV2, test::smallRowsBody(2, true, rows), true)},
        {mysql, {tableMap}, makeEvent(EventType::DeleteRowsV0, test::smallRowsBody(0, false, rows), true)},
        {mariadb, {tableMap}, makeEvent(EventType::WriteRowsCompressedV1, compressedRows, true)},
        {mysql,
         {makeEvent(EventType::TableMap, jsonMap, true)},
         makeEvent(EventType::PartialUpdateRows, partial, true)},
        {mysql, {}, makeEvent(EventType::TransactionPayload, test::payloadBody(), true)},
    };
}

EventDecoder decoderFor(const Sample& sample) {
    EventDecoder decoder;
    if (sample.event[4] != static_cast<char>(EventType::FormatDescription)) {
        const std::string fde = test::makeFormatDescription(sample.version, true);
        decoder.decode(RawEvent{fde, kFile, 4});
        for (const std::string& event : sample.prelude) {
            decoder.decode(RawEvent{event, kFile, 100});
        }
    }
    return decoder;
}

// The event cut to `length` bytes (checksum included) with its size field and CRC32 made to match.
std::string reframed(const std::string& event, size_t length) {
    std::string cut = event.substr(0, length - kChecksumSize);
    const auto size = static_cast<uint32_t>(length);
    for (size_t i = 0; i < 4; ++i) {
        cut[9 + i] = static_cast<char>((size >> (8 * i)) & 0xFF);
    }
    test::appendCrc(cut);
    return cut;
}

}  // namespace

class TestTruncatedEvents : public QObject {
    Q_OBJECT

private slots:
    void everySampleDecodesWhole() {
        for (const Sample& sample : samples()) {
            EventDecoder decoder = decoderFor(sample);
            std::vector<Event> out;
            decoder.decodeInto(RawEvent{sample.event, kFile, kPos}, out);
            QVERIFY(!out.empty());
        }
    }

    void everyCutIsADecodeErrorWithFileAndOffset() {
        int cuts = 0;
        for (const Sample& sample : samples()) {
            const EventDecoder base = decoderFor(sample);
            for (size_t length = 0; length < sample.event.size(); ++length) {
                EventDecoder decoder = base;
                const std::string cut = sample.event.substr(0, length);
                try {
                    decoder.decode(RawEvent{cut, kFile, kPos});
                    QFAIL(qPrintable(QString("a cut %1 event of %2 bytes decoded")
                                         .arg(eventTypeName(static_cast<EventType>(sample.event[4])).data())
                                         .arg(length)));
                } catch (const DecodeError& e) {
                    QCOMPARE(e.file(), std::string(kFile));
                    QCOMPARE(e.offset(), kPos);
                    ++cuts;
                }
            }
        }
        qInfo("%d cut events refused", cuts);
    }

    void reframedCutsDecodeOrAreRefused() {
        int refused = 0;
        int decoded = 0;
        for (const Sample& sample : samples()) {
            const EventDecoder base = decoderFor(sample);
            for (size_t length = kEventHeaderSize + kChecksumSize; length < sample.event.size(); ++length) {
                EventDecoder decoder = base;
                const std::string cut = reframed(sample.event, length);
                try {
                    std::vector<Event> out;
                    decoder.decodeInto(RawEvent{cut, kFile, kPos}, out);
                    ++decoded;
                } catch (const DecodeError& e) {
                    QCOMPARE(e.offset(), kPos);
                    ++refused;
                }
            }
        }
        QVERIFY(refused > decoded);
        qInfo("%d re-framed cuts refused, %d decoded (statement text or trailing optional fields cut)", refused,
              decoded);
    }
};

QTEST_GUILESS_MAIN(TestTruncatedEvents)
#include "test_truncated_events.moc"
