// Every value of every column type that the local MariaDB 10.11 writes, under binlog_row_image FULL,
// MINIMAL and NOBLOB, decodes to the text that SELECT returns for the same row at that moment and to
// what mariadb-binlog prints; read from its binlog file (file source) and streamed from the server
// (server source, with the streaming decoder's borrowed text and recycled events), both.
#include <QtTest>

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>

#include "engine/binlog/event_decoder.h"
#include "engine/source/binlog_file_source.h"
#include "engine/source/binlog_server_source.h"
#include "engine/source/upstream_connection.h"
#include "tests/integration/binlog_types/all_types_table.h"
#include "tests/integration/binlog_types/mariadb_binlog_rows.h"
#include "tests/support/test_env.h"

using namespace syncscope;
using namespace syncscope::binlog;

namespace {

const char* const kSchema = "binlog_types";
const char* const kTable = "all_types";

ServerSettings toSettings(const test::ServerSettings& s) {
    ServerSettings settings;
    settings.host = s.host;
    settings.port = s.port;
    settings.user = s.user;
    settings.password = s.password;
    return settings;
}

std::string qualified() {
    return std::string(kSchema) + "." + kTable;
}

// One row change as the test made it, with the rows as SELECT showed them before and after.
struct ExpectedChange {
    std::string rowImage;  // FULL, MINIMAL or NOBLOB
    RowsOp op = RowsOp::Insert;
    int id = 0;
    std::optional<source::Row> before;
    std::optional<source::Row> after;
};

struct DecodedChange {
    RowsOp op = RowsOp::Insert;
    TableMapPtr table;
    std::vector<bool> presentBefore;
    std::vector<bool> presentAfter;
    std::vector<ColumnValue> before;
    std::vector<ColumnValue> after;
};

class AllTypesWorkload {
public:
    explicit AllTypesWorkload(source::UpstreamConnection& db) : db_(db) {}

    source::Row select(int id) {
        std::string list;
        for (const test::TypedColumn& column : test::allTypesColumns()) {
            list +=
                (list.empty() ? "" : ", ") + (column.selectExpression.empty() ? column.name : column.selectExpression);
        }
        auto rows = db_.query("SELECT " + list + " FROM " + qualified() + " WHERE id = " + std::to_string(id));
        if (rows.size() != 1) {
            throw Error("row " + std::to_string(id) + " not found");
        }
        return rows.front();
    }

    void insert(const std::string& image, int id, const test::LiteralRow& row) {
        std::string names = "id";
        std::string values = std::to_string(id);
        for (const auto& [name, literal] : row) {
            names += ", " + name;
            values += ", " + literal;
        }
        db_.execute("INSERT INTO " + qualified() + " (" + names + ") VALUES (" + values + ")");
        expected.push_back({image, RowsOp::Insert, id, std::nullopt, select(id)});
    }

    void update(const std::string& image, int id, const std::string& assignments) {
        source::Row before = select(id);
        db_.execute("UPDATE " + qualified() + " SET " + assignments + " WHERE id = " + std::to_string(id));
        expected.push_back({image, RowsOp::Update, id, before, select(id)});
    }

    void remove(const std::string& image, int id) {
        source::Row before = select(id);
        db_.execute("DELETE FROM " + qualified() + " WHERE id = " + std::to_string(id));
        expected.push_back({image, RowsOp::Delete, id, before, std::nullopt});
    }

    std::vector<ExpectedChange> expected;

private:
    source::UpstreamConnection& db_;
};

// Appends one DecodedChange per row of a rows event of the table under test (values copied, so that
// they own their bytes whatever the decoder borrowed).
void collectChanges(const std::vector<Event>& events, std::vector<DecodedChange>& changes) {
    for (const Event& event : events) {
        const RowsEvent* rows = event.as<RowsEvent>();
        if (rows == nullptr || rows->table->schema != kSchema || rows->table->table != kTable) {
            continue;
        }
        for (size_t i = 0; i < rows->rowCount(); ++i) {
            DecodedChange change;
            change.op = rows->op;
            change.table = rows->table;
            change.presentBefore = rows->presentBefore;
            change.presentAfter = rows->presentAfter;
            auto before = rows->before(i);
            auto after = rows->after(i);
            change.before.assign(before.begin(), before.end());
            change.after.assign(after.begin(), after.end());
            changes.push_back(std::move(change));
        }
    }
}

std::vector<DecodedChange> decodeTableChanges(const std::filesystem::path& file) {
    auto source = source::BinlogFileSource::ofFiles({file});
    EventDecoder decoder;
    std::vector<DecodedChange> changes;
    std::vector<Event> events;
    while (auto raw = source.next()) {
        events.clear();
        decoder.decodeInto(*raw, events);
        collectChanges(events, changes);
    }
    return changes;
}

// The same file streamed by the server (COM_BINLOG_DUMP from its first event, as the replication
// user), up to the ROTATE that closes it.
std::vector<DecodedChange> decodeTableChangesFromServer(const std::string& file) {
    // Only against a hang: the whole file takes well under a second to stream.
    constexpr auto kGiveUpAfter = std::chrono::seconds(120);
    source::ServerSourceOptions options;
    options.server = toSettings(test::upstreamReplication());
    options.startFile = file;
    options.startPosition = 4;
    options.heartbeatPeriod = std::chrono::seconds(1);
    source::BinlogServerSource source(options);
    EventDecoder decoder;
    decoder.setRowTextStorage(TextStorage::Borrow);
    bool checksumSet = false;
    std::vector<DecodedChange> changes;
    std::vector<Event> events;
    const auto deadline = std::chrono::steady_clock::now() + kGiveUpAfter;
    while (std::chrono::steady_clock::now() < deadline) {
        auto raw = source.next();
        if (!raw) {
            break;
        }
        if (!checksumSet) {
            // The stream's first event (an artificial ROTATE) comes before any FORMAT_DESCRIPTION.
            decoder.setChecksum(source.hasChecksum() ? ChecksumAlgorithm::Crc32 : ChecksumAlgorithm::Off);
            checksumSet = true;
        }
        decoder.recycle(events);
        decoder.decodeInto(*raw, events);
        collectChanges(events, changes);
        for (const Event& event : events) {
            if (event.as<RotateEvent>() != nullptr && (event.header.flags & EventHeader::kArtificialFlag) == 0) {
                return changes;  // the end of the file
            }
        }
    }
    throw Error("the server did not stream " + file + " up to its closing ROTATE");
}

// The decoder learns INET6/UUID/INET4 from the schema, not from the binlog (MariaDB logs them as
// BINARY(16)/BINARY(4)); this is what the schema layer does from information_schema.
std::map<std::string, ExtendedType> extendedTypes(source::UpstreamConnection& db) {
    std::map<std::string, ExtendedType> types;
    for (const auto& row : db.query(std::string("SELECT COLUMN_NAME, DATA_TYPE FROM information_schema.COLUMNS "
                                                "WHERE TABLE_SCHEMA = '") +
                                    kSchema + "' AND TABLE_NAME = '" + kTable + "'")) {
        const std::string type = row[1].value_or("");
        if (type == "inet6") {
            types[*row[0]] = ExtendedType::Inet6;
        } else if (type == "uuid") {
            types[*row[0]] = ExtendedType::Uuid;
        } else if (type == "inet4") {
            types[*row[0]] = ExtendedType::Inet4;
        }
    }
    return types;
}

// A value for a failure message: quoted, with bytes that are not printable ASCII as \xNN.
std::string shown(const std::optional<std::string>& v) {
    if (!v) {
        return "NULL";
    }
    static const char* const kHex = "0123456789abcdef";
    std::string out = "'";
    for (char c : *v) {
        auto b = static_cast<unsigned char>(c);
        if (b >= 0x20 && b < 0x7F) {
            out.push_back(c);
        } else {
            out += "\\x";
            out.push_back(kHex[b >> 4]);
            out.push_back(kHex[b & 0x0F]);
        }
    }
    return out + "'";
}

std::string clip(const std::string& s) {
    return s.size() > 120 ? s.substr(0, 120) + "...(" + std::to_string(s.size()) + " bytes)" : s;
}

}  // namespace

class BinlogTypesTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<source::UpstreamConnection> db_;
    std::vector<ExpectedChange> expected_;
    std::map<std::string, std::vector<DecodedChange>> decoded_;  // by source: "file", "server"
    std::map<std::string, std::string> decodeError_;             // by source, when it did not decode
    std::map<std::string, ExtendedType> extended_;
    std::string binlogFile_;

    static void addSources() {
        QTest::addColumn<QString>("source");
        QTest::addRow("file source") << "file";
        QTest::addRow("server source") << "server";
    }

    // The changes one source decoded; fails the test when it could not decode them.
    const std::vector<DecodedChange>* decodedBy(const QString& source) {
        const std::string name = source.toStdString();
        const auto error = decodeError_.find(name);
        if (error != decodeError_.end()) {
            QTest::qFail((name + " source: " + error->second).c_str(), __FILE__, __LINE__);
            return nullptr;
        }
        return &decoded_.at(name);
    }

    // Compares one image value by value; returns the number of values compared.
    int compareImage(const ExpectedChange& change, const DecodedChange& decoded, bool beforeImage) {
        const source::Row& selected = beforeImage ? *change.before : *change.after;
        const auto& values = beforeImage ? decoded.before : decoded.after;
        const auto& present = beforeImage ? decoded.presentBefore : decoded.presentAfter;
        const auto& columns = test::allTypesColumns();
        int compared = 0;
        for (size_t i = 0; i < columns.size(); ++i) {
            if (i >= present.size() || !present[i]) {
                continue;
            }
            ColumnDef column = decoded.table->columns.at(i);
            if (auto it = extended_.find(columns[i].name); it != extended_.end()) {
                column.extendedType = it->second;
            }
            const ColumnValue& value = values[i];
            std::optional<std::string> text;
            if (!value.isNull()) {
                text = value.toText(column);
            }
            const std::string where = change.rowImage + " " + std::string(rowsOpName(change.op)) + " id " +
                                      std::to_string(change.id) + (beforeImage ? " before " : " after ") +
                                      columns[i].name + " (" + columns[i].sqlType.substr(0, 40) + ")";
            if (text != selected[i]) {
                QTest::qFail(
                    ("decoded " + clip(shown(text)) + " but SELECT shows " + clip(shown(selected[i])) + " at " + where)
                        .c_str(),
                    __FILE__, __LINE__);
                return -1;
            }
            ++compared;
        }
        return compared;
    }

private slots:
    void initTestCase() {
        db_ = std::make_unique<source::UpstreamConnection>(toSettings(test::upstreamRoot()));
        db_->execute(std::string("DROP DATABASE IF EXISTS ") + kSchema);
        db_->execute(std::string("CREATE DATABASE ") + kSchema);
        db_->execute("SET SESSION time_zone = '+00:00'");
        db_->execute("SET SESSION sql_mode = ''");  // zero dates and the empty ENUM value are edges too
        db_->execute(test::allTypesCreateTable(qualified()));
        extended_ = extendedTypes(*db_);

        db_->execute("FLUSH BINARY LOGS");
        auto status = db_->query("SHOW MASTER STATUS");
        QVERIFY(!status.empty() && status.front()[0]);
        const std::string file = *status.front()[0];
        binlogFile_ = (std::filesystem::path(test::upstreamBinlogDir()) / file).string();

        AllTypesWorkload workload(*db_);
        const auto rows = test::allTypesRows();
        int base = 0;
        for (const std::string image : {"FULL", "MINIMAL", "NOBLOB"}) {
            db_->execute("SET SESSION binlog_row_image = '" + image + "'");
            base += 100;
            for (size_t r = 0; r < rows.size(); ++r) {
                workload.insert(image, base + static_cast<int>(r), rows[r]);
            }
            // Updates that change a few columns (MINIMAL and NOBLOB log fewer), from NULL to values and back.
            workload.update(image, base + 3,
                            "c_int = c_int - 1, c_text = 'changed', c_double = 2.5, c_time3 = '-00:00:00.001'");
            workload.update(image, base + 0, "c_dec_65_30 = -12.5, c_json = '{\"b\": 2}', c_uuid = UUID()");
            workload.update(image, base + 4, "c_blob_comp = NULL, c_varchar_comp = REPEAT('x', 999), c_bit64 = 0");
            workload.remove(image, base + 2);
            workload.remove(image, base + 3);
        }
        db_->execute("FLUSH BINARY LOGS");  // closes the file with a ROTATE: it is complete
        expected_ = std::move(workload.expected);
        try {
            decoded_["file"] = decodeTableChanges(std::filesystem::path(test::upstreamBinlogDir()) / file);
        } catch (const std::exception& e) {
            decodeError_["file"] = e.what();
        }
        try {
            decoded_["server"] = decodeTableChangesFromServer(file);
        } catch (const std::exception& e) {
            decodeError_["server"] = e.what();
        }
    }

    void everyRowChangeIsDecodedInOrder_data() { addSources(); }
    void everyRowChangeIsDecodedInOrder() {
        QFETCH(QString, source);
        const auto* decoded = decodedBy(source);
        QVERIFY(decoded != nullptr);
        QCOMPARE(decoded->size(), expected_.size());
        for (size_t i = 0; i < expected_.size(); ++i) {
            QCOMPARE(rowsOpName((*decoded)[i].op), rowsOpName(expected_[i].op));
        }
    }

    void everyLoggedValueEqualsWhatSelectShows_data() { addSources(); }
    void everyLoggedValueEqualsWhatSelectShows() {
        QFETCH(QString, source);
        const auto* decoded = decodedBy(source);
        QVERIFY(decoded != nullptr);
        QCOMPARE(decoded->size(), expected_.size());
        int compared = 0;
        for (size_t i = 0; i < expected_.size(); ++i) {
            const ExpectedChange& change = expected_[i];
            if (change.before) {
                int n = compareImage(change, (*decoded)[i], true);
                if (n < 0) {
                    return;  // compareImage reported the mismatch
                }
                compared += n;
            }
            if (change.after) {
                int n = compareImage(change, (*decoded)[i], false);
                if (n < 0) {
                    return;
                }
                compared += n;
            }
        }
        qInfo("%s source: compared %d values", qPrintable(source), compared);
        const size_t columnCount = test::allTypesColumns().size();
        QVERIFY(compared > static_cast<int>(columnCount * 3 * 6));  // at least every insert of every image mode
    }

    // Both sources hand the decoder the same events: every decoded value is the same.
    void serverSourceDecodesWhatTheFileHolds() {
        const auto* fromFile = decodedBy("file");
        const auto* fromServer = decodedBy("server");
        QVERIFY(fromFile != nullptr && fromServer != nullptr);
        QCOMPARE(fromServer->size(), fromFile->size());
        for (size_t i = 0; i < fromFile->size(); ++i) {
            const DecodedChange& a = (*fromFile)[i];
            const DecodedChange& b = (*fromServer)[i];
            QCOMPARE(b.presentBefore, a.presentBefore);
            QCOMPARE(b.presentAfter, a.presentAfter);
            QVERIFY2(b.before == a.before, ("before image of change " + std::to_string(i)).c_str());
            QVERIFY2(b.after == a.after, ("after image of change " + std::to_string(i)).c_str());
        }
    }

    void rowImageModesLogTheColumnsTheyPromise_data() { addSources(); }
    void rowImageModesLogTheColumnsTheyPromise() {
        QFETCH(QString, source);
        const auto* decodedChanges = decodedBy(source);
        QVERIFY(decodedChanges != nullptr);
        QCOMPARE(decodedChanges->size(), expected_.size());
        const size_t columnCount = test::allTypesColumns().size();
        for (size_t i = 0; i < expected_.size(); ++i) {
            const ExpectedChange& change = expected_[i];
            const DecodedChange& decoded = (*decodedChanges)[i];
            auto count = [](const std::vector<bool>& bits) {
                return static_cast<size_t>(std::count(bits.begin(), bits.end(), true));
            };
            if (change.rowImage == "FULL") {
                if (change.before) {
                    QCOMPARE(count(decoded.presentBefore), columnCount);
                }
                if (change.after) {
                    QCOMPARE(count(decoded.presentAfter), columnCount);
                }
            } else if (change.rowImage == "MINIMAL" && change.before) {
                QCOMPARE(count(decoded.presentBefore), size_t(1));  // the primary key alone
                QVERIFY(decoded.presentBefore[0]);
            } else if (change.rowImage == "NOBLOB" && change.before) {
                QVERIFY(count(decoded.presentBefore) < columnCount);  // BLOB/TEXT columns left out
                QVERIFY(decoded.presentBefore[0]);
            }
        }
    }

    // mariadb-binlog prints integers, decimals, temporals, ENUM indexes and SET/BIT bits in forms that
    // can be compared exactly; floats, text and bytes it prints in its own formats, so they are left out.
    void valuesEqualWhatMariadbBinlogPrints_data() { addSources(); }
    void valuesEqualWhatMariadbBinlogPrints() {
        QFETCH(QString, source);
        const auto* decodedChanges = decodedBy(source);
        QVERIFY(decodedChanges != nullptr);
        auto printed = test::mariadbBinlogChanges(binlogFile_, kSchema, kTable);
        if (!printed) {
            QSKIP("mariadb-binlog is not installed");
        }
        QCOMPARE(printed->size(), decodedChanges->size());
        int compared = 0;
        for (size_t i = 0; i < decodedChanges->size(); ++i) {
            const DecodedChange& decoded = (*decodedChanges)[i];
            for (bool beforeImage : {true, false}) {
                const auto& values = beforeImage ? decoded.before : decoded.after;
                const auto& present = beforeImage ? decoded.presentBefore : decoded.presentAfter;
                const auto& printedImage = beforeImage ? (*printed)[i].before : (*printed)[i].after;
                for (size_t c = 0; c < values.size(); ++c) {
                    if (c >= present.size() || !present[c]) {
                        QVERIFY(printedImage.count(static_cast<int>(c + 1)) == 0);
                        continue;
                    }
                    const ColumnDef& column = decoded.table->columns[c];
                    auto ours = test::printedLikeMariadbBinlog(values[c], column);
                    if (!ours) {
                        continue;
                    }
                    auto it = printedImage.find(static_cast<int>(c + 1));
                    QVERIFY2(it != printedImage.end(), ("mariadb-binlog has no @" + std::to_string(c + 1)).c_str());
                    const std::string theirs = test::normalizedPrinted(it->second, values[c]);
                    if (theirs != *ours) {
                        QFAIL(("change " + std::to_string(i) + (beforeImage ? " before " : " after ") +
                               test::allTypesColumns()[c].name + ": decoded " + *ours + ", mariadb-binlog printed " +
                               it->second)
                                  .c_str());
                    }
                    ++compared;
                }
            }
        }
        qInfo("%s source: compared %d values with mariadb-binlog", qPrintable(source), compared);
        QVERIFY(compared > 500);
    }

    void cleanupTestCase() {
        if (db_) {
            db_->execute(std::string("DROP DATABASE IF EXISTS ") + kSchema);
        }
    }
};

QTEST_GUILESS_MAIN(BinlogTypesTest)
#include "test_binlog_types.moc"
