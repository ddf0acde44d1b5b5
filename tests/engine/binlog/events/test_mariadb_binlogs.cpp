// MariaDB 10.11 binlogs kept in the tree (tests/engine/binlog/fixtures/mariadb, written by
// make-mariadb-binlogs): every event kind MariaDB writes decodes, the rows per table and operation
// equal mariadb-binlog's, and the TABLE_MAP optional metadata lands in the right columns.
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>

#include <map>
#include <set>

#include "engine/binlog/event_decoder.h"
#include "tests/engine/binlog/events/binlog_file.h"

using namespace syncscope;
using namespace syncscope::binlog;

namespace {

std::string fixturePath(const std::string& name) {
    return std::string(SYNCSCOPE_SOURCE_DIR) + "/tests/engine/binlog/fixtures/mariadb/" + name;
}

struct Decoded {
    test::BinlogFile file;
    std::vector<Event> events;
};

void decodeFixture(const std::string& name, Decoded& out) {
    out.file = test::readBinlogFile(fixturePath(name));
    EventDecoder decoder;
    for (size_t i = 0; i < out.file.eventCount(); ++i) {
        decoder.decodeInto(out.file.event(i), out.events);
    }
}

std::map<std::string, int> ourRowCounts(const std::vector<Event>& events) {
    std::map<std::string, int> counts;
    for (const Event& event : events) {
        if (const auto* rows = event.as<RowsEvent>()) {
            counts[rows->table->schema + "." + rows->table->table + " " + std::string(rowsOpName(rows->op))] +=
                static_cast<int>(rows->rowCount());
        }
    }
    return counts;
}

std::map<std::string, int> mariadbBinlogRowCounts(const std::string& path) {
    QProcess process;
    process.start("mariadb-binlog", {"--base64-output=decode-rows", "-vv", QString::fromStdString(path)});
    process.waitForFinished(60000);
    static const QRegularExpression line(R"(^### (INSERT INTO|UPDATE|DELETE FROM) `([^`]*)`\.`([^`]*)`)",
                                         QRegularExpression::MultilineOption);
    std::map<std::string, int> counts;
    const QString output = QString::fromUtf8(process.readAllStandardOutput());
    for (auto it = line.globalMatch(output); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const QString verb = m.captured(1);
        const std::string op = verb == "INSERT INTO" ? "insert" : verb == "UPDATE" ? "update" : "delete";
        counts[m.captured(2).toStdString() + "." + m.captured(3).toStdString() + " " + op] += 1;
    }
    return counts;
}

std::set<EventType> typesIn(const std::vector<Event>& events) {
    std::set<EventType> types;
    for (const Event& event : events) {
        types.insert(event.type());
    }
    return types;
}

template <typename T>
std::vector<const T*> bodiesOf(const std::vector<Event>& events) {
    std::vector<const T*> bodies;
    for (const Event& event : events) {
        if (const T* body = event.as<T>()) {
            bodies.push_back(body);
        }
    }
    return bodies;
}

TableMapPtr firstTable(const std::vector<Event>& events, const std::string& name) {
    for (const TableMapEvent* map : bodiesOf<TableMapEvent>(events)) {
        if (map->table->table == name) {
            return map->table;
        }
    }
    return nullptr;
}

const ColumnDef& column(const TableMap& table, const std::string& name) {
    for (const ColumnDef& c : table.columns) {
        if (c.name == name) {
            return c;
        }
    }
    throw std::runtime_error("no column " + name);
}

}  // namespace

class TestMariadbBinlogs : public QObject {
    Q_OBJECT

private slots:
    void rowCountsEqualMariadbBinlog_data() {
        QTest::addColumn<QString>("name");
        QTest::addRow("full") << "full.000001";
        QTest::addRow("compressed") << "compressed.000001";
        QTest::addRow("minimal") << "minimal.000001";
    }
    void rowCountsEqualMariadbBinlog() {
        QFETCH(QString, name);
        if (QStandardPaths::findExecutable("mariadb-binlog").isEmpty()) {
            QSKIP("mariadb-binlog is not installed (package mariadb-client)");
        }
        Decoded decoded;
        decodeFixture(name.toStdString(), decoded);
        const auto ours = ourRowCounts(decoded.events);
        const auto theirs = mariadbBinlogRowCounts(fixturePath(name.toStdString()));
        QVERIFY(!theirs.empty());
        QCOMPARE(ours, theirs);
    }

    void mariaDbEventKindsAreAllDecoded() {
        Decoded decoded;
        decodeFixture("full.000001", decoded);
        const std::set<EventType> types = typesIn(decoded.events);
        for (EventType expected :
             {EventType::FormatDescription, EventType::GtidList, EventType::BinlogCheckpoint, EventType::MariaDbGtid,
              EventType::Query, EventType::AnnotateRows, EventType::TableMap, EventType::WriteRowsV1,
              EventType::UpdateRowsV1, EventType::DeleteRowsV1, EventType::Xid, EventType::Rotate}) {
            QVERIFY2(types.count(expected) == 1, eventTypeName(expected).data());
        }
        const auto gtids = bodiesOf<MariaDbGtidEvent>(decoded.events);
        QVERIFY(gtids.size() > 10);
        QCOMPARE(gtids.front()->text(), std::string("3-7-1"));
        QCOMPARE(gtids.back()->domainId, uint32_t{3});
        bool sawXa = false;
        for (const MariaDbGtidEvent* gtid : gtids) {
            sawXa = sawXa || (gtid->flags & MariaDbGtidEvent::kPreparedXa) != 0;
        }
        QVERIFY2(sawXa, "the XA PREPARE group carries FL_PREPARED_XA");
        QCOMPARE(bodiesOf<BinlogCheckpointEvent>(decoded.events).front()->file, std::string("full.000001"));
        QCOMPARE(bodiesOf<RotateEvent>(decoded.events).back()->nextFile, std::string("full.000002"));
        const auto annotations = bodiesOf<AnnotateRowsEvent>(decoded.events);
        QVERIFY(annotations.front()->query.rfind("INSERT INTO every_type VALUES", 0) == 0);
        int ddl = 0;
        int begin = 0;
        for (const QueryEvent* query : bodiesOf<QueryEvent>(decoded.events)) {
            ddl += query->kind == QueryEvent::Kind::Ddl ? 1 : 0;
            begin += query->kind == QueryEvent::Kind::Begin ? 1 : 0;
            QVERIFY(query->status.charset.has_value());
        }
        QCOMPARE(ddl, 6);    // CREATE DATABASE, 3 CREATE TABLE, ALTER, DROP
        QCOMPARE(begin, 0);  // with GTIDs MariaDB writes no BEGIN query: the GTID event opens the group
        // Positions chain: each event ends where the next one starts.
        for (size_t i = 0; i + 1 < decoded.events.size(); ++i) {
            QCOMPARE(decoded.events[i].endPos, decoded.events[i + 1].pos);
        }
    }

    void fullRowMetadataFillsColumns() {
        Decoded decoded;
        decodeFixture("full.000001", decoded);
        const TableMapPtr table = firstTable(decoded.events, "every_type");
        QVERIFY(table);
        QCOMPARE(table->schema, std::string("shop"));
        QCOMPARE(table->columns.size(), size_t{36});
        QVERIFY(table->hasColumnNames && table->hasSignedness && table->hasPrimaryKey);
        QCOMPARE(table->columns[0].name, std::string("id"));
        QVERIFY(column(*table, "id").isUnsigned);
        QVERIFY(!column(*table, "t").isUnsigned);
        QVERIFY(column(*table, "ut").isUnsigned);
        QVERIFY(column(*table, "um").isUnsigned);
        QVERIFY(!column(*table, "b").isUnsigned);
        QVERIFY(column(*table, "ub").isUnsigned);
        QVERIFY(column(*table, "dec2").isUnsigned);
        QVERIFY(!column(*table, "dec1").isUnsigned);
        QCOMPARE(column(*table, "vc").charset, uint32_t{8});  // latin1_swedish_ci
        QCOMPARE(column(*table, "c").charset, uint32_t{45});  // utf8mb4_general_ci
        QVERIFY(column(*table, "bin").isBinary);
        QVERIFY(column(*table, "bl").isBinary);
        QVERIFY(!column(*table, "tx").isBinary);
        QCOMPARE(column(*table, "e").enumValues, (std::vector<std::string>{"small", "medium", "large"}));
        QCOMPARE(column(*table, "st").enumValues, (std::vector<std::string>{"red", "green", "blue"}));
        QCOMPARE(column(*table, "pt").geometryType, uint16_t{1});  // POINT
        QCOMPARE(column(*table, "g").geometryType, uint16_t{0});   // GEOMETRY
        QVERIFY(column(*table, "cvc").isCompressed);
        QVERIFY(column(*table, "ctx").isCompressed);
        QVERIFY(column(*table, "id").inPrimaryKey);
        QVERIFY(!column(*table, "id").nullable);
        QVERIFY(column(*table, "t").nullable);
        QCOMPARE(table->primaryKey, (std::vector<uint32_t>{0}));

        const TableMapPtr keyed = firstTable(decoded.events, "keyed");
        QCOMPARE(keyed->primaryKey, (std::vector<uint32_t>{0, 1}));
        QCOMPARE(keyed->primaryKeyPrefixes, (std::vector<uint32_t>{0, 5}));
    }

    void firstRowValuesAreTyped() {
        Decoded decoded;
        decodeFixture("full.000001", decoded);
        const RowsEvent* insert = bodiesOf<RowsEvent>(decoded.events).front();
        QCOMPARE(insert->op, RowsOp::Insert);
        QCOMPARE(insert->rowCount(), size_t{1});
        QVERIFY(!insert->hasBefore(0));
        const auto row = insert->after(0);
        const auto text = [&](const std::string& name) {
            for (size_t i = 0; i < insert->table->columns.size(); ++i) {
                if (insert->table->columns[i].name == name) {
                    return row[i].toText(insert->table->columns[i]);
                }
            }
            return std::string("?");
        };
        QCOMPARE(text("t"), std::string("-128"));
        QCOMPARE(text("ut"), std::string("255"));
        QCOMPARE(text("ub"), std::string("18446744073709551615"));
        QCOMPARE(text("b"), std::string("-9223372036854775808"));
        QCOMPARE(text("dec1"), std::string("-1234567.891"));
        QCOMPARE(text("dt"), std::string("2024-02-29"));
        QCOMPARE(text("e"), std::string("large"));
        QCOMPARE(text("st"), std::string("red,blue"));
        QCOMPARE(text("cvc"), std::string(120, ' ').replace(0, 120, [] {
            std::string s;
            for (int i = 0; i < 10; ++i) {
                s += "compress me ";
            }
            return s;
        }()));
    }

    void compressedEventsAreInflated() {
        Decoded full;
        Decoded compressed;
        decodeFixture("full.000001", full);
        decodeFixture("compressed.000001", compressed);
        const std::set<EventType> types = typesIn(compressed.events);
        QVERIFY(types.count(EventType::QueryCompressed) == 1);
        QVERIFY(types.count(EventType::WriteRowsCompressedV1) == 1);
        QVERIFY(types.count(EventType::UpdateRowsCompressedV1) == 1);
        // Same workload, same rows: the compressed file decodes to the values of the plain one.
        const auto plainRows = bodiesOf<RowsEvent>(full.events);
        const auto packedRows = bodiesOf<RowsEvent>(compressed.events);
        QCOMPARE(packedRows.size(), plainRows.size());
        int compressedEvents = 0;
        for (size_t i = 0; i < plainRows.size(); ++i) {
            compressedEvents += packedRows[i]->compressed ? 1 : 0;
            QCOMPARE(packedRows[i]->rowCount(), plainRows[i]->rowCount());
            for (size_t v = 0; v < plainRows[i]->values.size(); ++v) {
                const ColumnDef& def = plainRows[i]->table->columns[v % plainRows[i]->columnCount];
                if (def.type == ColumnType::Timestamp2 || def.name == "ts") {
                    continue;  // written at another time
                }
                QCOMPARE(packedRows[i]->values[v].toText(def), plainRows[i]->values[v].toText(def));
            }
        }
        QVERIFY(compressedEvents > 0);
        bool sawCompressedQuery = false;
        for (const QueryEvent* query : bodiesOf<QueryEvent>(compressed.events)) {
            if (query->compressed) {
                sawCompressedQuery = true;
                QVERIFY(!query->query.empty());
            }
        }
        QVERIFY(sawCompressedQuery);
    }

    // What `syncscope-cli decode` and `bench decode` do: text borrowed from the raw event, rows events
    // recycled between reads. Every event and value equals the owning decode of the same file.
    void streamingDecodeEqualsOwningDecode_data() {
        QTest::addColumn<QString>("name");
        QTest::addRow("full") << "full.000001";
        QTest::addRow("compressed") << "compressed.000001";
        QTest::addRow("minimal") << "minimal.000001";
    }
    void streamingDecodeEqualsOwningDecode() {
        QFETCH(QString, name);
        Decoded owned;
        decodeFixture(name.toStdString(), owned);
        EventDecoder decoder;
        decoder.setRowTextStorage(TextStorage::Borrow);
        std::vector<Event> events;
        std::string scratch;  // each raw event's bytes, overwritten by the next one
        size_t next = 0;
        size_t borrowed = 0;
        for (size_t i = 0; i < owned.file.eventCount(); ++i) {
            const RawEvent raw = owned.file.event(i);
            scratch.assign(raw.bytes);
            decoder.recycle(events);
            decoder.decodeInto(RawEvent{scratch, raw.file, raw.pos}, events);
            for (const Event& event : events) {
                QVERIFY(next < owned.events.size());
                const Event& expected = owned.events[next++];
                QCOMPARE(event.type(), expected.type());
                QCOMPARE(event.endPos, expected.endPos);
                const RowsEvent* rows = event.as<RowsEvent>();
                if (rows == nullptr) {
                    continue;
                }
                const RowsEvent* expectedRows = expected.as<RowsEvent>();
                QCOMPARE(rows->rowCount(), expectedRows->rowCount());
                QCOMPARE(rows->values.size(), expectedRows->values.size());
                QCOMPARE(rows->presentBefore, expectedRows->presentBefore);
                QCOMPARE(rows->presentAfter, expectedRows->presentAfter);
                for (size_t v = 0; v < rows->values.size(); ++v) {
                    QVERIFY(rows->values[v] == expectedRows->values[v]);
                    if (rows->values[v].isBorrowed()) {
                        const std::string_view bytes = rows->values[v].bytes();
                        QVERIFY(bytes.data() >= scratch.data() &&
                                bytes.data() + bytes.size() <= scratch.data() + scratch.size());
                        ++borrowed;
                    }
                }
            }
        }
        QCOMPARE(next, owned.events.size());
        QVERIFY(borrowed > 0 || name == "compressed.000001");
    }

    void minimalAndNoblobImagesLeaveColumnsOut() {
        Decoded decoded;
        decodeFixture("minimal.000001", decoded);
        QCOMPARE(decoded.events.front().as<FormatDescriptionEvent>()->checksum, ChecksumAlgorithm::Off);
        int partialUpdates = 0;
        for (const RowsEvent* rows : bodiesOf<RowsEvent>(decoded.events)) {
            if (rows->op != RowsOp::Update || rows->table->table != "every_type") {
                continue;
            }
            const size_t before = std::count(rows->presentBefore.begin(), rows->presentBefore.end(), true);
            const size_t after = std::count(rows->presentAfter.begin(), rows->presentAfter.end(), true);
            QVERIFY2(before < rows->columnCount || after < rows->columnCount, "a MINIMAL/NOBLOB image is partial");
            QVERIFY(rows->presentBefore[0]);  // the primary key identifies the row
            ++partialUpdates;
        }
        QCOMPARE(partialUpdates, 2);
        // MINIMAL row metadata: signedness but no names.
        const TableMapPtr table = firstTable(decoded.events, "every_type");
        QVERIFY(!table->hasColumnNames);
        QVERIFY(table->hasSignedness);
        QVERIFY(table->columns[2].isUnsigned);
    }
};

QTEST_GUILESS_MAIN(TestMariadbBinlogs)
#include "test_mariadb_binlogs.moc"
