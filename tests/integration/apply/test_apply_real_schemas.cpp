// The apply layer on ordinary schemas against the real downstream of the private pair (issue 10):
// secondary unique keys and collations order changes across workers, safe mode never removes a row the
// upstream still has (keyless tables, foreign keys with cascades), generated columns are left to the
// downstream and rows that match nothing are counted.
#include <QtTest>

#include <cppconn/connection.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

#include <chrono>
#include <optional>
#include <random>
#include <set>
#include <thread>

#include "engine/apply/causality_keys.h"
#include "engine/apply/downstream_connection.h"
#include "engine/apply/quoted_name.h"
#include "engine/apply/worker_pool.h"
#include "engine/schema/downstream_schema_loader.h"
#include "tests/support/test_env.h"

using namespace syncscope;
using namespace syncscope::apply;

namespace {

const char* const kDatabase = "apply real schemas";
constexpr size_t kManyWorkers = 8;
constexpr std::chrono::milliseconds kShortIdle{2};
constexpr std::chrono::milliseconds kPollPause{5};
constexpr int kPollLimit = 2000;  // 10 s of kPollPause

using Rows = std::vector<std::vector<std::string>>;

ServerSettings toSettings(const test::ServerSettings& s) {
    ServerSettings settings;
    settings.host = s.host;
    settings.port = s.port;
    settings.user = s.user;
    settings.password = s.password;
    return settings;
}

WorkerPoolSettings poolSettings(size_t workers, size_t batch = 100, bool multipleRows = true) {
    WorkerPoolSettings settings;
    settings.downstream = toSettings(test::downstreamRoot());
    settings.workerCount = workers;
    settings.worker.batch = batch;
    settings.worker.idleCommit = kShortIdle;
    settings.worker.multipleRows = multipleRows;
    return settings;
}

RowChange change(std::shared_ptr<const schema::TableSchema> table, RowOp op, std::vector<SqlValue> before,
                 std::vector<SqlValue> after, bool safe = false) {
    static uint64_t position = 0;
    ++position;
    RowChange c;
    c.table = std::move(table);
    c.op = op;
    c.before = std::move(before);
    c.after = std::move(after);
    c.safeMode = safe;
    c.setSource({"mysql-bin.000009", position, ""});
    c.transactionSeq = position;
    return c;
}

SqlValue text(const std::string& value) {
    return SqlValue::text(value);
}

SqlValue integer(long value) {
    return SqlValue::signedInt(value);
}

std::string failureText(const BarrierResult& result) {
    return result.failure ? result.failure->describe() : std::string();
}

}  // namespace

class ApplyRealSchemasTest : public QObject {
    Q_OBJECT

    std::unique_ptr<sql::Connection> observer_;

    void exec(const std::string& sql) {
        std::unique_ptr<sql::Statement> statement(observer_->createStatement());
        statement->execute(sql);
    }

    // A connection that holds a lock on row `id` of `table` until it is dropped (or rolled back).
    std::unique_ptr<sql::Connection> lockRow(const std::string& table, long id) {
        auto locker = connectDownstream(toSettings(test::downstreamRoot()));
        locker->setAutoCommit(false);
        std::unique_ptr<sql::Statement> statement(locker->createStatement());
        std::unique_ptr<sql::ResultSet> locked(statement->executeQuery(
            "SELECT * FROM " + name(table) + " WHERE id = " + std::to_string(id) + " FOR UPDATE"));
        while (locked->next()) {
        }
        return locker;
    }

    Rows rows(const std::string& sql) {
        std::unique_ptr<sql::Statement> statement(observer_->createStatement());
        std::unique_ptr<sql::ResultSet> result(statement->executeQuery(sql));
        Rows out;
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

    static std::string name(const std::string& table) { return quoteTable(schema::TableName{kDatabase, table}); }

    void recreate(const std::string& table, const std::string& definition) {
        exec("DROP TABLE IF EXISTS " + name(table));
        exec("CREATE TABLE " + name(table) + " " + definition);
    }

    // parent (id, v) and child (id, parent_id) whose foreign key fk_parent has `actions` (ON DELETE ...).
    void recreateParentAndChild(const std::string& parentIdType, const std::string& actions) {
        exec("DROP TABLE IF EXISTS " + name("child"));
        recreate("parent", "(id INT PRIMARY KEY, v INT)");
        exec("CREATE TABLE " + name("child") + " (id INT PRIMARY KEY, parent_id " + parentIdType +
             ", CONSTRAINT fk_parent FOREIGN KEY (parent_id) REFERENCES " + name("parent") + " (id) " + actions + ")");
    }

    // A safe-mode replay through workers whose sessions run with foreign_key_checks=1, as the upstream's.
    BarrierResult replayWithForeignKeyChecks(std::vector<RowChange> replay) {
        auto settings = poolSettings(kManyWorkers);
        settings.sessionVariables.emplace_back("foreign_key_checks", "1");
        WorkerPool pool(settings);
        for (auto& c : replay) {
            if (!pool.dispatch(std::move(c))) {
                throw Error("the pool refused a replayed change");
            }
        }
        return pool.barrier();
    }

    // As the schema tracker hands it to the workers: the downstream's structure, judged against itself.
    std::shared_ptr<const schema::TableSchema> load(const std::string& table) {
        schema::DownstreamSchemaLoader loader(*observer_);
        auto loaded = loader.load({kDatabase, table});
        if (!loaded) {
            throw Error("test table " + table + " is missing");
        }
        loaded->judgeRowKeyAgainst(*loaded);
        return std::make_shared<const schema::TableSchema>(std::move(*loaded));
    }

    // Two ids of `table` whose changes the dispatcher would put on different workers by row key.
    std::pair<long, long> idsOnDifferentWorkers(const std::shared_ptr<const schema::TableSchema>& table,
                                                const std::vector<SqlValue>& rest) {
        auto workerOf = [&](long id) {
            std::vector<SqlValue> row{integer(id)};
            row.insert(row.end(), rest.begin(), rest.end());
            return causalityKeys(change(table, RowOp::Insert, {}, row)).front() % kManyWorkers;
        };
        long second = 2;
        while (workerOf(second) == workerOf(1)) {
            ++second;
        }
        return {1, second};
    }

    // Waits until the pool failed or one worker holds `changes` (queued or in its batch).
    static bool failedOrHeldByOneWorker(WorkerPool& pool, uint64_t changes) {
        for (int i = 0; i < kPollLimit; ++i) {
            if (pool.firstError()) {
                return true;
            }
            auto counters = pool.counters();
            for (size_t w = 0; w < counters.queueDepths.size(); ++w) {
                if (counters.queueDepths[w] + counters.pendingRows[w] == changes) {
                    return true;
                }
            }
            std::this_thread::sleep_for(kPollPause);
        }
        return false;
    }

private slots:
    void initTestCase() {
        observer_ = connectDownstream(toSettings(test::downstreamRoot()));
        exec("DROP DATABASE IF EXISTS " + quoteName(kDatabase));
        exec("CREATE DATABASE " + quoteName(kDatabase) + " CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci");
    }

    void cleanupTestCase() {
        if (observer_) {
            exec("DROP DATABASE IF EXISTS " + quoteName(kDatabase));
        }
    }

    // Issue 10, 1: row A gives its email to row B in a later transaction. The two rows' primary keys
    // sit on different workers; A's worker is held back by a row lock, so without the email as a
    // causality key B's change runs first (1062 without safe mode). With it, B waits behind A.
    void anEmailHandedToAnotherRowKeepsItsOrder_data() {
        QTest::addColumn<bool>("safe");
        QTest::addRow("plain statements") << false;
        QTest::addRow("safe mode") << true;
    }
    void anEmailHandedToAnotherRowKeepsItsOrder() {
        QFETCH(bool, safe);
        recreate("users", "(id INT PRIMARY KEY, email VARCHAR(64) NULL, UNIQUE KEY uk_email (email))");
        auto users = load("users");
        auto [giver, taker] = idsOnDifferentWorkers(users, {text("x")});
        const std::string a = std::to_string(giver);
        const std::string b = std::to_string(taker);
        exec("INSERT INTO " + name("users") + " VALUES (" + a + ", 'a@x'), (" + b + ", 'b@x')");
        auto locker = lockRow("users", giver);

        WorkerPool pool(poolSettings(kManyWorkers));
        QVERIFY(pool.dispatch(
            change(users, RowOp::Update, {integer(giver), text("a@x")}, {integer(giver), text("c@x")}, safe)));
        QVERIFY(pool.dispatch(
            change(users, RowOp::Update, {integer(taker), text("b@x")}, {integer(taker), text("a@x")}, safe)));
        QVERIFY(failedOrHeldByOneWorker(pool, 2));
        locker->rollback();
        auto result = pool.barrier();
        QVERIFY2(result.ok(), failureText(result).c_str());
        QCOMPARE(rows("SELECT id, email FROM " + name("users") + " ORDER BY id"), (Rows{{a, "c@x"}, {b, "a@x"}}));
    }

    // Issue 10, 2: a DELETE of one value, then an INSERT of a value the column's collation holds equal,
    // on rows whose primary keys sit on different workers; the first worker is held back by a row lock.
    // Keys folded as the collation compares them put both on one worker (else the INSERT runs first: 1062).
    void valuesEqualUnderTheCollationKeepTheirOrder_data() {
        QTest::addColumn<QString>("columnType");
        QTest::addColumn<QString>("first");
        QTest::addColumn<QString>("second");
        QTest::addColumn<bool>("latin1");
        QTest::addRow("an accent under utf8mb4_general_ci")
            << "VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci"
            << "e1" << QString::fromUtf8("é1") << false;
        QTest::addRow("case in latin1") << "VARCHAR(20) CHARACTER SET latin1"
                                        << "ABC"
                                        << "abc" << true;
        QTest::addRow("an expansion and a trailing space under utf8mb4_unicode_ci")
            << "VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci"
            << "STRASSE" << QString::fromUtf8("straße ") << false;
        QTest::addRow("trailing spaces under utf8mb4_bin (PAD SPACE)")
            << "VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
            << "x"
            << "x  " << false;
        QTest::addRow("a collation with contractions: one key for the column")
            << "VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_czech_ci"
            << "CH"
            << "ch" << false;
    }
    void valuesEqualUnderTheCollationKeepTheirOrder() {
        QFETCH(QString, columnType);
        QFETCH(QString, first);
        QFETCH(QString, second);
        QFETCH(bool, latin1);
        recreate("coded", "(id INT PRIMARY KEY, code " + columnType.toStdString() + ", UNIQUE KEY uk_code (code))");
        auto coded = load("coded");
        auto value = [&](const QString& text) {
            return latin1 ? SqlValue::bytes(text.toLatin1().toStdString()) : SqlValue::text(text.toStdString());
        };
        auto [deleted, inserted] = idsOnDifferentWorkers(coded, {text("x")});
        const std::string a = std::to_string(deleted);
        exec("INSERT INTO " + name("coded") + " VALUES (" + a + ", '" + first.toStdString() + "')");
        auto locker = lockRow("coded", deleted);

        WorkerPool pool(poolSettings(kManyWorkers));
        QVERIFY(pool.dispatch(change(coded, RowOp::Delete, {integer(deleted), value(first)}, {})));
        QVERIFY(pool.dispatch(change(coded, RowOp::Insert, {}, {integer(inserted), value(second)})));
        QVERIFY(failedOrHeldByOneWorker(pool, 2));
        locker->rollback();
        auto result = pool.barrier();
        QVERIFY2(result.ok(), failureText(result).c_str());
        QCOMPARE(rows("SELECT id, code FROM " + name("coded")),
                 (Rows{{std::to_string(inserted), second.toStdString()}}));
    }

    // Many emails handed around many rows on 8 workers: the downstream ends as the upstream history.
    void emailsHandedAroundOnEightWorkersEndAsTheHistory_data() {
        QTest::addColumn<bool>("safe");
        QTest::addRow("plain statements") << false;
        QTest::addRow("safe mode") << true;
    }
    void emailsHandedAroundOnEightWorkersEndAsTheHistory() {
        QFETCH(bool, safe);
        constexpr long kRows = 40;
        constexpr int kChanges = 3000;
        recreate("handed", "(id INT PRIMARY KEY, email VARCHAR(64) NULL, UNIQUE KEY uk_email (email))");
        auto handed = load("handed");
        std::map<long, std::string> model;
        std::vector<std::string> free;  // emails no row holds now
        WorkerPool pool(poolSettings(kManyWorkers, 20));
        for (long id = 0; id < kRows; ++id) {
            model[id] = "u" + std::to_string(id) + "@x";
            QVERIFY(pool.dispatch(change(handed, RowOp::Insert, {}, {integer(id), text(model[id])}, safe)));
        }
        for (int i = 0; i < 8; ++i) {
            free.push_back("spare" + std::to_string(i) + "@x");
        }
        std::mt19937 random(1010);
        for (int step = 0; step < kChanges; ++step) {
            long id = static_cast<long>(random() % kRows);
            size_t pick = random() % free.size();
            std::string taken = free[pick];
            free[pick] = model[id];  // the old email is free again at once: the next row may take it
            QVERIFY(pool.dispatch(
                change(handed, RowOp::Update, {integer(id), text(model[id])}, {integer(id), text(taken)}, safe)));
            model[id] = taken;
        }
        auto result = pool.barrier();
        QVERIFY2(result.ok(), failureText(result).c_str());
        Rows want;
        for (const auto& [id, email] : model) {
            want.push_back({std::to_string(id), email});
        }
        QCOMPARE(rows("SELECT id, email FROM " + name("handed") + " ORDER BY id"), want);
    }

    // Issue 12: with `compact` a worker's batch folds each row's changes into their net effect (one
    // upsert where sysbench writes update, update, delete, insert). A random history of inserts, updates
    // and deletes over few keys, through four workers, ends as the history, folded or not; a table with a
    // second unique index in the same stream folds only keys whose values no other change of the batch
    // shares. Handler_delete shows the folding happened.
    void foldedBatchesEndAsTheHistory_data() {
        QTest::addColumn<bool>("compact");
        QTest::addRow("compact (the default)") << true;
        QTest::addRow("compact: false") << false;
    }
    void foldedBatchesEndAsTheHistory() {
        QFETCH(bool, compact);
        constexpr long kKeys = 60;
        constexpr int kChanges = 6000;
        recreate("folded", "(id INT PRIMARY KEY, k INT NOT NULL, c VARCHAR(20) NOT NULL, KEY k (k))");
        recreate("kept", "(id INT PRIMARY KEY, email VARCHAR(20) NOT NULL, UNIQUE KEY uk_email (email))");
        auto folded = load("folded");
        auto kept = load("kept");
        QVERIFY(folded->rowKeyIsOnlyUniqueIndex());
        QVERIFY(!kept->rowKeyIsOnlyUniqueIndex());
        auto settings = poolSettings(4, 100);
        settings.worker.compact = compact;
        WorkerPool pool(settings);
        std::map<long, std::pair<long, std::string>> model;
        std::map<long, std::string> keptModel;
        std::mt19937 random(compact ? 1212 : 1213);
        auto row = [](long id, const std::pair<long, std::string>& v) {
            return std::vector<SqlValue>{integer(id), integer(v.first), text(v.second)};
        };
        auto handlerDeletes = [&] { return std::stoull(rows("SHOW GLOBAL STATUS LIKE 'Handler_delete'").at(0).at(1)); };
        const uint64_t deletedBefore = handlerDeletes();
        uint64_t deletes = 0;
        for (int step = 0; step < kChanges; ++step) {
            long id = static_cast<long>(random() % kKeys);
            if (step % 5 == 0) {  // the other table: inserts and updates of unique emails
                std::string email = "e" + std::to_string(step) + "@x";
                auto it = keptModel.find(id);
                QVERIFY(pool.dispatch(
                    it == keptModel.end()
                        ? change(kept, RowOp::Insert, {}, {integer(id), text(email)})
                        : change(kept, RowOp::Update, {integer(id), text(it->second)}, {integer(id), text(email)})));
                keptModel[id] = email;
                continue;
            }
            std::pair<long, std::string> next{static_cast<long>(random() % 100), "c" + std::to_string(step)};
            auto it = model.find(id);
            if (it == model.end()) {
                QVERIFY(pool.dispatch(change(folded, RowOp::Insert, {}, row(id, next))));
                model[id] = next;
            } else if (random() % 3 == 0) {
                QVERIFY(pool.dispatch(change(folded, RowOp::Delete, row(id, it->second), {})));
                model.erase(it);
                ++deletes;
            } else {
                QVERIFY(pool.dispatch(change(folded, RowOp::Update, row(id, it->second), row(id, next))));
                it->second = next;
            }
        }
        auto result = pool.barrier();
        QVERIFY2(result.ok(), failureText(result).c_str());
        Rows want;
        for (const auto& [id, v] : model) {
            want.push_back({std::to_string(id), std::to_string(v.first), v.second});
        }
        QCOMPARE(rows("SELECT id, k, c FROM " + name("folded") + " ORDER BY id"), want);
        Rows wantKept;
        for (const auto& [id, email] : keptModel) {
            wantKept.push_back({std::to_string(id), email});
        }
        QCOMPARE(rows("SELECT id, email FROM " + name("kept") + " ORDER BY id"), wantKept);
        QCOMPARE(pool.counters().rowsUnmatchedByTable.size(), size_t(0));
        // Every delete ran one by one without compact; with it, deleted and re-inserted rows were rewritten.
        const uint64_t deleted = handlerDeletes() - deletedBefore;
        qInfo("%llu deletes in the history, %llu rows deleted downstream", static_cast<unsigned long long>(deletes),
              static_cast<unsigned long long>(deleted));
        // (InnoDB's persistent statistics delete rows of their own in the background: a few more count.)
        if (compact) {
            QVERIFY(deleted < deletes / 2);
        } else {
            QVERIFY(deleted >= deletes);
        }
    }

    // On a table with a second unique index, a row's DELETE and INSERT in one batch fold into an UPDATE by
    // its key (no delete downstream). Where the downstream lacks one such row, the UPDATE finds it missing,
    // the batch is rolled back and runs again change by change: the INSERT writes the row and the DELETE's
    // miss is counted, as without folding.
    void aFoldedDeleteAndInsertOfAMissingRowStillWritesIt_data() {
        QTest::addColumn<bool>("missing");
        QTest::addRow("every row there: folded") << false;
        QTest::addRow("the downstream lacks a row: run again unfolded") << true;
    }
    void aFoldedDeleteAndInsertOfAMissingRowStillWritesIt() {
        QFETCH(bool, missing);
        recreate("reinserted", "(id INT PRIMARY KEY, k INT NOT NULL, c VARCHAR(20) NOT NULL, UNIQUE KEY uk_c (c))");
        exec("INSERT INTO " + name("reinserted") + " VALUES (1, 0, 'a'), (2, 0, 'b')" +
             (missing ? std::string() : std::string(", (5, 0, 'e')")));
        auto reinserted = load("reinserted");
        QVERIFY(!reinserted->rowKeyIsOnlyUniqueIndex());
        auto status = [&](const char* name) {
            return std::stoull(rows(std::string("SHOW GLOBAL STATUS LIKE '") + name + "'").at(0).at(1));
        };
        auto row = [](long id, long k, const char* c) {
            return std::vector<SqlValue>{integer(id), integer(k), text(c)};
        };
        // One worker, held on row 2 while the rest queue, so that they reach it as one batch.
        auto settings = poolSettings(1, 100);
        WorkerPool pool(settings);
        auto locker = lockRow("reinserted", 2);
        QVERIFY(pool.dispatch(change(reinserted, RowOp::Update, row(2, 0, "b"), row(2, 1, "b"))));
        QVERIFY(failedOrHeldByOneWorker(pool, 1));
        QVERIFY(pool.dispatch(change(reinserted, RowOp::Delete, row(1, 0, "a"), {})));
        QVERIFY(pool.dispatch(change(reinserted, RowOp::Insert, {}, row(1, 1, "a2"))));
        QVERIFY(pool.dispatch(change(reinserted, RowOp::Delete, row(5, 0, "e"), {})));
        QVERIFY(pool.dispatch(change(reinserted, RowOp::Insert, {}, row(5, 1, "e2"))));
        QVERIFY(failedOrHeldByOneWorker(pool, 5));
        const uint64_t deletesBefore = status("Handler_delete");
        const uint64_t rollbacksBefore = status("Com_rollback");
        locker->rollback();
        auto result = pool.barrier();
        QVERIFY2(result.ok(), failureText(result).c_str());
        QCOMPARE(rows("SELECT id, k, c FROM " + name("reinserted") + " ORDER BY id"),
                 (Rows{{"1", "1", "a2"}, {"2", "1", "b"}, {"5", "1", "e2"}}));
        const auto unmatched = pool.counters().rowsUnmatchedByTable;
        const uint64_t deleted = status("Handler_delete") - deletesBefore;
        const uint64_t rolledBack = status("Com_rollback") - rollbacksBefore - 1;  // but the locker's own
        qInfo("rows deleted downstream: %llu, rollbacks: %llu", static_cast<unsigned long long>(deleted),
              static_cast<unsigned long long>(rolledBack));
        if (missing) {
            QCOMPARE(unmatched.size(), size_t(1));
            QCOMPARE(unmatched.begin()->second, uint64_t(1));  // the DELETE of row 5, run unfolded
            QCOMPARE(rolledBack, uint64_t(1));
            QVERIFY(deleted >= 1);  // row 1's DELETE ran as it came
        } else {
            QCOMPARE(unmatched.size(), size_t(0));
            QCOMPARE(rolledBack, uint64_t(0));
            // (InnoDB's persistent statistics delete rows of their own in the background: one may count.)
            QVERIFY(deleted <= 1);
        }
    }

    // Conflict rounds. A batch of a table with a second and a third unique index (c under
    // utf8mb4_general_ci, d nullable) is ordered by rounds of the causality keys the pool carried, and a
    // round's updates become one statement (UPDATE ... CASE, or on MariaDB one UPDATE bound over the rows). A random
    // history over few ids and few values hands unique values from row to row (the freed value is taken at once, in
    // another letter case), moves keys and deletes and re-inserts ids; through one worker (the biggest batches), four,
    // and one statement per row, the downstream ends as the history, and no row is reported missing. The server's
    // request count shows the merging.
    void conflictRoundsEndAsTheHistory_data() {
        QTest::addColumn<int>("workers");
        QTest::addColumn<bool>("multipleRows");
        QTest::addRow("one worker, multiple-rows") << 1 << true;
        QTest::addRow("four workers, multiple-rows") << 4 << true;
        QTest::addRow("four workers, one statement per row") << 4 << false;
    }
    void conflictRoundsEndAsTheHistory() {
        QFETCH(int, workers);
        QFETCH(bool, multipleRows);
        constexpr long kIds = 60;
        constexpr int kValues = 80;
        constexpr int kChanges = 6000;
        recreate("rounded",
                 "(id INT PRIMARY KEY, c VARCHAR(20) NOT NULL, d INT NULL, k INT NOT NULL, "
                 "UNIQUE KEY uk_c (c), UNIQUE KEY uk_d (d))");
        auto rounded = load("rounded");
        QVERIFY(!rounded->rowKeyIsOnlyUniqueIndex());
        struct Row {
            int c;  // base value; written as "v<c>" or "V<c>"
            bool upper;
            std::optional<int> d;
            long k;
        };
        std::map<long, Row> model;
        std::set<int> freeC;
        std::set<int> freeD;
        for (int v = 0; v < kValues; ++v) {
            freeC.insert(v);
            freeD.insert(v);
        }
        std::mt19937 random(static_cast<unsigned>(1500 + workers * 10 + int(multipleRows)));
        auto takeFrom = [&](std::set<int>& free) {
            auto it = std::next(free.begin(), static_cast<long>(random() % free.size()));
            int value = *it;
            free.erase(it);
            return value;
        };
        auto image = [](long id, const Row& row) {
            return std::vector<SqlValue>{integer(id), text((row.upper ? "V" : "v") + std::to_string(row.c)),
                                         row.d ? integer(*row.d) : SqlValue::null(), integer(row.k)};
        };
        auto settings = poolSettings(static_cast<size_t>(workers), 100, multipleRows);
        WorkerPool pool(settings);
        auto comUpdates = [&] { return std::stoull(rows("SHOW GLOBAL STATUS LIKE 'Com_update'").at(0).at(1)); };
        const uint64_t comUpdatesBefore = comUpdates();
        // The requests the server received: an array of rows bound to one statement is one request, though
        // Com_update counts each of its rows.
        auto requests = [&] { return std::stoull(rows("SHOW GLOBAL STATUS LIKE 'Questions'").at(0).at(1)); };
        const uint64_t requestsBefore = requests();
        uint64_t updates = 0;
        for (int step = 0; step < kChanges; ++step) {
            long id = static_cast<long>(random() % kIds);
            auto it = model.find(id);
            if (it == model.end()) {
                Row row{takeFrom(freeC), random() % 2 == 0, std::nullopt, static_cast<long>(random() % 1000)};
                if (random() % 4 != 0) {
                    row.d = takeFrom(freeD);
                }
                QVERIFY(pool.dispatch(change(rounded, RowOp::Insert, {}, image(id, row))));
                model[id] = row;
                continue;
            }
            Row old = it->second;
            Row next = old;
            long nextId = id;
            switch (random() % 6) {
                case 0:  // delete: its values are free again at once
                    QVERIFY(pool.dispatch(change(rounded, RowOp::Delete, image(id, old), {})));
                    freeC.insert(old.c);
                    if (old.d) {
                        freeD.insert(*old.d);
                    }
                    model.erase(it);
                    continue;
                case 1:  // hand c on: the old value is free for the next change
                    next.c = takeFrom(freeC);
                    next.upper = random() % 2 == 0;
                    freeC.insert(old.c);
                    break;
                case 2:  // d to another value or to NULL
                    next.d = random() % 3 == 0 ? std::nullopt : std::optional<int>(takeFrom(freeD));
                    if (old.d) {
                        freeD.insert(*old.d);
                    }
                    break;
                case 3: {  // move the row to a free id
                    long to = static_cast<long>(random() % kIds);
                    if (model.count(to) == 0) {
                        nextId = to;
                    }
                    break;
                }
                default:  // k only
                    next.k = static_cast<long>(random() % 1000);
                    break;
            }
            QVERIFY(pool.dispatch(change(rounded, RowOp::Update, image(id, old), image(nextId, next))));
            ++updates;
            model.erase(id);
            model[nextId] = next;
        }
        auto result = pool.barrier();
        QVERIFY2(result.ok(), failureText(result).c_str());
        Rows want;
        for (const auto& [id, row] : model) {
            want.push_back({std::to_string(id), (row.upper ? "V" : "v") + std::to_string(row.c),
                            row.d ? std::to_string(*row.d) : "NULL", std::to_string(row.k)});
        }
        QCOMPARE(rows("SELECT id, c, d, k FROM " + name("rounded") + " ORDER BY id"), want);
        QCOMPARE(pool.counters().rowsUnmatchedByTable.size(), size_t(0));
        const uint64_t statements = comUpdates() - comUpdatesBefore;
        const uint64_t received = requests() - requestsBefore;
        qInfo("%llu updates in the history, %llu UPDATE statements downstream in %llu requests (all statements)",
              static_cast<unsigned long long>(updates), static_cast<unsigned long long>(statements),
              static_cast<unsigned long long>(received));
        if (multipleRows) {
            QVERIFY(received < updates);  // inserts, deletes and COMMITs counted too
        } else {
            QVERIFY(statements >= updates);
        }
    }

    // Issue 10, 5: four equal rows upstream, applied in safe mode, are four rows downstream; an update
    // and a delete in safe mode change one of them each.
    void equalRowsOfAKeylessTableSurviveSafeMode() {
        recreate("keyless", "(a INT, b VARCHAR(10))");
        auto keyless = load("keyless");
        QCOMPARE(int(keyless->rowKey().kind), int(schema::RowKeyKind::AllColumns));
        WorkerPool pool(poolSettings(kManyWorkers));
        for (int i = 0; i < 4; ++i) {
            QVERIFY(pool.dispatch(change(keyless, RowOp::Insert, {}, {integer(1), text("same")}, true)));
        }
        auto result = pool.barrier();
        QVERIFY2(result.ok(), failureText(result).c_str());
        QCOMPARE(rows("SELECT a, b FROM " + name("keyless")), (Rows(4, {"1", "same"})));
        QVERIFY(pool.dispatch(
            change(keyless, RowOp::Update, {integer(1), text("same")}, {integer(2), text("other")}, true)));
        QVERIFY(pool.dispatch(change(keyless, RowOp::Delete, {integer(1), text("same")}, {}, true)));
        result = pool.barrier();
        QVERIFY2(result.ok(), failureText(result).c_str());
        QCOMPARE(rows("SELECT a, b FROM " + name("keyless") + " ORDER BY a"),
                 (Rows{{"1", "same"}, {"1", "same"}, {"2", "other"}}));
    }

    // No row key, but a UNIQUE index on a nullable column (the differential harness: a SIGKILL's replay
    // stopped on 1062 for 'é2'): a replayed row whose unique value is set finds itself through the index
    // and is rewritten; rows with NULL there are inserted as any keyless row.
    void aReplayedRowOfAKeylessTableWithANullableUniqueIndexIsNotADuplicate() {
        recreate("nullable_unique", "(a INT, u VARCHAR(10), UNIQUE KEY uk (u))");
        auto table = load("nullable_unique");
        QCOMPARE(int(table->rowKey().kind), int(schema::RowKeyKind::AllColumns));
        WorkerPool pool(poolSettings(kManyWorkers));
        QVERIFY(pool.dispatch(change(table, RowOp::Insert, {}, {integer(33), text("é2")})));
        QVERIFY(pool.dispatch(change(table, RowOp::Insert, {}, {integer(34), SqlValue::null()})));
        auto result = pool.barrier();
        QVERIFY2(result.ok(), failureText(result).c_str());
        QVERIFY(pool.dispatch(change(table, RowOp::Insert, {}, {integer(33), text("é2")}, true)));  // the replay
        result = pool.barrier();
        QVERIFY2(result.ok(), failureText(result).c_str());
        QCOMPARE(rows("SELECT a, u FROM " + name("nullable_unique") + " ORDER BY a"),
                 (Rows{{"33", "é2"}, {"34", "NULL"}}));
    }

    // Issue 10, 6: with foreign_key_checks=1 in the target session a REPLACE of a parent row cascades to
    // its children. Safe mode writes an upsert where that is exact and refuses, naming the table and the
    // row, where only a delete would be; with the default foreign_key_checks=0 InnoDB does not cascade.
    void safeModeNeverCascadesToChildRows_data() {
        QTest::addColumn<QString>("parentDefinition");
        QTest::addColumn<bool>("foreignKeyChecks");
        QTest::addColumn<long>("newId");    // the parent's id after the safe update
        QTest::addColumn<bool>("refused");  // safe mode stops with an error instead
        const QString onlyPrimary = "(id INT PRIMARY KEY, v INT)";
        const QString secondUnique = "(id INT PRIMARY KEY, v INT, UNIQUE KEY uk_v (v))";
        QTest::addRow("only the primary key: upsert, children kept") << onlyPrimary << true << 1L << false;
        QTest::addRow("a second unique index: refused") << secondUnique << true << 1L << true;
        QTest::addRow("an update that moves the key: a plain UPDATE, the children follow it")
            << onlyPrimary << true << 2L << false;
        QTest::addRow("foreign_key_checks=0: REPLACE does not cascade") << secondUnique << false << 1L << false;
    }
    void safeModeNeverCascadesToChildRows() {
        QFETCH(QString, parentDefinition);
        QFETCH(bool, foreignKeyChecks);
        QFETCH(long, newId);
        QFETCH(bool, refused);
        exec("DROP TABLE IF EXISTS " + name("child"));
        recreate("parent", parentDefinition.toStdString());
        exec("CREATE TABLE " + name("child") +
             " (id INT PRIMARY KEY, parent_id INT, CONSTRAINT fk_parent FOREIGN KEY " + "(parent_id) REFERENCES " +
             name("parent") + " (id) ON DELETE CASCADE ON UPDATE CASCADE)");
        exec("INSERT INTO " + name("parent") + " VALUES (1, 10)");
        exec("INSERT INTO " + name("child") + " VALUES (100, 1), (101, 1)");
        auto parent = load("parent");
        QCOMPARE(parent->referencingForeignKeys().size(), size_t(1));
        auto settings = poolSettings(kManyWorkers);
        settings.sessionVariables.emplace_back("foreign_key_checks", foreignKeyChecks ? "1" : "0");
        WorkerPool pool(settings);
        QVERIFY(pool.dispatch(change(parent, RowOp::Insert, {}, {integer(1), integer(10)}, true)));  // a replay
        QVERIFY(pool.dispatch(
            change(parent, RowOp::Update, {integer(1), integer(10)}, {integer(newId), integer(11)}, true)));
        auto result = pool.barrier();
        QCOMPARE(rows("SELECT COUNT(*) FROM " + name("child")), (Rows{{"2"}}));
        if (refused) {
            QVERIFY(!result.ok());
            QCOMPARE(int(result.failure->errorClass), int(ErrorClass::NeedsDba));
            QVERIFY(result.failure->rowIdentified);
            QCOMPARE(result.failure->change.target().table, std::string("parent"));
            QVERIFY2(result.failure->message.find("fk_parent") != std::string::npos, result.failure->message.c_str());
            QVERIFY(result.failure->describe().find("parent") != std::string::npos);
            QCOMPARE(rows("SELECT id, v FROM " + name("parent")), (Rows{{"1", "10"}}));  // nothing of the batch
        } else {
            QVERIFY2(result.ok(), failureText(result).c_str());
            QCOMPARE(rows("SELECT id, v FROM " + name("parent")), (Rows{{std::to_string(newId), "11"}}));
            QCOMPARE(rows("SELECT DISTINCT parent_id FROM " + name("child")), (Rows{{std::to_string(newId)}}));
        }
    }

    // A users/orders schema after an unclean stop, replayed in safe mode with foreign_key_checks=1: users
    // has a second unique key (email) and orders cascade on delete. Writes that keep every unique value go
    // as UPDATE by the key, then INSERT where no row was found: a replayed INSERT of a user who is there
    // already, a note changed, a new user, child updates and inserts and a parent's delete all apply, and
    // no order of a kept user goes. A change of a user's email (only REPLACE would be exact) is refused,
    // the row and the foreign key named, and nothing of its batch is written.
    void safeModeOnAParentWithASecondUniqueKeyKeepsItsChildren_data() {
        QTest::addColumn<bool>("emailChanges");
        QTest::addRow("unique values kept: applied") << false;
        QTest::addRow("an email changes: refused") << true;
    }
    void safeModeOnAParentWithASecondUniqueKeyKeepsItsChildren() {
        QFETCH(bool, emailChanges);
        exec("DROP TABLE IF EXISTS " + name("orders"));
        recreate("users",
                 "(id INT PRIMARY KEY, email VARCHAR(64) NOT NULL, note VARCHAR(64), UNIQUE KEY uk_email (email))");
        exec("CREATE TABLE " + name("orders") + " (id INT PRIMARY KEY, user_id INT NOT NULL, amount INT, " +
             "CONSTRAINT fk_user FOREIGN KEY (user_id) REFERENCES " + name("users") + " (id) ON DELETE CASCADE)");
        exec("INSERT INTO " + name("users") + " VALUES (1, 'a@x', 'old'), (2, 'b@x', NULL), (3, 'c@x', NULL)");
        exec("INSERT INTO " + name("orders") + " VALUES (100, 1, 5), (101, 1, 6), (102, 2, 7), (103, 3, 8)");
        auto users = load("users");
        auto orders = load("orders");
        QVERIFY(!users->rowKeyIsOnlyUniqueIndex());
        QCOMPARE(users->referencingForeignKeys().size(), size_t(1));
        std::vector<RowChange> replay;
        // Replayed: user 1 was inserted before the stop, its note changed after it.
        replay.push_back(change(users, RowOp::Insert, {}, {integer(1), text("a@x"), text("old")}, true));
        replay.push_back(change(users, RowOp::Update, {integer(1), text("a@x"), text("old")},
                                {integer(1), text("a@x"), text("new")}, true));
        replay.push_back(change(users, RowOp::Insert, {}, {integer(4), text("d@x"), text("fresh")}, true));
        replay.push_back(change(orders, RowOp::Update, {integer(100), integer(1), integer(5)},
                                {integer(100), integer(1), integer(50)}, true));
        replay.push_back(change(orders, RowOp::Insert, {}, {integer(104), integer(4), integer(9)}, true));
        replay.push_back(change(users, RowOp::Delete, {integer(3), text("c@x"), SqlValue()}, {}, true));
        if (emailChanges) {
            replay.push_back(change(users, RowOp::Update, {integer(2), text("b@x"), SqlValue()},
                                    {integer(2), text("b2@x"), SqlValue()}, true));
        }
        for (RowChange& c : replay) {
            c.upstreamForeignKeyChecks = true;
        }
        BarrierResult result = replayWithForeignKeyChecks(std::move(replay));
        if (emailChanges) {
            QVERIFY(!result.ok());
            QCOMPARE(int(result.failure->errorClass), int(ErrorClass::NeedsDba));
            QVERIFY(result.failure->rowIdentified);
            QCOMPARE(result.failure->change.target().table, std::string("users"));
            QVERIFY2(result.failure->message.find("fk_user") != std::string::npos, result.failure->message.c_str());
            QVERIFY2(result.failure->message.find("changes a unique value") != std::string::npos,
                     result.failure->message.c_str());
            QCOMPARE(rows("SELECT COUNT(*) FROM " + name("orders")), (Rows{{"4"}}));  // no child went
            QCOMPARE(rows("SELECT email FROM " + name("users") + " WHERE id = 2"), (Rows{{"b@x"}}));
            return;
        }
        QVERIFY2(result.ok(), failureText(result).c_str());
        QCOMPARE(rows("SELECT id, email, IFNULL(note, 'NULL') FROM " + name("users") + " ORDER BY id"),
                 (Rows{{"1", "a@x", "new"}, {"2", "b@x", "NULL"}, {"4", "d@x", "fresh"}}));
        // The kept users' orders stay; user 3's went with it, as upstream.
        QCOMPARE(rows("SELECT id, user_id, amount FROM " + name("orders") + " ORDER BY id"),
                 (Rows{{"100", "1", "50"}, {"101", "1", "6"}, {"102", "2", "7"}, {"104", "4", "9"}}));
    }

    // Session 8 soak (seeds 80045, 80062): safe mode replays a parent's key move as a plain UPDATE by the old
    // key, but the downstream already holds what came after it: a later row under the new key (1062), or the
    // old key re-created with a child that an ON UPDATE RESTRICT protects (1451). The move was applied before
    // the restart; it is skipped and the later changes, replayed after it, leave the upstream's rows.
    void replayedKeyMoveOfACascadingParentFindsTheDownstreamPast_data() {
        QTest::addColumn<QString>("onUpdate");
        QTest::addColumn<bool>("newKeyReused");  // else the moved row is deleted and the old key re-created
        for (const char* onUpdate : {"CASCADE", "RESTRICT"}) {
            QTest::addRow("ON UPDATE %s, a later row holds the new key", onUpdate) << QString(onUpdate) << true;
            QTest::addRow("ON UPDATE %s, the old key re-created with a child", onUpdate) << QString(onUpdate) << false;
        }
    }
    void replayedKeyMoveOfACascadingParentFindsTheDownstreamPast() {
        QFETCH(QString, onUpdate);
        QFETCH(bool, newKeyReused);
        recreateParentAndChild("INT", "ON DELETE CASCADE ON UPDATE " + onUpdate.toStdString());
        auto parent = load("parent");
        auto child = load("child");
        QVERIFY(parent->cascadeFamily().cascadesToChildren);
        // Upstream, all with foreign_key_checks=1: parent 1 moves to 2, then either parent 1 comes back with
        // child 300 (2 stays), or 2 is deleted and parent 1 comes back with child 300.
        std::vector<RowChange> replay;
        replay.push_back(change(parent, RowOp::Update, {integer(1), integer(10)}, {integer(2), integer(11)}, true));
        if (!newKeyReused) {
            replay.push_back(change(parent, RowOp::Delete, {integer(2), integer(11)}, {}, true));
        }
        replay.push_back(change(parent, RowOp::Insert, {}, {integer(1), integer(20)}, true));
        replay.push_back(change(child, RowOp::Insert, {}, {integer(300), integer(1)}, true));
        // Everything was applied before the restart; the replay starts at the key move.
        const Rows parents = newKeyReused ? Rows{{"1", "20"}, {"2", "11"}} : Rows{{"1", "20"}};
        for (const auto& row : parents) {
            exec("INSERT INTO " + name("parent") + " VALUES (" + row[0] + ", " + row[1] + ")");
        }
        exec("INSERT INTO " + name("child") + " VALUES (300, 1)");
        auto result = replayWithForeignKeyChecks(std::move(replay));
        QVERIFY2(result.ok(), failureText(result).c_str());
        QCOMPARE(rows("SELECT id, v FROM " + name("parent") + " ORDER BY id"), parents);
        QCOMPARE(rows("SELECT id, parent_id FROM " + name("child") + " ORDER BY id"), (Rows{{"300", "1"}}));
    }

    // Soak seeds 110001 and 111058 (session 11): the replay itself re-created the old key. Upstream a row
    // was inserted under key 1 and moved to 2, then 2 changed again; all of it was applied before the
    // restart. The replay upserts row 1 back (the insert), and the key move's plain UPDATE then finds 2
    // held (1062). Skipping the move left row 1 downstream for good: nothing later deletes it. The row
    // under the new key is a later one (applied before the restart, replayed after the move), so it is
    // removed without cascading and the move runs again: the children follow it as upstream.
    void aReplayedKeyMoveRemovesTheOldKeyTheReplayRecreated_data() {
        QTest::addColumn<QString>("onUpdate");
        QTest::addRow("ON UPDATE CASCADE, a child moves with the row") << QString("CASCADE");
        QTest::addRow("ON UPDATE RESTRICT, no child") << QString("RESTRICT");
    }
    void aReplayedKeyMoveRemovesTheOldKeyTheReplayRecreated() {
        QFETCH(QString, onUpdate);
        const bool childMoves = onUpdate == "CASCADE";
        recreateParentAndChild("INT", "ON DELETE CASCADE ON UPDATE " + onUpdate.toStdString());
        auto parent = load("parent");
        auto child = load("child");
        // Before the restart: everything applied (the child followed the move under ON UPDATE CASCADE).
        exec("INSERT INTO " + name("parent") + " VALUES (2, 12), (5, 50)");
        exec("INSERT INTO " + name("child") + " VALUES (301, 5)");
        if (childMoves) {
            exec("INSERT INTO " + name("child") + " VALUES (300, 2)");
        }
        std::vector<RowChange> replay;
        replay.push_back(change(parent, RowOp::Insert, {}, {integer(1), integer(10)}, true));
        if (childMoves) {
            replay.push_back(change(child, RowOp::Insert, {}, {integer(300), integer(1)}, true));
        }
        replay.push_back(change(parent, RowOp::Update, {integer(1), integer(10)}, {integer(2), integer(11)}, true));
        replay.push_back(change(parent, RowOp::Update, {integer(2), integer(11)}, {integer(2), integer(12)}, true));
        auto result = replayWithForeignKeyChecks(std::move(replay));
        QVERIFY2(result.ok(), failureText(result).c_str());
        QCOMPARE(rows("SELECT id, v FROM " + name("parent") + " ORDER BY id"), (Rows{{"2", "12"}, {"5", "50"}}));
        const Rows children = childMoves ? Rows{{"300", "2"}, {"301", "5"}} : Rows{{"301", "5"}};
        QCOMPARE(rows("SELECT id, parent_id FROM " + name("child") + " ORDER BY id"), children);
    }

    // Soak seed 91000: a table without a key finds a row by every column, and under a _ci collation
    // 'e45' = 'é45': the UPDATE of the upstream's 'e45' row changed the 'é45' row downstream. Text columns of
    // such a table are compared in their character set's binary collation (the bytes, as MariaDB's replica
    // compares whole records); a latin1 column's value comes as bytes from the binlog.
    void withoutAKeyRowsEqualOnlyUnderACollationStayApart_data() {
        QTest::addColumn<QString>("charset");
        QTest::addColumn<bool>("asBytes");  // the value bound as the column's own bytes (a non-UTF-8 column)
        QTest::addRow("utf8mb4_general_ci, text") << "utf8mb4 COLLATE utf8mb4_general_ci" << false;
        QTest::addRow("latin1_swedish_ci, bytes") << "latin1 COLLATE latin1_swedish_ci" << true;
    }
    void withoutAKeyRowsEqualOnlyUnderACollationStayApart() {
        QFETCH(QString, charset);
        QFETCH(bool, asBytes);
        recreate("keyless_ci", "(n INT, b VARCHAR(20) CHARACTER SET " + charset.toStdString() + ")");
        exec("INSERT INTO " + name("keyless_ci") + " VALUES (8, 'é45'), (8, 'e45'), (7, 'É1'), (7, 'e1')");
        auto table = load("keyless_ci");
        QCOMPARE(int(table->rowKey().kind), int(schema::RowKeyKind::AllColumns));
        auto value = [&](const std::string& utf8) {
            if (!asBytes) {
                return text(utf8);
            }
            std::string latin1;  // the two-byte UTF-8 of é and É as their one latin1 byte
            for (size_t i = 0; i < utf8.size(); ++i) {
                auto c = static_cast<unsigned char>(utf8[i]);
                if (c == 0xC3 && i + 1 < utf8.size()) {
                    latin1 += static_cast<char>(static_cast<unsigned char>(utf8[++i]) + 0x40);
                } else {
                    latin1 += static_cast<char>(c);
                }
            }
            return SqlValue::bytes(latin1);
        };
        for (bool safe : {false, true}) {
            WorkerPool pool(poolSettings(kManyWorkers));
            long from = safe ? 9 : 8;
            long to = safe ? 10 : 9;
            QVERIFY(pool.dispatch(
                change(table, RowOp::Update, {integer(from), value("e45")}, {integer(to), value("e45")}, safe)));
            if (!safe) {
                QVERIFY(pool.dispatch(change(table, RowOp::Delete, {integer(7), value("e1")}, {}, safe)));
            }
            auto result = pool.barrier();
            QVERIFY2(result.ok(), failureText(result).c_str());
        }
        QCOMPARE(rows("SELECT n, b FROM " + name("keyless_ci") + " ORDER BY n, BINARY b"),
                 (Rows{{"7", "É1"}, {"8", "é45"}, {"10", "e45"}}));
    }

    // Cascading foreign keys downstream: the binlog has the parent's DELETE only. With the apply sessions'
    // foreign_key_checks=0 (DM's default) nothing would cascade, and a child row inserted before its
    // parent's delete could land after it on another worker. The family is one causality key and the
    // parent's delete runs with the upstream's checks: children go exactly when the upstream's went.
    void cascadesHappenDownstreamAsTheyDidUpstream_data() {
        QTest::addColumn<bool>("multipleRows");
        QTest::addRow("one statement per row") << false;
        QTest::addRow("multiple rows") << true;
    }
    void cascadesHappenDownstreamAsTheyDidUpstream() {
        QFETCH(bool, multipleRows);
        constexpr long kParents = 20;
        exec("DROP TABLE IF EXISTS " + name("child"));
        recreate("parent", "(id INT PRIMARY KEY, v INT)");
        exec("CREATE TABLE " + name("child") +
             " (id INT PRIMARY KEY, parent_id INT, CONSTRAINT fk_parent FOREIGN KEY (parent_id) REFERENCES " +
             name("parent") + " (id) ON DELETE CASCADE)");
        auto parent = load("parent");
        auto child = load("child");
        QVERIFY(parent->cascadeFamily().cascadesToChildren);
        QCOMPARE(child->cascadeFamily().name, parent->cascadeFamily().name);
        WorkerPool pool(poolSettings(kManyWorkers, 7, multipleRows));
        for (long id = 1; id <= kParents; ++id) {
            QVERIFY(pool.dispatch(change(parent, RowOp::Insert, {}, {integer(id), integer(id)})));
            QVERIFY(pool.dispatch(change(child, RowOp::Insert, {}, {integer(100 + id), integer(id)})));
        }
        // Odd parents are deleted by a session with checks on (their children cascade), parent 2 by one with
        // foreign_key_checks=0 (its child stays, as upstream); a child added just before its parent goes.
        for (long id = 1; id <= kParents; id += 2) {
            QVERIFY(pool.dispatch(change(child, RowOp::Insert, {}, {integer(200 + id), integer(id)})));
            QVERIFY(pool.dispatch(change(parent, RowOp::Delete, {integer(id), integer(id)}, {})));
        }
        RowChange unchecked = change(parent, RowOp::Delete, {integer(2), integer(2)}, {});
        unchecked.upstreamForeignKeyChecks = false;
        QVERIFY(pool.dispatch(std::move(unchecked)));
        auto result = pool.barrier();
        QVERIFY2(result.ok(), failureText(result).c_str());
        Rows expected;
        for (long id = 2; id <= kParents; id += 2) {
            expected.push_back({std::to_string(100 + id), std::to_string(id)});
        }
        QCOMPARE(rows("SELECT id, parent_id FROM " + name("child") + " ORDER BY id"), expected);
        QCOMPARE(rows("SELECT COUNT(*) FROM " + name("parent")), (Rows{{std::to_string(kParents / 2 - 1)}}));
    }

    // Issue 10, soak seed 40041: after a restart, safe mode replays a child's INSERT whose parent's DELETE was
    // applied before the restart and cascaded the child away. The replayed DELETE finds no parent and
    // cascades nothing; the child's upsert (foreign_key_checks=0) re-created it: an orphan the upstream does
    // not have. Written with checks on, the replayed child row is dropped when its parent is gone, and
    // written as before when the parent is there or the upstream session had checks off.
    void replayedChildOfADeletedParentIsDropped_data() {
        QTest::addColumn<QString>("onDelete");
        QTest::addColumn<bool>("multipleRows");
        QTest::addColumn<QString>("childrenAfter");  // id:parent_id, in id order
        QTest::addRow("ON DELETE CASCADE: the child stays gone") << "CASCADE" << false << "102:2,103:99,104:2";
        QTest::addRow("ON DELETE CASCADE, multiple rows") << "CASCADE" << true << "102:2,103:99,104:2";
        QTest::addRow("ON DELETE SET NULL: the child keeps its NULL")
            << "SET NULL" << false << "101:NULL,102:2,103:99,104:2";
    }
    void replayedChildOfADeletedParentIsDropped() {
        QFETCH(QString, onDelete);
        QFETCH(bool, multipleRows);
        QFETCH(QString, childrenAfter);
        recreateParentAndChild("INT NULL", "ON DELETE " + onDelete.toStdString());
        auto parent = load("parent");
        auto child = load("child");
        QVERIFY(child->cascadeFamily().changedByParents);
        QVERIFY(!parent->cascadeFamily().changedByParents);
        // The upstream's history: parents 1 and 2, children of both, an orphan written with checks off
        // (child 103 of the missing parent 99), then parent 1 deleted by a session with checks on.
        auto history = [&](bool safe) {
            std::vector<RowChange> changes;
            if (!safe) {
                changes.push_back(change(parent, RowOp::Insert, {}, {integer(1), integer(1)}));
                changes.push_back(change(parent, RowOp::Insert, {}, {integer(2), integer(2)}));
            }
            changes.push_back(change(child, RowOp::Insert, {}, {integer(101), integer(1)}, safe));
            changes.push_back(change(child, RowOp::Insert, {}, {integer(102), integer(2)}, safe));
            RowChange orphan = change(child, RowOp::Insert, {}, {integer(103), integer(99)}, safe);
            orphan.upstreamForeignKeyChecks = false;
            changes.push_back(std::move(orphan));
            changes.push_back(change(child, RowOp::Insert, {}, {integer(104), integer(2)}, safe));
            changes.push_back(change(parent, RowOp::Delete, {integer(1), integer(1)}, {}, safe));
            return changes;
        };
        // Applied once, then replayed in safe mode from the first child's insert (a restart from an older
        // checkpoint): the downstream must end as it was after the first run.
        for (bool safe : {false, true}) {
            WorkerPool pool(poolSettings(kManyWorkers, 7, multipleRows));
            for (auto& c : history(safe)) {
                QVERIFY(pool.dispatch(std::move(c)));
            }
            auto result = pool.barrier();
            QVERIFY2(result.ok(), failureText(result).c_str());
            QStringList children;
            for (const auto& row :
                 rows("SELECT id, IFNULL(parent_id, 'NULL') FROM " + name("child") + " ORDER BY id")) {
                children << QString::fromStdString(row[0] + ":" + row[1]);
            }
            QCOMPARE(children.join(','), childrenAfter);
            QCOMPARE(rows("SELECT id FROM " + name("parent")), (Rows{{"2"}}));
        }
    }

    // Issue 10, 12: generated columns are read from the downstream and never written; inserts, updates
    // and safe-mode upserts leave them to the server, which computes them.
    void generatedColumnsAreLeftToTheDownstream_data() {
        QTest::addColumn<bool>("multipleRows");
        QTest::addColumn<bool>("safe");
        QTest::addRow("one statement per row") << false << false;
        QTest::addRow("merged statements") << true << false;
        QTest::addRow("safe mode upserts") << true << true;
    }
    void generatedColumnsAreLeftToTheDownstream() {
        QFETCH(bool, multipleRows);
        QFETCH(bool, safe);
        recreate("computed",
                 "(id INT PRIMARY KEY, price INT, qty INT, total INT AS (price * qty) VIRTUAL, "
                 "kept INT AS (price + qty) STORED)");
        auto computed = load("computed");
        QVERIFY(computed->columns()[3].generated);
        QVERIFY(computed->columns()[4].generated);
        QCOMPARE(computed->writtenColumns(), (std::vector<size_t>{0, 1, 2}));
        auto row = [](long id, long price, long qty) {
            // The upstream's values of the generated columns are in the image; they must not be sent.
            return std::vector<SqlValue>{integer(id), integer(price), integer(qty), integer(price * qty),
                                         integer(price + qty)};
        };
        WorkerPool pool(poolSettings(2, 100, multipleRows));
        for (long id = 1; id <= 3; ++id) {
            QVERIFY(pool.dispatch(change(computed, RowOp::Insert, {}, row(id, 2, id), safe)));
        }
        for (long id = 1; id <= 3; ++id) {
            QVERIFY(pool.dispatch(change(computed, RowOp::Update, row(id, 2, id), row(id, 5, id), safe)));
        }
        auto result = pool.barrier();
        QVERIFY2(result.ok(), failureText(result).c_str());
        QCOMPARE(rows("SELECT id, price, qty, total, kept FROM " + name("computed") + " ORDER BY id"),
                 (Rows{{"1", "5", "1", "5", "6"}, {"2", "5", "2", "10", "7"}, {"3", "5", "3", "15", "8"}}));
    }

    // Issue 10, 12: an UPDATE or DELETE that finds no downstream row is counted for its table (single
    // statements, and the shortfall of a merged DELETE ... IN); an UPDATE that sets the values a row
    // already has found its row and is no drift.
    void updatesAndDeletesThatFindNoRowAreCounted_data() {
        QTest::addColumn<bool>("multipleRows");
        QTest::addColumn<uint64_t>("unmatched");
        QTest::addRow("one statement per row: update and two deletes miss") << false << uint64_t(3);
        QTest::addRow("merged: the deletes' shortfall; merged upserts cannot tell") << true << uint64_t(2);
    }
    void updatesAndDeletesThatFindNoRowAreCounted() {
        QFETCH(bool, multipleRows);
        QFETCH(uint64_t, unmatched);
        recreate("drift", "(id INT PRIMARY KEY, v INT)");
        exec("INSERT INTO " + name("drift") + " VALUES (1, 1), (2, 2), (3, 3)");
        auto drift = load("drift");
        WorkerPool pool(poolSettings(1, 100, multipleRows));
        auto ints = [](long a, long b) { return std::vector<SqlValue>{integer(a), integer(b)}; };
        QVERIFY(pool.dispatch(change(drift, RowOp::Update, ints(1, 1), ints(1, 1))));  // same values: found
        QVERIFY(pool.dispatch(change(drift, RowOp::Update, ints(8, 8), ints(8, 9))));  // missing downstream
        QVERIFY(pool.dispatch(change(drift, RowOp::Delete, ints(2, 2), {})));          // found
        QVERIFY(pool.dispatch(change(drift, RowOp::Delete, ints(6, 6), {})));          // missing
        QVERIFY(pool.dispatch(change(drift, RowOp::Delete, ints(7, 7), {})));          // missing
        QVERIFY(pool.dispatch(change(drift, RowOp::Delete, ints(3, 3), {}, true)));    // safe: a replay may miss
        QVERIFY(pool.dispatch(change(drift, RowOp::Delete, ints(9, 9), {}, true)));
        auto result = pool.barrier();
        QVERIFY2(result.ok(), failureText(result).c_str());
        auto counters = pool.counters();
        const schema::TableName drifted{kDatabase, "drift"};
        QCOMPARE(counters.rowsUnmatchedByTable[drifted], unmatched);
        QCOMPARE(counters.rowsUnmatched, unmatched);
    }
};

QTEST_GUILESS_MAIN(ApplyRealSchemasTest)
#include "test_apply_real_schemas.moc"
