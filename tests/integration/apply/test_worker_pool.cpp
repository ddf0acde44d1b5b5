// WorkerPool against the real downstream: changes of one key commit in order across workers, a barrier
// waits for every commit, and the "committed" contract holds: after a failing row the pool reports the
// error before (or together with) any sequence that counts the dropped batch, in whatever order a
// reader asks, and nothing dropped is ever in the downstream.
#include <QtTest>

#include <atomic>
#include <thread>

#include "engine/apply/worker_pool.h"
#include "engine/source/upstream_connection.h"
#include "tests/engine/apply/row_change_fixtures.h"
#include "tests/support/test_env.h"

using namespace syncscope;
using apply::RowChange;
using apply::RowOp;
using apply::SqlValue;
using apply::WorkerPool;
using apply::WorkerPoolSettings;
using source::UpstreamConnection;

namespace {

constexpr int kRows = 400;
constexpr int kFailingId = 250;

std::shared_ptr<const schema::TableSchema> table() {
    auto made = apply::testing::table("wpool", "t", {"id", "v"}, {0});
    std::vector<schema::SchemaColumn> columns = made->columns();
    columns[1].type = binlog::ColumnType::VarChar;
    columns[1].typeName = "varchar";
    return std::make_shared<const schema::TableSchema>(made->name(), columns, std::vector<size_t>{0},
                                                       std::vector<schema::UniqueKey>{},
                                                       schema::SchemaOrigin::TableMap);
}

RowChange insert(const std::shared_ptr<const schema::TableSchema>& t, int id, const std::string& v, uint64_t seq) {
    RowChange change;
    change.table = t;
    change.op = RowOp::Insert;
    change.after = {SqlValue::signedInt(id), SqlValue::text(v)};
    change.transactionSeq = seq;
    change.setSource({"mariadb-bin.000001", static_cast<uint64_t>(id), ""});
    return change;
}

RowChange update(const std::shared_ptr<const schema::TableSchema>& t, int id, const std::string& from,
                 const std::string& to, uint64_t seq) {
    RowChange change = insert(t, id, to, seq);
    change.op = RowOp::Update;
    change.before = {SqlValue::signedInt(id), SqlValue::text(from)};
    return change;
}

WorkerPoolSettings settings() {
    WorkerPoolSettings pool;
    pool.downstream = test::engineSettings(test::downstreamRoot());
    pool.workerCount = 4;
    pool.worker.batch = 10;
    return pool;
}

}  // namespace

class WorkerPoolTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<UpstreamConnection> down_;

    std::string value(const std::string& sql) { return down_->queryValue(sql).value_or("NULL"); }

private slots:
    void init() {
        down_ = std::make_unique<UpstreamConnection>(test::engineSettings(test::downstreamRoot()));
        down_->execute("DROP DATABASE IF EXISTS wpool");
        down_->execute("CREATE DATABASE wpool");
        down_->execute("CREATE TABLE wpool.t (id INT PRIMARY KEY, v VARCHAR(3))");
    }

    void changesOfOneKeyCommitInOrderAndABarrierWaitsForAll() {
        auto t = table();
        WorkerPool pool(settings());
        for (int id = 1; id <= kRows; ++id) {
            QVERIFY(pool.dispatch(insert(t, id, "a", static_cast<uint64_t>(id))));
        }
        for (int id = 1; id <= kRows; id += 3) {
            QVERIFY(pool.dispatch(update(t, id, "a", "b", static_cast<uint64_t>(kRows + id))));
            QVERIFY(pool.dispatch(update(t, id, "b", "c", static_cast<uint64_t>(kRows + id))));
        }
        QVERIFY(pool.barrier().ok());
        QCOMPARE(pool.appliedSequence(), pool.lastDispatchedSequence());
        QCOMPARE(value("SELECT COUNT(*) FROM wpool.t"), std::to_string(kRows));
        QCOMPARE(value("SELECT COUNT(*) FROM wpool.t WHERE v = 'c'"), std::to_string((kRows + 2) / 3));
        QCOMPARE(value("SELECT COUNT(*) FROM wpool.t WHERE v = 'b'"), std::string("0"));
    }

    // A reader that asks "committed up to?" and "any error?" in either order never sees a dropped
    // batch as committed without its error.
    void aDroppedBatchNeverCountsAsCommittedWithoutItsError() {
        auto t = table();
        WorkerPool pool(settings());
        std::atomic<bool> done{false};
        std::atomic<bool> violated{false};
        uint64_t failingSequence = kFailingId;
        std::thread reader([&] {
            while (!done) {
                // The contract's order: the sequence first, then the error count.
                uint64_t applied = pool.appliedSequence();
                bool failed = pool.errorCount() > 0;
                if (!failed && applied >= failingSequence) {
                    violated = true;
                }
            }
        });
        for (int id = 1; id <= kRows; ++id) {
            // Row 250's value does not fit: its batch fails and is dropped.
            if (!pool.dispatch(insert(t, id, id == kFailingId ? "too long" : "a", static_cast<uint64_t>(id)))) {
                break;
            }
        }
        auto barrier = pool.barrier();
        done = true;
        reader.join();
        QVERIFY(!barrier.ok());
        QVERIFY(!violated);
        QVERIFY(pool.firstError().has_value());
        QCOMPARE(pool.firstError()->change.after.front().asUnsigned(), uint64_t(kFailingId));
        QVERIFY(pool.firstError()->rowIdentified);
        QCOMPARE(pool.firstError()->code, 1406);
        QCOMPARE(value("SELECT COUNT(*) FROM wpool.t WHERE id = " + std::to_string(kFailingId)), std::string("0"));
        QVERIFY(!pool.dispatch(insert(t, kRows + 1, "a", kRows + 1)));  // a failed pool accepts nothing
        pool.reset();
        QVERIFY(pool.dispatch(insert(t, kRows + 2, "a", kRows + 2)));
        QVERIFY(pool.barrier().ok());
        QCOMPARE(value("SELECT COUNT(*) FROM wpool.t WHERE id = " + std::to_string(kRows + 2)), std::string("1"));
    }
};

QTEST_GUILESS_MAIN(WorkerPoolTest)
#include "test_worker_pool.moc"
