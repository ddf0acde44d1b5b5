// Every value of every column type that the local MariaDB 10.11 writes, under binlog_row_image FULL,
// MINIMAL and NOBLOB, decodes from its binlog file (file source + event decoder + value decoder) to the
// text that SELECT returns for the same row at that moment.
#include <QtTest>

#include <filesystem>
#include <map>
#include <optional>

#include "engine/binlog/event_decoder.h"
#include "engine/source/binlog_file_source.h"
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

std::vector<DecodedChange> decodeTableChanges(const std::filesystem::path& file) {
    auto source = source::BinlogFileSource::ofFiles({file});
    EventDecoder decoder;
    std::vector<DecodedChange> changes;
    std::vector<Event> events;
    while (auto raw = source.next()) {
        events.clear();
        decoder.decodeInto(*raw, events);
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
    return changes;
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
    std::vector<DecodedChange> decoded_;
    std::map<std::string, ExtendedType> extended_;
    std::string decodeError_;  // the binlog file did not decode
    std::string binlogFile_;

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
            decoded_ = decodeTableChanges(std::filesystem::path(test::upstreamBinlogDir()) / file);
        } catch (const Error& e) {
            decodeError_ = e.what();
        }
    }

    void everyRowChangeIsDecodedInOrder() {
        QVERIFY2(decodeError_.empty(), decodeError_.c_str());
        QCOMPARE(decoded_.size(), expected_.size());
        for (size_t i = 0; i < expected_.size(); ++i) {
            QCOMPARE(rowsOpName(decoded_[i].op), rowsOpName(expected_[i].op));
        }
    }

    void everyLoggedValueEqualsWhatSelectShows() {
        QCOMPARE(decoded_.size(), expected_.size());
        int compared = 0;
        for (size_t i = 0; i < expected_.size(); ++i) {
            const ExpectedChange& change = expected_[i];
            if (change.before) {
                int n = compareImage(change, decoded_[i], true);
                if (n < 0) {
                    return;  // compareImage reported the mismatch
                }
                compared += n;
            }
            if (change.after) {
                int n = compareImage(change, decoded_[i], false);
                if (n < 0) {
                    return;
                }
                compared += n;
            }
        }
        qInfo("compared %d values", compared);
        const size_t columnCount = test::allTypesColumns().size();
        QVERIFY(compared > static_cast<int>(columnCount * 3 * 6));  // at least every insert of every image mode
    }

    void rowImageModesLogTheColumnsTheyPromise() {
        const size_t columnCount = test::allTypesColumns().size();
        for (size_t i = 0; i < expected_.size(); ++i) {
            const ExpectedChange& change = expected_[i];
            const DecodedChange& decoded = decoded_[i];
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
    void valuesEqualWhatMariadbBinlogPrints() {
        QVERIFY2(decodeError_.empty(), decodeError_.c_str());
        auto printed = test::mariadbBinlogChanges(binlogFile_, kSchema, kTable);
        if (!printed) {
            QSKIP("mariadb-binlog is not installed");
        }
        QCOMPARE(printed->size(), decoded_.size());
        int compared = 0;
        for (size_t i = 0; i < decoded_.size(); ++i) {
            const DecodedChange& decoded = decoded_[i];
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
        qInfo("compared %d values with mariadb-binlog", compared);
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
