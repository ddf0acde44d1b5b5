// The event decoder on hand-built events: every control, query and GTID event kind of both servers,
// checksums, unknown and encrypted events.
#include <QTest>

#include "engine/binlog/decode_error.h"
#include "engine/binlog/event_decoder.h"
#include "tests/engine/binlog/events/event_bytes.h"

using namespace syncscope;
using namespace syncscope::binlog;
using syncscope::test::Bytes;
using syncscope::test::makeEvent;
using syncscope::test::makeFormatDescription;

namespace {

constexpr std::string_view kFile = "mariadb-bin.000042";
constexpr std::string_view kMariaDb = "10.11.6-MariaDB-log";
constexpr std::string_view kMySql = "8.0.36";

// A decoder that has read an FDE of the given server with checksums on or off.
EventDecoder decoderAfterFde(std::string_view version, bool crc) {
    EventDecoder decoder;
    const std::string fde = makeFormatDescription(version, crc);
    decoder.decode(RawEvent{fde, kFile, 4});
    return decoder;
}

Event decodeOne(EventDecoder& decoder, const std::string& bytes, uint64_t pos = 256) {
    return decoder.decode(RawEvent{bytes, kFile, pos});
}

std::string queryBody(std::string_view schema, std::string_view query, const std::string& statusVars) {
    Bytes body;
    body.u32(77).u32(3).u8(schema.size()).u16(0).u16(statusVars.size()).str(statusVars).str(schema).u8(0).str(query);
    return body;
}

// The body of one decoded event, which must be of kind T.
template <typename T>
T decodeAs(EventDecoder& decoder, const std::string& bytes) {
    const Event event = decodeOne(decoder, bytes);
    const T* body = event.as<T>();
    if (body == nullptr) {
        throw std::runtime_error("decoded to another kind of event");
    }
    return *body;
}

}  // namespace

class TestEventDecoder : public QObject {
    Q_OBJECT

private slots:
    void formatDescriptionSetsChecksumAndVersion_data() {
        QTest::addColumn<QString>("version");
        QTest::addColumn<bool>("crc");
        QTest::addRow("MariaDB CRC32") << QString(kMariaDb.data()) << true;
        QTest::addRow("MariaDB none") << QString(kMariaDb.data()) << false;
        QTest::addRow("MySQL CRC32") << QString(kMySql.data()) << true;
    }
    void formatDescriptionSetsChecksumAndVersion() {
        QFETCH(QString, version);
        QFETCH(bool, crc);
        EventDecoder decoder;
        const std::string bytes = makeFormatDescription(version.toStdString(), crc);
        const Event event = decodeOne(decoder, bytes, 4);
        const auto* fde = event.as<FormatDescriptionEvent>();
        QVERIFY(fde != nullptr);
        QCOMPARE(QString::fromStdString(fde->serverVersion), version);
        QCOMPARE(fde->checksum, crc ? ChecksumAlgorithm::Crc32 : ChecksumAlgorithm::Off);
        QCOMPARE(decoder.checksum(), fde->checksum);
        QCOMPARE(fde->postHeaderLengths.at(static_cast<size_t>(EventType::Query) - 1), uint8_t{13});
        QCOMPARE(event.pos, uint64_t{4});
        QCOMPARE(event.endPos, uint64_t{4 + bytes.size()});
        QCOMPARE(fde->isMariaDb(), version.contains("MariaDB"));
    }

    void checksumMismatchIsAnErrorNamingFileAndOffset() {
        EventDecoder decoder = decoderAfterFde(kMariaDb, true);
        std::string xid = makeEvent(EventType::Xid, Bytes().u64(9).data(), true);
        xid[20] = static_cast<char>(xid[20] ^ 1);
        try {
            decodeOne(decoder, xid, 1234);
            QFAIL("a corrupt event decoded");
        } catch (const DecodeError& e) {
            QCOMPARE(e.file(), std::string(kFile));
            QCOMPARE(e.offset(), uint64_t{1234});
            QVERIFY2(e.problem().find("CRC32 checksum mismatch") != std::string::npos, e.what());
            QVERIFY(std::string(e.what()).rfind("mariadb-bin.000042:1234: XID_EVENT", 0) == 0);
        }
    }

    void checksumOffReadsTheWholeBody() {
        EventDecoder decoder = decoderAfterFde(kMariaDb, false);
        const Event event =
            decodeOne(decoder, makeEvent(EventType::Xid, Bytes().u64(0x1122334455667788).data(), false));
        QCOMPARE(event.as<XidEvent>()->xid, uint64_t{0x1122334455667788});
    }

    void queryStatusVariablesAreParsed() {
        EventDecoder decoder = decoderAfterFde(kMySql, true);
        Bytes vars;
        vars.u8(0).u32(0x4000);                                // flags2
        vars.u8(1).u64(0x1234567890);                          // sql_mode
        vars.u8(6).u8(3).str("std");                           // catalog (nz)
        vars.u8(3).u16(5).u16(2);                              // auto_increment
        vars.u8(4).u16(33).u16(45).u16(46);                    // charset
        vars.u8(5).u8(6).str("+02:00");                        // time_zone
        vars.u8(7).u16(3);                                     // lc_time_names
        vars.u8(8).u16(8);                                     // collation_database
        vars.u8(9).u64(0xF0);                                  // table_map_for_update
        vars.u8(10).u32(99);                                   // master_data_written
        vars.u8(11).u8(4).str("root").u8(9).str("localhost");  // invoker
        vars.u8(12).u8(2).str("db1").u8(0).str("db2").u8(0);   // updated db names
        vars.u8(13).u24(123456);                               // microseconds
        vars.u8(16).u8(1);                                     // explicit_defaults_for_timestamp
        vars.u8(17).u64(4242);                                 // ddl xid
        vars.u8(18).u16(255);                                  // default_collation_for_utf8mb4
        vars.u8(19).u8(1);                                     // sql_require_primary_key
        vars.u8(20).u8(0);                                     // default_table_encryption
        vars.u8(128).u24(999);                                 // MariaDB hrnow
        vars.u8(129).u64(77);                                  // MariaDB xid
        vars.u8(130).u8(4).u64(5);                             // MariaDB gtid flags3 with a sequence
        const Event event =
            decodeOne(decoder, makeEvent(EventType::Query, queryBody("shop", "CREATE TABLE t (a INT)", vars), true));
        const auto* query = event.as<QueryEvent>();
        QVERIFY(query != nullptr);
        QCOMPARE(query->schema, std::string("shop"));
        QCOMPARE(query->query, std::string("CREATE TABLE t (a INT)"));
        QCOMPARE(query->kind, QueryEvent::Kind::Ddl);
        QCOMPARE(query->threadId, uint32_t{77});
        QCOMPARE(query->execTime, uint32_t{3});
        const QueryStatusVars& s = query->status;
        QCOMPARE(*s.flags2, uint32_t{0x4000});
        QCOMPARE(*s.sqlMode, uint64_t{0x1234567890});
        QCOMPARE(*s.catalog, std::string("std"));
        QCOMPARE(s.autoIncrement->increment, uint16_t{5});
        QCOMPARE(s.autoIncrement->offset, uint16_t{2});
        QCOMPARE(s.charset->client, uint16_t{33});
        QCOMPARE(s.charset->connection, uint16_t{45});
        QCOMPARE(s.charset->server, uint16_t{46});
        QCOMPARE(*s.timeZone, std::string("+02:00"));
        QCOMPARE(*s.lcTimeNames, uint16_t{3});
        QCOMPARE(*s.charsetDatabase, uint16_t{8});
        QCOMPARE(*s.tableMapForUpdate, uint64_t{0xF0});
        QCOMPARE(*s.invokerUser, std::string("root"));
        QCOMPARE(*s.invokerHost, std::string("localhost"));
        QCOMPARE(s.updatedDbNames, (std::vector<std::string>{"db1", "db2"}));
        QCOMPARE(*s.microseconds, uint32_t{123456});
        QCOMPARE(*s.explicitDefaultsForTimestamp, uint8_t{1});
        QCOMPARE(*s.ddlXid, uint64_t{4242});
        QCOMPARE(*s.defaultCollationForUtf8mb4, uint16_t{255});
        QCOMPARE(*s.sqlRequirePrimaryKey, uint8_t{1});
        QCOMPARE(*s.defaultTableEncryption, uint8_t{0});
        QCOMPARE(*s.hrnowMicroseconds, uint32_t{999});
        QCOMPARE(*s.mariaDbXid, uint64_t{77});
    }

    void unknownQueryStatusVariableIsAnError() {
        EventDecoder decoder = decoderAfterFde(kMySql, true);
        const std::string vars = Bytes().u8(0).u32(0).u8(99).u32(0);
        try {
            decodeOne(decoder, makeEvent(EventType::Query, queryBody("", "BEGIN", vars), true), 500);
            QFAIL("an unknown status variable was accepted");
        } catch (const DecodeError& e) {
            QCOMPARE(e.offset(), uint64_t{500});
            QVERIFY2(e.problem().find("unknown query status variable code 99") != std::string::npos, e.what());
        }
    }

    void queryKindsAreRecognised_data() {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<int>("kind");
        using K = QueryEvent::Kind;
        QTest::addRow("begin") << "BEGIN" << int(K::Begin);
        QTest::addRow("commit") << "COMMIT" << int(K::Commit);
        QTest::addRow("rollback") << "ROLLBACK" << int(K::Rollback);
        QTest::addRow("rollback to savepoint") << "ROLLBACK TO SAVEPOINT a" << int(K::Savepoint);
        QTest::addRow("savepoint") << "SAVEPOINT a" << int(K::Savepoint);
        QTest::addRow("xa") << "XA START 'x'" << int(K::Xa);
        QTest::addRow("create after comment") << "/* c */ create table t (a int)" << int(K::Ddl);
        QTest::addRow("alter in versioned comment") << "/*!40000 ALTER TABLE t DISABLE KEYS */" << int(K::Ddl);
        QTest::addRow("drop") << "DROP TABLE `t` /* generated by server */" << int(K::Ddl);
        QTest::addRow("rename") << "RENAME TABLE a TO b" << int(K::Ddl);
        QTest::addRow("truncate") << "TRUNCATE t" << int(K::Ddl);
        QTest::addRow("dml") << "INSERT INTO t VALUES (1)" << int(K::Other);
        QTest::addRow("begin is a prefix only") << "BEGINNING" << int(K::Other);
    }
    void queryKindsAreRecognised() {
        QFETCH(QString, sql);
        QFETCH(int, kind);
        QCOMPARE(int(classifyQuery(sql.toStdString())), kind);
    }

    void compressedQueryIsInflated() {
        EventDecoder decoder = decoderAfterFde(kMariaDb, true);
        const std::string sql = "INSERT INTO t VALUES ('" + std::string(300, 'x') + "')";
        const Event event = decodeOne(
            decoder, makeEvent(EventType::QueryCompressed, queryBody("db", test::mariaDbCompress(sql), ""), true));
        const auto* query = event.as<QueryEvent>();
        QVERIFY(query->compressed);
        QCOMPARE(query->query, sql);
        QCOMPARE(query->schema, std::string("db"));
    }

    void controlEventsAreDecoded() {
        EventDecoder decoder = decoderAfterFde(kMariaDb, true);
        const Event rotate =
            decodeOne(decoder, makeEvent(EventType::Rotate, Bytes().u64(4).str("mariadb-bin.000043"), true));
        QCOMPARE(rotate.as<RotateEvent>()->nextFile, std::string("mariadb-bin.000043"));
        QCOMPARE(rotate.as<RotateEvent>()->position, uint64_t{4});
        QVERIFY(decodeOne(decoder, makeEvent(EventType::Stop, "", true)).as<StopEvent>() != nullptr);
        const Event intvar = decodeOne(decoder, makeEvent(EventType::Intvar, Bytes().u8(2).u64(1000), true));
        QCOMPARE(intvar.as<IntvarEvent>()->value, uint64_t{1000});
        const Event rand = decodeOne(decoder, makeEvent(EventType::Rand, Bytes().u64(1).u64(2), true));
        QCOMPARE(rand.as<RandEvent>()->seed2, uint64_t{2});
        const Event checkpoint =
            decodeOne(decoder, makeEvent(EventType::BinlogCheckpoint, Bytes().u32(11).str("mariadb-bin"), true));
        QCOMPARE(checkpoint.as<BinlogCheckpointEvent>()->file, std::string("mariadb-bin"));
        const Event annotate = decodeOne(decoder, makeEvent(EventType::AnnotateRows, "INSERT INTO t VALUES (1)", true));
        QCOMPARE(annotate.as<AnnotateRowsEvent>()->query, std::string("INSERT INTO t VALUES (1)"));
        const Event rowsQuery = decodeOne(decoder, makeEvent(EventType::RowsQuery, Bytes().u8(5).str("DELETE"), true));
        QCOMPARE(rowsQuery.as<RowsQueryEvent>()->query, std::string("DELETE"));
    }

    void heartbeatsCarryFileAndPosition() {
        EventDecoder decoder = decoderAfterFde(kMySql, true);
        std::string v1 = makeEvent(EventType::Heartbeat, "binlog.000007", true, 4000 - 19 - 13 - 4);
        const Event first = decodeOne(decoder, v1);
        QCOMPARE(first.as<HeartbeatEvent>()->logFile, std::string("binlog.000007"));
        QCOMPARE(first.as<HeartbeatEvent>()->logPosition, uint64_t{4000});
        QVERIFY(!first.as<HeartbeatEvent>()->v2);
        const std::string v2Body = Bytes().u8(1).packedStr("binlog.000008").u8(2).u8(4).packed(70000).u8(0);
        const Event second = decodeOne(decoder, makeEvent(EventType::HeartbeatV2, v2Body, true));
        QCOMPARE(second.as<HeartbeatEvent>()->logFile, std::string("binlog.000008"));
        QCOMPARE(second.as<HeartbeatEvent>()->logPosition, uint64_t{70000});
        QVERIFY(second.as<HeartbeatEvent>()->v2);
    }

    void mariaDbGtidEventsAreDecoded() {
        EventDecoder decoder = decoderAfterFde(kMariaDb, true);
        const std::string body = Bytes().u64(1500).u32(3).u8(0x02 | 0x08).u64(1499).u8(0);
        const Event gtid = decodeOne(decoder, makeEvent(EventType::MariaDbGtid, body, true, 300, 0, 7));
        const auto* g = gtid.as<MariaDbGtidEvent>();
        QCOMPARE(g->text(), std::string("3-7-1500"));
        QCOMPARE(*g->commitId, uint64_t{1499});
        QCOMPARE(g->flags, uint8_t{0x0A});
        const std::string xa = Bytes().u64(9).u32(0).u8(0x40).u32(1).u8(3).u8(2).str("abcde");
        const auto x_ = decodeAs<MariaDbGtidEvent>(decoder, makeEvent(EventType::MariaDbGtid, xa, true));
        const auto* x = &x_;
        QCOMPARE(x->xid, std::string("abcde"));
        QVERIFY(!x->commitId);
        const std::string list = Bytes().u32(2).u32(0).u32(1).u64(10).u32(3).u32(7).u64(1500);
        const auto l_ = decodeAs<GtidListEvent>(decoder, makeEvent(EventType::GtidList, list, true));
        const auto* l = &l_;
        QCOMPARE(l->text(), std::string("0-1-10,3-7-1500"));
    }

    void mySqlGtidEventsAreDecoded() {
        EventDecoder decoder = decoderAfterFde(kMySql, true);
        Bytes body;
        body.u8(1).str("\x3E\x11\xFA\x47\x71\xCA\x11\xE1\x9E\x33\xC8\x0A\xA9\x42\x95\x62").u64(23);
        body.u8(2).u64(10).u64(11);
        body.le((1ULL << 55) | 1700000000000001ULL, 7)
            .le(1700000000000000ULL, 7)
            .packed(900)
            .u32((1U << 31) | 80036)
            .u32(80020);
        const auto g_ = decodeAs<MySqlGtidEvent>(decoder, makeEvent(EventType::Gtid, body, true));
        const auto* g = &g_;
        QCOMPARE(g->text(), std::string("3e11fa47-71ca-11e1-9e33-c80aa9429562:23"));
        QCOMPARE(*g->lastCommitted, int64_t{10});
        QCOMPARE(*g->sequenceNumber, int64_t{11});
        QCOMPARE(*g->immediateCommitTimestamp, uint64_t{1700000000000001ULL});
        QCOMPARE(*g->originalCommitTimestamp, uint64_t{1700000000000000ULL});
        QCOMPARE(*g->transactionLength, uint64_t{900});
        QCOMPARE(*g->immediateServerVersion, uint32_t{80036});
        QCOMPARE(*g->originalServerVersion, uint32_t{80020});
        Bytes anonymous;
        anonymous.u8(1).zero(16).u64(0).u8(2).u64(4).u64(5);
        const auto a_ = decodeAs<MySqlGtidEvent>(decoder, makeEvent(EventType::AnonymousGtid, anonymous, true));
        const auto* a = &a_;
        QVERIFY(a->anonymous);
        QVERIFY(!a->immediateCommitTimestamp);
        Bytes previous;
        previous.u64(1)
            .str("\x3E\x11\xFA\x47\x71\xCA\x11\xE1\x9E\x33\xC8\x0A\xA9\x42\x95\x62")
            .u64(2)
            .u64(1)
            .u64(6)
            .u64(7)
            .u64(8);
        const auto p_ = decodeAs<PreviousGtidsEvent>(decoder, makeEvent(EventType::PreviousGtids, previous, true));
        const auto* p = &p_;
        QCOMPARE(p->text(), std::string("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5:7"));
    }

    void unknownIgnorableEventIsSkipped() {
        EventDecoder decoder = decoderAfterFde(kMariaDb, true);
        const std::string bytes =
            makeEvent(static_cast<EventType>(120), "future", true, 900, EventHeader::kIgnorableFlag);
        const Event event = decodeOne(decoder, bytes, 900);
        QCOMPARE(event.as<IgnoredEvent>()->typeCode, uint8_t{120});
        QCOMPARE(event.endPos, uint64_t{900 + bytes.size()});
    }

    void unknownEventIsAnErrorWithOffset() {
        EventDecoder decoder = decoderAfterFde(kMariaDb, true);
        try {
            decodeOne(decoder, makeEvent(static_cast<EventType>(120), "future", true), 777);
            QFAIL("an unknown event was accepted");
        } catch (const DecodeError& e) {
            QCOMPARE(e.offset(), uint64_t{777});
            QCOMPARE(e.file(), std::string(kFile));
            QVERIFY2(e.problem().find("unknown event type 120") != std::string::npos, e.what());
        }
    }

    void encryptedBinlogIsRefused() {
        EventDecoder decoder = decoderAfterFde(kMariaDb, true);
        try {
            decodeOne(decoder, makeEvent(EventType::StartEncryption, Bytes().u8(1).u32(1).zero(12), true), 256);
            QFAIL("an encrypted binlog was accepted");
        } catch (const DecodeError& e) {
            QVERIFY2(e.problem().find("encrypted binlog: not supported, decrypt") != std::string::npos, e.what());
        }
    }

    void eventSizeFieldMustMatchTheBytes() {
        EventDecoder decoder = decoderAfterFde(kMariaDb, true);
        std::string xid = makeEvent(EventType::Xid, Bytes().u64(9).data(), true);
        xid.pop_back();
        QVERIFY_THROWS_EXCEPTION(DecodeError, decodeOne(decoder, xid));
        QVERIFY_THROWS_EXCEPTION(DecodeError, decodeOne(decoder, std::string(10, '\0')));
    }
};

QTEST_GUILESS_MAIN(TestEventDecoder)
#include "test_event_decoder.moc"
