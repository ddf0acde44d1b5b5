// The apply layer against the real downstream of the private pair: awkward names and values arrive
// byte for byte, safe mode is idempotent, order per row holds across four workers, a failing row is
// named exactly with nothing of its batch committed, and barrier() returns only after COMMIT.
#include <QtTest>

#include <cppconn/connection.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

#include <map>
#include <random>

#include "engine/apply/dml_builder.h"
#include "engine/apply/dml_executor.h"
#include "engine/apply/downstream_connection.h"
#include "engine/apply/quoted_name.h"
#include "engine/apply/worker_pool.h"
#include "engine/schema/downstream_schema_loader.h"
#include "engine/schema/schema_tracker.h"
#include "tests/support/test_env.h"

using namespace syncscope;
using namespace syncscope::apply;

namespace {

const char* const kDatabase = "apply it `数据`";  // backtick, space and unicode in the database name

ServerSettings toSettings(const test::ServerSettings& s) {
    ServerSettings settings;
    settings.host = s.host;
    settings.port = s.port;
    settings.user = s.user;
    settings.password = s.password;
    return settings;
}

std::string hex(const std::string& bytes) {
    static const char* const kHex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : bytes) {
        out += kHex[c >> 4];
        out += kHex[c & 0xf];
    }
    return out;
}

WorkerPoolSettings poolSettings(size_t workers, size_t batch, std::chrono::milliseconds idleCommit, bool multipleRows) {
    WorkerPoolSettings settings;
    settings.downstream = toSettings(test::downstreamRoot());
    settings.workerCount = workers;
    settings.worker.batch = batch;
    settings.worker.idleCommit = idleCommit;
    settings.worker.multipleRows = multipleRows;
    return settings;
}

RowChange change(std::shared_ptr<const schema::TableSchema> table, RowOp op, std::vector<SqlValue> before,
                 std::vector<SqlValue> after, bool safe = false, uint64_t pos = 0) {
    RowChange c;
    c.table = std::move(table);
    c.op = op;
    c.before = std::move(before);
    c.after = std::move(after);
    c.safeMode = safe;
    c.setSource({"mysql-bin.000007", pos, "0-1-" + std::to_string(pos)});
    c.transactionSeq = pos;
    return c;
}

std::vector<SqlValue> ints(std::initializer_list<long> values) {
    std::vector<SqlValue> row;
    for (long v : values) {
        row.push_back(SqlValue::signedInt(v));
    }
    return row;
}

}  // namespace

class ApplyDownstreamTest : public QObject {
    Q_OBJECT

    std::unique_ptr<sql::Connection> observer_;  // a second connection that sees only committed rows

    void exec(const std::string& sql) {
        std::unique_ptr<sql::Statement> statement(observer_->createStatement());
        statement->execute(sql);
    }

    std::vector<std::vector<std::string>> rows(const std::string& sql) {
        std::unique_ptr<sql::Statement> statement(observer_->createStatement());
        std::unique_ptr<sql::ResultSet> result(statement->executeQuery(sql));
        std::vector<std::vector<std::string>> out;
        auto columns = result->getMetaData()->getColumnCount();
        while (result->next()) {
            std::vector<std::string> row;
            for (unsigned i = 1; i <= columns; ++i) {
                row.push_back(result->isNull(i) ? std::string("NULL") : std::string(result->getString(i)));
            }
            out.push_back(row);
        }
        return out;
    }

    long count(const std::string& table) {
        return std::stol(rows("SELECT COUNT(*) FROM " + quoteTableName(table)).at(0).at(0));
    }

    static std::string quoteTableName(const std::string& table) {
        return quoteTable(schema::TableName{kDatabase, table});
    }

    std::shared_ptr<const schema::TableSchema> load(const std::string& table) {
        schema::DownstreamSchemaLoader loader(*observer_);
        auto loaded = loader.load({kDatabase, table});
        if (!loaded) {
            throw Error("test table " + table + " is missing");
        }
        return std::make_shared<const schema::TableSchema>(*loaded);
    }

    // After a barrier, the table's (id, v) rows equal the model (id -> v); says what differs when not.
    bool appliedAsModel(WorkerPool& pool, const std::string& table, const std::map<long, long>& model) {
        auto result = pool.barrier();
        if (!result.ok()) {
            qWarning("%s", result.failure ? result.failure->describe().c_str() : "the barrier failed");
            return false;
        }
        std::vector<std::vector<std::string>> want;
        for (const auto& [id, v] : model) {
            want.push_back({std::to_string(id), std::to_string(v)});
        }
        auto got = rows("SELECT id, v FROM " + quoteTableName(table) + " ORDER BY id");
        if (got != want) {
            qWarning("%s: %zu rows downstream, %zu in the model, or values differ", table.c_str(), got.size(),
                     want.size());
            return false;
        }
        return true;
    }

    // As the schema tracker hands it to the workers: judged against the downstream's unique indexes.
    std::shared_ptr<const schema::TableSchema> loadJudged(const std::string& table) {
        schema::TableSchema judged = *load(table);
        judged.judgeRowKeyAgainst(judged);
        return std::make_shared<const schema::TableSchema>(std::move(judged));
    }

private slots:
    void initTestCase() {
        observer_ = connectDownstream(toSettings(test::downstreamRoot()));
        exec("DROP DATABASE IF EXISTS " + quoteName(kDatabase));
        exec("CREATE DATABASE " + quoteName(kDatabase) + " CHARACTER SET utf8mb4");
    }

    void cleanupTestCase() {
        if (observer_) {
            exec("DROP DATABASE IF EXISTS " + quoteName(kDatabase));
        }
    }

    void awkwardNamesAndValuesReadBackByteForByte() {
        const std::string table = "tab\"le 'x` 表";
        exec(
            "CREATE TABLE " + quoteTableName(table) +
            " (`id` INT PRIMARY KEY, `sel``ect` VARCHAR(100), `名 前` TEXT, `bin` BLOB, `dec` DECIMAL(20,6), "
            "`when` DATETIME(6), `f` FLOAT, `u` BIGINT UNSIGNED, `n` INT NULL, `l1` VARCHAR(20) CHARACTER SET latin1)");
        auto schema = load(table);
        QCOMPARE(schema->columns().size(), size_t(10));
        QCOMPARE(schema->columns()[1].name, std::string("sel`ect"));
        QCOMPARE(int(schema->rowKey().kind), int(schema::RowKeyKind::PrimaryKey));
        QVERIFY(schema->columns()[7].isUnsigned);

        const std::string nul("a\0b", 3);
        const std::string blob("\0\x01\xff'\"\\`", 7);
        auto row = [&](long id, const std::string& text) {
            return std::vector<SqlValue>{SqlValue::signedInt(id),
                                         SqlValue::text(text),
                                         SqlValue::text("emoji 😀 \\ 'quote' \"dq\" " + nul),
                                         SqlValue::bytes(blob),
                                         SqlValue::text("-12345678901234.123456"),
                                         SqlValue::text("2024-02-29 23:59:59.654321"),
                                         SqlValue::real(double(1.1f)),
                                         SqlValue::unsignedInt(UINT64_MAX),
                                         SqlValue::null(),
                                         SqlValue::bytes("caf\xe9")};
        };
        WorkerPool pool(poolSettings(2, 10, std::chrono::milliseconds(5), true));
        QVERIFY(pool.dispatch(change(schema, RowOp::Insert, {}, row(1, "it's \\ a `test`"), false, 100)));
        QVERIFY(pool.dispatch(change(schema, RowOp::Insert, {}, row(2, "two"), false, 200)));
        QVERIFY(pool.dispatch(change(schema, RowOp::Insert, {}, row(3, "three"), false, 300)));
        QVERIFY(pool.dispatch(change(schema, RowOp::Update, row(2, "two"), row(2, "zwei ✓"), false, 400)));
        QVERIFY(pool.dispatch(change(schema, RowOp::Delete, row(3, "three"), {}, false, 500)));
        auto result = pool.barrier();
        QVERIFY2(result.ok(), result.failure ? result.failure->describe().c_str() : "");

        auto got = rows(
            "SELECT `id`, HEX(`sel``ect`), HEX(`名 前`), HEX(`bin`), `dec`, `when`, ROUND(`f`, 4), `u`, `n`, HEX(`l1`) "
            "FROM " +
            quoteTableName(table) + " ORDER BY `id`");
        QCOMPARE(got.size(), size_t(2));
        const std::string textHex = hex("emoji 😀 \\ 'quote' \"dq\" " + nul);
        std::vector<std::string> first{"1",       hex("it's \\ a `test`"),  textHex,
                                       hex(blob), "-12345678901234.123456", "2024-02-29 23:59:59.654321",
                                       "1.1000",  "18446744073709551615",   "NULL",
                                       "636166E9"};
        for (size_t i = 0; i < first.size(); ++i) {
            QVERIFY2(got[0][i] == first[i], qPrintable(QString("column %1: got %2, want %3")
                                                           .arg(i)
                                                           .arg(QString::fromStdString(got[0][i]))
                                                           .arg(QString::fromStdString(first[i]))));
        }
        QCOMPARE(got[1][1], hex("zwei ✓"));
        const schema::TableName target{kDatabase, table};
        QCOMPARE(pool.counters().rowsAppliedByTable[target], uint64_t(5));
    }

    void downstreamStructureGivesKeysForTablesTheTableMapCannotDescribe() {
        exec("CREATE TABLE " + quoteTableName("uk only") +
             " (`Code` VARCHAR(10) NOT NULL, `maybe` INT NULL, `v` INT UNSIGNED, UNIQUE KEY `u n` (`Code`),"
             " UNIQUE KEY `nullable` (`maybe`))");
        schema::DownstreamSchemaLoader loader(*observer_);
        auto loaded = loader.load({kDatabase, "uk only"});
        QVERIFY(loaded.has_value());
        QCOMPARE(int(loaded->rowKey().kind), int(schema::RowKeyKind::UniqueKey));
        QCOMPARE(loaded->rowKey().indexName, std::string("u n"));
        QCOMPARE(loaded->notNullUniqueKeys().size(), size_t(1));  // the nullable one cannot identify a row
        QVERIFY(loaded->columns()[2].isUnsigned);
        QVERIFY(!loader.load({kDatabase, "no such table"}).has_value());

        // A table map with names but no primary key: the tracker asks the downstream for unique keys.
        schema::SchemaTracker tracker([&](const schema::TableName& target) { return loader.load(target); });
        std::vector<binlog::ColumnDef> columns(3);
        columns[0].name = "code";  // case differs from the downstream's `Code`
        columns[0].type = binlog::ColumnType::VarChar;
        columns[0].nullable = false;
        columns[1].name = "maybe";
        columns[2].name = "v";
        auto tracked = tracker.schemaFor({"up", "uk only"}, {kDatabase, "uk only"}, columns);
        QCOMPARE(int(tracked->rowKey().kind), int(schema::RowKeyKind::UniqueKey));
        QCOMPARE(tracked->rowKey().columns, std::vector<size_t>{0});
    }

    // A table with a key; a keyless table is not idempotent in safe mode (it never deletes an equal row:
    // test_apply_real_schemas).
    void safeModeAppliedTwiceLeavesTheSameRows() {
        exec("CREATE TABLE " + quoteTableName("safe") + " (id INT PRIMARY KEY, v INT, UNIQUE KEY uv (v))");
        auto safe = load("safe");
        std::vector<RowChange> changes{
            change(safe, RowOp::Insert, {}, ints({1, 10}), true),
            change(safe, RowOp::Insert, {}, ints({2, 20}), true),
            change(safe, RowOp::Insert, {}, ints({3, 30}), true),
            change(safe, RowOp::Update, ints({1, 10}), ints({1, 11}), true),  // key kept: REPLACE
            change(safe, RowOp::Update, ints({2, 20}), ints({5, 50}), true),  // key moved: DELETE + REPLACE
            change(safe, RowOp::Delete, ints({3, 30}), {}, true),
        };
        WorkerPool pool(poolSettings(4, 50, std::chrono::milliseconds(5), true));
        for (int round = 0; round < 2; ++round) {
            for (const auto& c : changes) {
                QVERIFY(pool.dispatch(c));
            }
            auto result = pool.barrier();
            QVERIFY2(result.ok(), result.failure ? result.failure->describe().c_str() : "");
            std::vector<std::vector<std::string>> expected{{"1", "11"}, {"5", "50"}};
            QCOMPARE(rows("SELECT id, v FROM " + quoteTableName("safe") + " ORDER BY id"), expected);
        }
    }

    void orderPerRowHoldsAcrossFourWorkers() {
        exec("CREATE TABLE " + quoteTableName("ordered") + " (id INT PRIMARY KEY, v INT NOT NULL)");
        auto schema = loadJudged("ordered");  // batches reorder by key and merge updates
        QVERIFY(schema->rowKeyIsOnlyUniqueIndex());
        constexpr int kRows = 500;
        constexpr int kChanges = 10000;
        std::mt19937 random(4711);
        std::map<long, long> current;
        std::vector<long> freed;  // ids of deleted rows
        WorkerPool pool(poolSettings(4, 64, std::chrono::milliseconds(5), true));
        for (long id = 0; id < kRows; ++id) {
            QVERIFY(pool.dispatch(change(schema, RowOp::Insert, {}, ints({id, 0}))));
            current[id] = 0;
        }
        for (int step = kRows; step < kChanges; ++step) {
            auto it = current.begin();
            std::advance(it, random() % current.size());
            long id = it->first;
            long v = it->second;
            int kind = static_cast<int>(random() % 20);
            if (kind == 0) {
                // Move the row to the key of a row deleted a moment ago (likely still held by another
                // worker: a conflict), else to a fresh key. Old and new key are in one change.
                long newId = kRows + step;
                if (!freed.empty()) {
                    newId = freed.back();
                    freed.pop_back();
                }
                QVERIFY(pool.dispatch(change(schema, RowOp::Update, ints({id, v}), ints({newId, step}))));
                current.erase(it);
                current[newId] = step;
            } else if (kind == 1 && current.size() > kRows / 2) {
                QVERIFY(pool.dispatch(change(schema, RowOp::Delete, ints({id, v}), {})));
                freed.push_back(id);
                current.erase(it);
            } else {
                QVERIFY(pool.dispatch(change(schema, RowOp::Update, ints({id, v}), ints({id, step}))));
                it->second = step;
            }
        }
        QVERIFY(appliedAsModel(pool, "ordered", current));
        auto counters = pool.counters();
        QCOMPARE(counters.rowsApplied, uint64_t(kChanges));
        QVERIFY(counters.conflicts > 0);  // the moves onto freed keys crossed workers
        for (auto depth : counters.queueDepths) {
            QCOMPARE(depth, uint64_t(0));
        }
        qInfo("4 workers: %llu transactions, %llu conflicts, %llu barriers",
              static_cast<unsigned long long>(counters.transactionsCommitted),
              static_cast<unsigned long long>(counters.conflicts), static_cast<unsigned long long>(counters.barriers));
    }

    // Batches of a table whose only unique index is its key are reordered by key and merge updates into
    // INSERT ... ON DUPLICATE KEY UPDATE: the rows must end exactly as applying the changes one by one
    // would leave them, with few keys so that one key changes many times inside a batch.
    void reorderedBatchesEndAsTheChangesInOrder() {
        exec("CREATE TABLE " + quoteTableName("rounds") + " (id INT PRIMARY KEY, v INT NOT NULL, k INT, KEY (k))");
        auto schema = loadJudged("rounds");
        QVERIFY(schema->rowKeyIsOnlyUniqueIndex());
        std::mt19937 random(90210);
        std::map<long, long> current;
        WorkerPool pool(poolSettings(2, 100, std::chrono::milliseconds(5), true));
        for (int step = 1; step <= 6000; ++step) {
            long id = static_cast<long>(random() % 40);
            auto it = current.find(id);
            if (it == current.end()) {
                QVERIFY(pool.dispatch(change(schema, RowOp::Insert, {}, ints({id, step, id}))));
                current[id] = step;
            } else if (random() % 4 == 0) {
                QVERIFY(pool.dispatch(change(schema, RowOp::Delete, ints({id, it->second, id}), {})));
                current.erase(it);
            } else {
                QVERIFY(pool.dispatch(change(schema, RowOp::Update, ints({id, it->second, id}), ints({id, step, id}))));
                it->second = step;
            }
        }
        QVERIFY(appliedAsModel(pool, "rounds", current));
    }

    // A second unique index downstream: moving an update after an insert would collide on it (the
    // update frees u = 1 that the insert takes). Such a table is never upserted, and reordered only by
    // conflict rounds over every unique value: the insert taking u = 1 is a round after the update freeing it.
    void aSecondUniqueIndexKeepsTheBatchInItsOrder() {
        exec("CREATE TABLE " + quoteTableName("two keys") + " (id INT PRIMARY KEY, u INT NOT NULL, UNIQUE KEY (u))");
        exec("INSERT INTO " + quoteTableName("two keys") + " VALUES (1, 1), (2, 2)");
        auto schema = loadJudged("two keys");
        QVERIFY(!schema->rowKeyIsOnlyUniqueIndex());
        auto applyBatch = [&](const std::shared_ptr<const schema::TableSchema>& table) {
            WorkerPool pool(poolSettings(1, 1000, std::chrono::seconds(30), true));
            pool.dispatch(change(table, RowOp::Update, ints({1, 1}), ints({1, 10})));
            pool.dispatch(change(table, RowOp::Update, ints({2, 2}), ints({2, 20})));
            pool.dispatch(change(table, RowOp::Insert, {}, ints({3, 1})));
            pool.dispatch(change(table, RowOp::Insert, {}, ints({4, 2})));
            return pool.barrier();
        };
        // Why the guard matters: judged as if the primary key were the only unique index (so u is no
        // causality key either), the inserts go first and collide on u (and nothing of the batch commits).
        schema::TableSchema misjudged(schema->name(), schema->columns(), schema->primaryKey(), {}, schema->origin());
        misjudged.setDownstreamUniqueIndexes({{"id"}});
        misjudged.judgeRowKeyAgainst(misjudged);
        auto wrong = applyBatch(std::make_shared<const schema::TableSchema>(misjudged));
        QVERIFY(!wrong.ok());
        QCOMPARE(wrong.failure->code, 1062);
        QCOMPARE(count("two keys"), 2L);

        auto result = applyBatch(schema);
        QVERIFY2(result.ok(), result.failure ? result.failure->describe().c_str() : "");
        QCOMPARE(rows("SELECT id, u FROM " + quoteTableName("two keys") + " ORDER BY id"),
                 (std::vector<std::vector<std::string>>{{"1", "10"}, {"2", "20"}, {"3", "1"}, {"4", "2"}}));
    }

    // A NOT NULL column without default that only the downstream has: INSERT ... ON DUPLICATE KEY UPDATE
    // fails on it (1364) even for rows that exist, a plain UPDATE does not; such a table keeps UPDATEs,
    // and so does a table with a trigger.
    void aColumnOnlyTheDownstreamHasKeepsPlainUpdates() {
        exec("CREATE TABLE " + quoteTableName("extra") + " (id INT PRIMARY KEY, v INT, own INT NOT NULL)");
        exec("INSERT INTO " + quoteTableName("extra") + " VALUES (1, 0, 7), (2, 0, 7), (3, 0, 7)");
        auto downstream = load("extra");
        std::vector<schema::SchemaColumn> upstreamColumns{downstream->columns()[0], downstream->columns()[1]};
        schema::TableSchema upstream(downstream->name(), upstreamColumns, {0}, {}, schema::SchemaOrigin::TableMap);
        upstream.judgeRowKeyAgainst(*downstream);
        QVERIFY(!upstream.rowKeyIsOnlyUniqueIndex());
        auto applyUpdates = [&](const schema::TableSchema& table, long value) {
            auto shared = std::make_shared<const schema::TableSchema>(table);
            WorkerPool pool(poolSettings(1, 1000, std::chrono::seconds(30), true));
            for (long id = 1; id <= 3; ++id) {
                pool.dispatch(change(shared, RowOp::Update, ints({id, 0}), ints({id, value})));
            }
            return pool.barrier();
        };
        schema::TableSchema misjudged = upstream;
        schema::TableSchema sameColumns(downstream->name(), upstreamColumns, {0}, {}, schema::SchemaOrigin::Downstream);
        sameColumns.setDownstreamUniqueIndexes({{"id"}});
        misjudged.judgeRowKeyAgainst(sameColumns);
        QVERIFY(misjudged.rowKeyIsOnlyUniqueIndex());
        auto wrong = applyUpdates(misjudged, 5);
        QVERIFY(!wrong.ok());
        QCOMPARE(wrong.failure->code, 1364);

        // A trigger downstream (an upsert would fire INSERT triggers too) also keeps plain statements.
        exec("CREATE TABLE " + quoteTableName("with trigger") + " (id INT PRIMARY KEY, v INT)");
        exec("CREATE TRIGGER " + quoteTableName("audit") + " BEFORE INSERT ON " + quoteTableName("with trigger") +
             " FOR EACH ROW SET NEW.v = NEW.v");
        QVERIFY(!loadJudged("with trigger")->rowKeyIsOnlyUniqueIndex());
        exec("DROP TRIGGER " + quoteTableName("audit"));
        QVERIFY(loadJudged("with trigger")->rowKeyIsOnlyUniqueIndex());

        auto result = applyUpdates(upstream, 9);
        QVERIFY2(result.ok(), result.failure ? result.failure->describe().c_str() : "");
        QCOMPARE(rows("SELECT id, v, own FROM " + quoteTableName("extra") + " ORDER BY id"),
                 (std::vector<std::vector<std::string>>{{"1", "9", "7"}, {"2", "9", "7"}, {"3", "9", "7"}}));
    }

    // Rows keyed 0 in an AUTO_INCREMENT column (legal upstream under NO_AUTO_VALUE_ON_ZERO) keep key 0,
    // inserted and updated (the updates merged into INSERT ... ON DUPLICATE KEY UPDATE).
    void anAutoIncrementKeyOfZeroStaysZero() {
        exec("CREATE TABLE " + quoteTableName("zero") + " (id INT AUTO_INCREMENT PRIMARY KEY, v INT NOT NULL)");
        auto schema = loadJudged("zero");
        QVERIFY(schema->rowKeyIsOnlyUniqueIndex());
        WorkerPool pool(poolSettings(1, 1000, std::chrono::seconds(30), true));
        QVERIFY(pool.dispatch(change(schema, RowOp::Insert, {}, ints({0, 1}))));
        QVERIFY(pool.dispatch(change(schema, RowOp::Insert, {}, ints({7, 1}))));
        QVERIFY(pool.dispatch(change(schema, RowOp::Update, ints({0, 1}), ints({0, 2}))));
        QVERIFY(pool.dispatch(change(schema, RowOp::Update, ints({7, 1}), ints({7, 2}))));
        auto result = pool.barrier();
        QVERIFY2(result.ok(), result.failure ? result.failure->describe().c_str() : "");
        QCOMPARE(rows("SELECT id, v FROM " + quoteTableName("zero") + " ORDER BY id"),
                 (std::vector<std::vector<std::string>>{{"0", "2"}, {"7", "2"}}));
    }

    void failingRowInTheMiddleOfABatchIsNamedAndNothingCommits() {
        exec("CREATE TABLE " + quoteTableName("test1") + " (c INT PRIMARY KEY, c2 INT, c3 INT)");
        auto downstream = load("test1");
        // The upstream gained c4 (ALTER TABLE test1 ADD c4 INT), the downstream did not.
        std::vector<schema::SchemaColumn> upstreamColumns = downstream->columns();
        upstreamColumns.push_back({"c4", binlog::ColumnType::Long, "int", false, true});
        auto upstream = std::make_shared<const schema::TableSchema>(
            downstream->name(), upstreamColumns, downstream->primaryKey(), std::vector<schema::UniqueKey>{},
            schema::SchemaOrigin::TableMap);
        // One batch: nothing commits before barrier() (long idle tick, batch larger than the rows).
        WorkerPool pool(poolSettings(1, 1000, std::chrono::seconds(30), true));
        for (long c = 1; c <= 5; ++c) {
            QVERIFY(pool.dispatch(change(downstream, RowOp::Insert, {}, ints({c, c, c}), false, 1000 + c)));
        }
        QVERIFY(pool.dispatch(change(upstream, RowOp::Insert, {}, ints({6, 6, 6, 66}), false, 1006)));
        for (long c = 7; c <= 9; ++c) {
            QVERIFY(pool.dispatch(change(downstream, RowOp::Insert, {}, ints({c, c, c}), false, 1000 + c)));
        }
        auto result = pool.barrier();
        QVERIFY(!result.ok());
        const ApplyFailure& failure = *result.failure;
        QCOMPARE(failure.code, 1054);
        QVERIFY(failure.rowIdentified);
        QCOMPARE(failure.errorClass, ErrorClass::NeedsDba);
        QCOMPARE(failure.change.source().pos, uint64_t(1006));
        QCOMPARE(failure.change.source().gtid, std::string("0-1-1006"));
        QCOMPARE(failure.change.after, ints({6, 6, 6, 66}));
        QVERIFY2(failure.sql.find("`c4`") != std::string::npos, failure.sql.c_str());
        QVERIFY2(failure.sql.find("66") != std::string::npos, failure.sql.c_str());
        QVERIFY2(failure.message.find("c4") != std::string::npos, failure.message.c_str());
        QVERIFY2(failure.describe().find("mysql-bin.000007:1006") != std::string::npos, failure.describe().c_str());
        QCOMPARE(count("test1"), 0L);  // the rows before and after it are not committed either

        // The pool refuses work until it is reset, and keeps saying why.
        QVERIFY(!pool.dispatch(change(downstream, RowOp::Insert, {}, ints({10, 10, 10}))));
        QVERIFY(!pool.barrier().ok());
        QCOMPARE(pool.errorCount(), uint64_t(1));
        QCOMPARE(count("test1"), 0L);

        // Once the DBA adds the column downstream, a reset pool applies the same rows.
        exec("ALTER TABLE " + quoteTableName("test1") + " ADD c4 INT");
        pool.reset();
        QVERIFY(pool.dispatch(change(upstream, RowOp::Insert, {}, ints({6, 6, 6, 66}))));
        QVERIFY(pool.barrier().ok());
        QCOMPARE(rows("SELECT c4 FROM " + quoteTableName("test1") + " WHERE c = 6"),
                 (std::vector<std::vector<std::string>>{{"66"}}));
        QCOMPARE(pool.errorCount(), uint64_t(1));
    }

    void failingRowInsideAMultiRowInsertIsFoundByReplay() {
        exec("CREATE TABLE " + quoteTableName("dup") + " (id INT PRIMARY KEY, v INT)");
        exec("INSERT INTO " + quoteTableName("dup") + " VALUES (3, 0)");
        auto schema = load("dup");
        WorkerPool pool(poolSettings(1, 1000, std::chrono::seconds(30), true));
        for (long id = 1; id <= 5; ++id) {
            QVERIFY(pool.dispatch(change(schema, RowOp::Insert, {}, ints({id, id * 10}), false, 2000 + id)));
        }
        auto result = pool.barrier();
        QVERIFY(!result.ok());
        QCOMPARE(result.failure->code, 1062);
        QVERIFY(result.failure->rowIdentified);
        QCOMPARE(result.failure->change.after, ints({3, 30}));
        QCOMPARE(result.failure->change.source().pos, uint64_t(2003));
        // The failing statement is the single-row replay of row 3, not the merged one.
        QVERIFY2(result.failure->sql.find("VALUES (?, ?) /*") != std::string::npos, result.failure->sql.c_str());
        QCOMPARE(count("dup"), 1L);  // only the row that was there before
    }

    void barrierReturnsOnlyAfterTheRowsAreCommitted() {
        exec("CREATE TABLE " + quoteTableName("barrier") + " (id INT PRIMARY KEY)");
        auto schema = load("barrier");
        WorkerPool pool(poolSettings(4, 1000, std::chrono::seconds(30), true));
        for (long id = 1; id <= 40; ++id) {
            QVERIFY(pool.dispatch(change(schema, RowOp::Insert, {}, ints({id}))));
        }
        QTest::qWait(200);
        QCOMPARE(count("barrier"), 0L);  // batches are open, nothing committed yet
        QVERIFY(pool.barrier().ok());
        QCOMPARE(count("barrier"), 40L);  // seen from another connection the moment barrier() returns
        QVERIFY(pool.counters().transactionsCommitted <= 4);  // one transaction per worker that had rows
    }

    // Workers holding a partial batch are not woken for each row: the rows must still commit at the
    // idle tick with nothing more arriving, a steady trickle must commit by the batch's age (in a few
    // transactions), and a full queue must wake them.
    void partialBatchesCommitAtTheIdleTickAndAFullQueueWakesTheWorker() {
        exec("CREATE TABLE " + quoteTableName("trickle") + " (id INT PRIMARY KEY)");
        auto schema = loadJudged("trickle");
        auto waitForCount = [&](long want) {
            for (int i = 0; i < 300 && count("trickle") != want; ++i) {
                QTest::qWait(10);
            }
            return count("trickle");
        };
        {
            WorkerPoolSettings settings = poolSettings(1, 1000, std::chrono::milliseconds(50), true);
            settings.worker.maxBatchAge = std::chrono::milliseconds(400);
            WorkerPool pool(settings);
            for (long id = 1; id <= 3; ++id) {
                QVERIFY(pool.dispatch(change(schema, RowOp::Insert, {}, ints({id}))));
            }
            QCOMPARE(waitForCount(3), 3L);  // no barrier: the idle tick committed them
            QCOMPARE(pool.counters().transactionsCommitted, uint64_t(1));
            // A row every 10 ms never leaves the worker idle for 50 ms: the batch age (400 ms) commits them,
            // a few transactions (committing 50 ms after a batch's first row would take about 11).
            for (long id = 4; id <= 53; ++id) {
                QVERIFY(pool.dispatch(change(schema, RowOp::Insert, {}, ints({id}))));
                QTest::qWait(10);
            }
            QCOMPARE(waitForCount(53), 53L);
            uint64_t trickleTransactions = pool.counters().transactionsCommitted - 1;
            qInfo("50 rows 10 ms apart: %llu transactions", static_cast<unsigned long long>(trickleTransactions));
            QVERIFY2(trickleTransactions >= 1 && trickleTransactions <= 6, std::to_string(trickleTransactions).c_str());
        }
        {
            WorkerPoolSettings settings = poolSettings(1, 1000, std::chrono::seconds(60), true);
            settings.worker.queueCapacity = 4;
            WorkerPool pool(settings);
            QElapsedTimer timer;
            timer.start();
            for (long id = 100; id < 200; ++id) {
                QVERIFY(pool.dispatch(change(schema, RowOp::Insert, {}, ints({id}))));
            }
            // Without the wake the producer would wait for the 60 s idle tick at every full queue.
            QVERIFY2(timer.elapsed() < 30000, std::to_string(timer.elapsed()).c_str());
            QVERIFY(pool.barrier().ok());
            QCOMPARE(count("trickle"), 153L);
        }
    }

    void throughputOfSingleRowInsertsIsReported() {
        exec("CREATE TABLE " + quoteTableName("sbtest") +
             " (id INT PRIMARY KEY, k INT NOT NULL, c CHAR(120) NOT NULL, pad CHAR(60) NOT NULL, KEY k (k))");
        auto schema = load("sbtest");
        constexpr long kRows = 20000;
        const std::string c(119, 'c');
        const std::string pad(59, 'p');
        WorkerPool pool(poolSettings(4, 100, std::chrono::milliseconds(10), true));
        QElapsedTimer timer;
        timer.start();
        for (long id = 1; id <= kRows; ++id) {
            QVERIFY(pool.dispatch(change(
                schema, RowOp::Insert, {},
                {SqlValue::signedInt(id), SqlValue::signedInt(id % 1000), SqlValue::text(c), SqlValue::text(pad)})));
        }
        QVERIFY(pool.barrier().ok());
        double seconds = double(timer.elapsed()) / 1000.0;
        QCOMPARE(count("sbtest"), kRows);
        qInfo("%ld single-row inserts over 4 workers (batch 100, multiple-rows): %.2f s, %.0f rows/s", kRows, seconds,
              double(kRows) / seconds);
    }

    // Many multi-row shapes (a worker's cache of prepared statements is what a long catch-up with 16
    // workers kept in memory: 12 MB each): the cache keeps the recent ones within its parameter bound,
    // and a statement evicted and prepared again still writes its rows.
    void statementCacheStaysWithinItsParameterBound() {
        exec("CREATE TABLE " + quoteTableName("shapes") + " (id INT PRIMARY KEY, a INT, b INT, c INT)");
        DmlExecutor executor(connectDownstreamNative(toSettings(test::downstreamRoot())));
        constexpr size_t kColumns = 4;
        constexpr size_t kShapes = 120;  // 1..120 rows: 29,040 parameters in all, over the bound
        std::vector<SqlValue> values;
        values.reserve(kShapes * kColumns);
        long nextId = 0;
        auto run = [&](size_t rowsInStatement) {
            DmlStatement statement;
            statement.sql = "INSERT INTO " + quoteTableName("shapes") + " (id, a, b, c) VALUES ";
            values.clear();
            for (size_t row = 0; row < rowsInStatement; ++row) {
                statement.sql += row == 0 ? "(?, ?, ?, ?)" : ", (?, ?, ?, ?)";
                values.push_back(SqlValue::signedInt(++nextId));
                for (size_t column = 1; column < kColumns; ++column) {
                    values.push_back(SqlValue::signedInt(nextId * 10 + long(column)));
                }
            }
            for (const SqlValue& value : values) {
                statement.params.push_back(&value);
            }
            QCOMPARE(executor.execute(statement), uint64_t(rowsInStatement));
            QVERIFY2(executor.cachedParameters() <= DmlExecutor::kStatementCacheParameters ||
                         executor.cachedStatements() == 1,
                     qPrintable(QString("%1 parameters in %2 cached statements")
                                    .arg(executor.cachedParameters())
                                    .arg(executor.cachedStatements())));
        };
        for (size_t shape = 1; shape <= kShapes; ++shape) {
            run(shape);
        }
        QVERIFY(executor.cachedStatements() < kShapes);
        run(1);  // evicted long ago: prepared again
        executor.commit();
        long expected = long(kShapes * (kShapes + 1) / 2 + 1);
        QCOMPARE(count("shapes"), expected);
        QCOMPARE(rows("SELECT SUM(a) FROM " + quoteTableName("shapes")).at(0).at(0),
                 std::to_string(10 * expected * (expected + 1) / 2 + expected));
    }

    // The pipelined path (a batch's statements sent without waiting for each answer, merged groups bound
    // as arrays of rows) against the multi-row statements run one by one: random batches of inserts, updates (key moves
    // too), deletes and safe-mode writes over every bind form (signed and unsigned extremes, doubles, DECIMAL and
    // DATETIME text, unicode text, bytes with NUL and 0xFF, NULL) into two tables of one structure. Each batch must
    // report the same affected rows on both and leave the same rows; the pipelined batch takes one
    // round trip besides its PREPAREs and COMMIT.
    void aPipelinedBatchLeavesTheRowsOfStatementByStatement() {
        const std::string columns =
            " (id INT PRIMARY KEY, u BIGINT UNSIGNED, s BIGINT, d DOUBLE, m DECIMAL(30,6), t VARCHAR(40) "
            "CHARACTER SET utf8mb4, b VARBINARY(40), w DATETIME(6), n INT NULL, UNIQUE KEY (t))";
        exec("CREATE TABLE " + quoteTableName("piped") + columns);
        exec("CREATE TABLE " + quoteTableName("stepped") + columns);
        auto piped = loadJudged("piped");
        auto stepped = loadJudged("stepped");
        DmlExecutor pipe(connectDownstreamNative(toSettings(test::downstreamRoot())));
        DmlExecutor step(connectDownstreamNative(toSettings(test::downstreamRoot())));
        const DmlBuilder builder(true, DmlBuilder::kDefaultMaxRowsPerStatement, false, true);
        std::mt19937_64 random(20261206);
        auto pick = [&](uint64_t n) { return random() % n; };
        const std::vector<std::string> texts{"plain", "ünïcödé", "数据表", "quote ' and \\ back", "", "😀 emoji"};
        auto image = [&](long id) {
            std::vector<SqlValue> row;
            row.push_back(SqlValue::signedInt(id));
            row.push_back(pick(5) == 0 ? SqlValue::unsignedInt(UINT64_MAX) : SqlValue::unsignedInt(random()));
            row.push_back(pick(5) == 0 ? SqlValue::signedInt(INT64_MIN) : SqlValue::signedInt(int64_t(random())));
            row.push_back(SqlValue::real(double(int64_t(random() % 2000000) - 1000000) / 64.0));
            row.push_back(SqlValue::text(std::to_string(int64_t(random() % 100000000) - 50000000) + "." +
                                         std::to_string(100000 + pick(900000))));
            // t is unique: the id keeps it apart from every other row's.
            row.push_back(SqlValue::text(texts[pick(texts.size())] + "#" + std::to_string(id)));
            std::string bytes(pick(12), '\0');  // empty now and then
            for (char& c : bytes) {
                c = static_cast<char>(pick(4) == 0 ? 0xFF : pick(3) == 0 ? 0 : pick(256));
            }
            row.push_back(SqlValue::bytes(bytes));
            row.push_back(SqlValue::text("20" + std::to_string(10 + pick(20)) + "-0" + std::to_string(1 + pick(9)) +
                                         "-1" + std::to_string(pick(10)) + " 12:34:56." +
                                         std::to_string(100000 + pick(900000))));
            row.push_back(pick(3) == 0 ? SqlValue::null() : SqlValue::signedInt(long(pick(1000)) - 500));
            return row;
        };
        std::map<long, std::vector<SqlValue>> model;  // id -> the row upstream
        std::vector<uint64_t> pipedAffected;
        uint64_t pipedTrips = 0;
        uint64_t steppedTrips = 0;
        uint64_t statementsSent = 0;
        uint64_t arrays = 0;
        QVERIFY(pipe.takesArrays());  // MariaDB: merged groups go as one row's statement over arrays of rows
        constexpr int kBatches = 60;
        constexpr int kChangesPerBatch = 100;
        for (int batch = 0; batch < kBatches; ++batch) {
            std::vector<RowChange> forPipe;
            std::vector<RowChange> forStep;
            const bool safe = batch % 7 == 3;  // now and then a replayed stretch: upserts and REPLACEs
            for (int i = 0; i < kChangesPerBatch; ++i) {
                long id = long(pick(300));
                auto row = model.find(id);
                RowOp op = row == model.end() ? RowOp::Insert : pick(3) == 0 ? RowOp::Delete : RowOp::Update;
                std::vector<SqlValue> before = row == model.end() ? std::vector<SqlValue>() : row->second;
                std::vector<SqlValue> after;
                if (op == RowOp::Update && pick(6) == 0 && model.count(id + 1000) == 0) {
                    after = image(id + 1000);  // the key moves
                    model.erase(id);
                    model[id + 1000] = after;
                } else if (op != RowOp::Delete) {
                    after = image(id);
                    model[id] = after;
                } else {
                    model.erase(id);
                }
                uint64_t pos = uint64_t(batch * kChangesPerBatch + i + 1);
                forPipe.push_back(change(piped, op, before, after, safe, pos));
                forStep.push_back(change(stepped, op, before, after, safe, pos));
            }
            std::vector<DmlStatement> pipeStatements = builder.build(forPipe, pipe.takesArrays());
            std::vector<DmlStatement> stepStatements = builder.build(forStep);
            QCOMPARE(pipeStatements.size(), stepStatements.size());
            statementsSent += pipeStatements.size();
            for (const DmlStatement& statement : pipeStatements) {
                arrays += statement.arrayRows > 1 ? 1 : 0;
            }

            uint64_t tripsBefore = pipe.roundTrips();
            size_t cachedBefore = pipe.cachedStatements();
            pipe.executeAll(pipeStatements, pipedAffected);
            QCOMPARE(pipedAffected.size(), pipeStatements.size());
            pipe.commit();
            size_t prepares = pipe.cachedStatements() - cachedBefore;  // the cache never fills here
            // One round trip for the statements (each PREPARE also waits for its answer), one for COMMIT.
            QVERIFY2(pipe.roundTrips() - tripsBefore <= 2 + 2 * prepares,
                     qPrintable(QString("batch %1: %2 round trips for %3 statements, %4 prepared")
                                    .arg(batch)
                                    .arg(pipe.roundTrips() - tripsBefore)
                                    .arg(pipeStatements.size())
                                    .arg(prepares)));
            pipedTrips += pipe.roundTrips() - tripsBefore;

            tripsBefore = step.roundTrips();
            for (size_t i = 0; i < stepStatements.size(); ++i) {
                uint64_t affected = step.execute(stepStatements[i]);
                QVERIFY2(affected == pipedAffected[i],
                         qPrintable(QString("batch %1, statement %2 (%3): %4 rows one by one, %5 pipelined")
                                        .arg(batch)
                                        .arg(i)
                                        .arg(QString::fromStdString(stepStatements[i].sql.substr(0, 60)))
                                        .arg(affected)
                                        .arg(pipedAffected[i])));
            }
            step.commit();
            steppedTrips += step.roundTrips() - tripsBefore;

            const std::string select = "SELECT id, u, s, d, m, HEX(t), HEX(b), w, IFNULL(n, 'NULL') FROM " +
                                       quoteTableName("%") + " ORDER BY id";
            auto read = [&](const std::string& table) {
                std::string sql = select;
                sql.replace(sql.find(quoteTableName("%")), quoteTableName("%").size(), quoteTableName(table));
                return rows(sql);
            };
            auto pipedRows = read("piped");
            QCOMPARE(pipedRows, read("stepped"));
            QCOMPARE(pipedRows.size(), model.size());
        }
        qInfo(
            "%d batches, %llu statements (%llu bound as arrays): %llu round trips pipelined (PREPAREs and "
            "COMMITs included), %llu one by one",
            kBatches, static_cast<unsigned long long>(statementsSent), static_cast<unsigned long long>(arrays),
            static_cast<unsigned long long>(pipedTrips), static_cast<unsigned long long>(steppedTrips));
        QVERIFY(arrays > 0);
        QVERIFY(pipedTrips < steppedTrips);
    }

    // A statement that fails in the middle of a pipelined batch is the one named, every answer after it is
    // read (the session stays usable), and after the rollback nothing of the batch is there.
    void aFailureInsideAPipelinedBatchNamesItsStatementAndKeepsTheSession() {
        exec("CREATE TABLE " + quoteTableName("pipefail") + " (id INT PRIMARY KEY, v INT)");
        exec("INSERT INTO " + quoteTableName("pipefail") + " VALUES (50, 0)");
        auto schema = load("pipefail");
        DmlExecutor executor(connectDownstreamNative(toSettings(test::downstreamRoot())));
        const DmlBuilder oneByOne(false);
        std::vector<RowChange> changes;
        for (long id = 1; id <= 60; ++id) {
            changes.push_back(change(schema, RowOp::Insert, {}, ints({id, id * 10}), false, uint64_t(id)));
        }
        std::vector<DmlStatement> statements = oneByOne.build(changes);
        QCOMPARE(statements.size(), size_t(60));
        std::vector<uint64_t> affected;
        try {
            executor.executeAll(statements, affected);
            QFAIL("a duplicate key inside the batch was not reported");
        } catch (const DownstreamError& e) {
            QCOMPARE(e.code(), 1062);
            QVERIFY2(e.sql().find("50, 500") != std::string::npos, e.sql().c_str());  // the 50th statement's values
        }
        executor.rollback();
        QCOMPARE(count("pipefail"), 1L);
        // The next batch on the same session runs and commits.
        changes.erase(changes.begin() + 49);
        statements = oneByOne.build(changes);
        executor.executeAll(statements, affected);
        executor.commit();
        QCOMPARE(affected, std::vector<uint64_t>(59, 1));
        QCOMPARE(count("pipefail"), 60L);

        // Rows bound as arrays whose column mixes forms (a number here, text there) go one row at a time.
        DmlStatement mixed;
        mixed.sql = "INSERT INTO " + quoteTableName("pipefail") + " (id, v) VALUES (?, ?)";
        const std::vector<SqlValue> values{SqlValue::signedInt(100), SqlValue::signedInt(1), SqlValue::signedInt(101),
                                           SqlValue::text("2")};
        for (const SqlValue& value : values) {
            mixed.params.push_back(&value);
        }
        mixed.arrayRows = 2;
        executor.executeAll(std::span<const DmlStatement>(&mixed, 1), affected);
        executor.commit();
        QCOMPARE(affected, std::vector<uint64_t>{2});
        QCOMPARE(rows("SELECT v FROM " + quoteTableName("pipefail") + " WHERE id >= 100 ORDER BY id"),
                 (std::vector<std::vector<std::string>>{{"1"}, {"2"}}));
    }

    // A worker waits once for all of a batch's answers, by the bytes each statement shape answered with
    // before. A shape that answers shorter than it did (an UPDATE whose answers said "Rows matched: ..." fails
    // on a trigger's one-letter SIGNAL) ends that wait at its time limit, and every answer is still read: the
    // error names its statement, nothing of the batch stays, and the session goes on.
    void aStatementAnsweringShorterThanBeforeEndsTheWaitAndEveryAnswerIsRead() {
        exec("CREATE TABLE " + quoteTableName("pipeshort") + " (id INT PRIMARY KEY, v INT)");
        exec("CREATE TRIGGER " + quoteTableName("pipeshort_refuses") + " BEFORE UPDATE ON " +
             quoteTableName("pipeshort") +
             " FOR EACH ROW IF NEW.v < 0 THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'x'; END IF");
        exec("INSERT INTO " + quoteTableName("pipeshort") + " VALUES (1, 0), (2, 0), (3, 0), (4, 0), (5, 0)");
        auto schema = load("pipeshort");
        DmlExecutor executor(connectDownstreamNative(toSettings(test::downstreamRoot())));
        const DmlBuilder oneByOne(false);
        std::vector<RowChange> changes;
        auto updates = [&](long from, long to, long refusedId) {
            changes.clear();
            for (long id = 1; id <= 5; ++id) {
                changes.push_back(change(schema, RowOp::Update, ints({id, from}), ints({id, id == refusedId ? -1 : to}),
                                         false, uint64_t(id)));
            }
            return oneByOne.build(changes);
        };
        auto values = [&] { return rows("SELECT GROUP_CONCAT(v ORDER BY id) FROM " + quoteTableName("pipeshort")); };
        std::vector<uint64_t> affected;
        for (long round = 1; round <= 3; ++round) {  // the shape's answers are learned
            std::vector<DmlStatement> statements = updates(round - 1, round, 0);
            executor.executeAll(statements, affected);
            executor.commit();
            QCOMPARE(affected, std::vector<uint64_t>(5, 1));
        }
        QCOMPARE(values(), (std::vector<std::vector<std::string>>{{"3,3,3,3,3"}}));
        const uint64_t cutBefore = executor.answerWaitsCut();
        std::vector<DmlStatement> refused = updates(3, 4, 5);
        try {
            executor.executeAll(refused, affected);
            QFAIL("the trigger's SIGNAL on the last statement was not reported");
        } catch (const DownstreamError& e) {
            QCOMPARE(e.code(), 1644);                                            // ER_SIGNAL_EXCEPTION
            QVERIFY2(e.sql().find("-1") != std::string::npos, e.sql().c_str());  // the refused row's statement
        }
        QVERIFY2(executor.answerWaitsCut() > cutBefore, "the batch's wait for its answers did not end at its limit");
        executor.rollback();
        QCOMPARE(values(), (std::vector<std::vector<std::string>>{{"3,3,3,3,3"}}));
        std::vector<DmlStatement> next = updates(3, 7, 0);
        executor.executeAll(next, affected);
        executor.commit();
        QCOMPARE(affected, std::vector<uint64_t>(5, 1));
        QCOMPARE(values(), (std::vector<std::vector<std::string>>{{"7,7,7,7,7"}}));
    }

    // What adaptive concurrency weighs besides rows/s: the downstream's purge backlog. A read view held open
    // elsewhere keeps the purge from cleaning up, so every transaction committed meanwhile stays in it; a user
    // with no privilege beyond its database's still reads it (MariaDB's status variable).
    void thePurgeBacklogIsReadAndGrowsWhileAReadViewHoldsThePurge() {
        exec("CREATE TABLE " + quoteTableName("purged") + " (id INT PRIMARY KEY, v INT) ENGINE=InnoDB");
        exec("INSERT INTO " + quoteTableName("purged") + " VALUES (1, 0)");
        exec("DROP USER IF EXISTS 'syncscope_purge'@'127.0.0.1'");
        exec("CREATE USER 'syncscope_purge'@'127.0.0.1' IDENTIFIED BY 'purge-pw-4711'");
        exec("GRANT SELECT, INSERT, UPDATE, DELETE ON " + quoteName(kDatabase) + ".* TO 'syncscope_purge'@'127.0.0.1'");
        auto limited = toSettings(test::downstreamRoot());
        limited.user = "syncscope_purge";
        limited.password = "purge-pw-4711";
        DmlExecutor executor(connectDownstreamNative(limited));
        std::optional<uint64_t> before = executor.readPurgeBacklog();
        QVERIFY2(before.has_value(), "the purge backlog was not read as a user without PROCESS");

        auto holder = connectDownstream(toSettings(test::downstreamRoot()));
        std::unique_ptr<sql::Statement> hold(holder->createStatement());
        hold->execute("START TRANSACTION WITH CONSISTENT SNAPSHOT");
        std::unique_ptr<sql::ResultSet>(hold->executeQuery("SELECT COUNT(*) FROM " + quoteTableName("purged")));
        auto schema = load("purged");
        constexpr long kCommits = 40;
        const DmlBuilder oneByOne(false);
        for (long v = 1; v <= kCommits; ++v) {
            std::vector<RowChange> update{change(schema, RowOp::Update, ints({1, v - 1}), ints({1, v}), false, 1)};
            executor.execute(oneByOne.build(update).at(0));
            executor.commit();
        }
        std::optional<uint64_t> held = executor.readPurgeBacklog();
        hold->execute("COMMIT");
        QVERIFY(held.has_value());
        // Older entries may be purged meanwhile (the read view holds only what was committed after it).
        QVERIFY2(*held >= uint64_t(kCommits),
                 qPrintable(QStringLiteral("history list %1 before, %2 after %3 commits under a held read view")
                                .arg(*before)
                                .arg(*held)
                                .arg(kCommits)));
        exec("DROP USER 'syncscope_purge'@'127.0.0.1'");
    }

    void unreachableDownstreamIsAClearErrorWithoutThePassword() {
        auto settings = poolSettings(1, 10, std::chrono::milliseconds(5), true);
        settings.downstream.password = "wrong-password-0815";
        try {
            WorkerPool pool(settings);
            QFAIL("a pool connected with a wrong password");
        } catch (const DownstreamError& e) {
            QCOMPARE(e.code(), 1045);
            QVERIFY(std::string(e.what()).find("wrong-password-0815") == std::string::npos);
        }
    }
};

QTEST_GUILESS_MAIN(ApplyDownstreamTest)
#include "test_apply_downstream.moc"
