// Changes to one row stay on one worker and in order; a change whose keys sit on two workers is a
// conflict; keys are released once their worker has committed them.
#include <QtTest>

#include <algorithm>
#include <array>
#include <random>

#include "engine/apply/causality_keys.h"
#include "engine/apply/dispatcher.h"
#include "tests/engine/apply/row_change_fixtures.h"

using namespace syncscope;
using namespace syncscope::apply;
using namespace syncscope::apply::testing;

namespace {

constexpr size_t kWorkers = 4;
const std::vector<uint64_t> kNothingCommitted(kWorkers, 0);

}  // namespace

class CausalityTest : public QObject {
    Q_OBJECT

private slots:
    void sameRowGivesSameKeyInEveryOperation() {
        auto t = table("db", "t", {"id", "v"}, {0});
        auto ins = causalityKeys(insert(t, ints({5, 1})));
        auto upd = causalityKeys(update(t, ints({5, 1}), ints({5, 2})));
        auto del = causalityKeys(erase(t, ints({5, 2})));
        QCOMPARE(ins.size(), size_t(1));
        QCOMPARE(upd, ins);  // key unchanged: old and new key are one key
        QCOMPARE(del, ins);
        QVERIFY(causalityKeys(insert(t, ints({6, 1}))) != ins);
    }

    void sameKeyValueInAnotherTableIsAnotherKey() {
        auto a = table("db", "a", {"id"}, {0});
        auto b = table("db", "b", {"id"}, {0});
        QVERIFY(causalityKeys(insert(a, ints({1}))) != causalityKeys(insert(b, ints({1}))));
    }

    void updateMovingTheKeyHoldsOldAndNewKey() {
        auto t = table("db", "t", {"id", "v"}, {0});
        auto keys = causalityKeys(update(t, ints({1, 0}), ints({2, 0})));
        QCOMPARE(keys.size(), size_t(2));
        QCOMPARE(keys[0], causalityKeys(insert(t, ints({2, 0})))[0]);  // the new row key leads
        QCOMPARE(keys[1], causalityKeys(insert(t, ints({1, 0})))[0]);
    }

    void uniqueKeysAreKeysTooExceptWhenNull() {
        auto t = table("db", "t", {"id", "code"}, {0}, {schema::UniqueKey{"uk_code", {1}}});
        QCOMPARE(causalityKeys(insert(t, ints({1, 7}))).size(), size_t(2));
        QCOMPARE(causalityKeys(insert(t, {SqlValue::signedInt(1), SqlValue::null()})).size(), size_t(1));
        // Two different rows competing for code 7 share a key.
        auto first = causalityKeys(insert(t, ints({1, 7})));
        auto second = causalityKeys(insert(t, ints({2, 7})));
        QCOMPARE(first[1], second[1]);
    }

    // A nullable unique index downstream (an email handed from row to row) orders the rows that compete
    // for one value; NULL competes with nothing.
    void nullableUniqueIndexOfTheDownstreamIsAKey() {
        schema::TableSchema made = *table("db", "users", {"id", "email"}, {0});
        made.setDownstreamUniqueIndexes({{"id"}, {"email"}});
        auto t = std::make_shared<const schema::TableSchema>(made);
        auto giver = causalityKeys(update(t, ints({1, 7}), ints({1, 8})));
        auto taker = causalityKeys(update(t, ints({2, 9}), ints({2, 7})));
        QVERIFY(std::find(taker.begin(), taker.end(), giver.back()) != taker.end());
        auto nullFirst = causalityKeys(insert(t, {SqlValue::signedInt(3), SqlValue::null()}));
        auto nullSecond = causalityKeys(insert(t, {SqlValue::signedInt(4), SqlValue::null()}));
        QCOMPARE(nullFirst.size(), size_t(1));
        QVERIFY(nullFirst != nullSecond);
    }

    void textKeysDifferingOnlyInCaseOrTrailingSpacesShareAKey() {
        auto t = table("db", "t", {"name"}, {0});
        auto a = causalityKeys(insert(t, {SqlValue::text("Alice")}));
        auto b = causalityKeys(insert(t, {SqlValue::text("alice  ")}));
        QCOMPARE(a, b);
    }

    void tableWithoutAKeyIsOneKeySoOneWorker() {
        auto t = table("db", "nokey", {"a", "b"}, {});
        auto first = causalityKeys(insert(t, ints({1, 2})));
        QCOMPARE(first.size(), size_t(1));
        QCOMPARE(causalityKeys(update(t, ints({3, 4}), ints({5, 6}))), first);
        QVERIFY(causalityKeys(insert(table("db", "other", {"a", "b"}, {}), ints({1, 2}))) != first);
    }

    void changesToOneRowGoToOneWorker() {
        Dispatcher dispatcher(kWorkers);
        auto t = table("db", "t", {"id", "v"}, {0});
        uint64_t sequence = 0;
        auto first = dispatcher.assign(causalityKeys(insert(t, ints({42, 0}))), ++sequence, kNothingCommitted);
        QVERIFY(!first.conflict);
        for (int i = 1; i < 50; ++i) {
            auto decision = dispatcher.assign(causalityKeys(update(t, ints({42, i - 1}), ints({42, i}))), ++sequence,
                                              kNothingCommitted);
            QVERIFY(!decision.conflict);
            QCOMPARE(decision.worker, first.worker);
        }
    }

    void rowsSpreadOverAllWorkers() {
        Dispatcher dispatcher(kWorkers);
        auto t = table("db", "t", {"id"}, {0});
        std::vector<int> perWorker(kWorkers, 0);
        for (int i = 0; i < 1000; ++i) {
            auto decision = dispatcher.assign(causalityKeys(insert(t, ints({i}))), i + 1, kNothingCommitted);
            QVERIFY(!decision.conflict);
            ++perWorker[decision.worker];
        }
        for (size_t w = 0; w < kWorkers; ++w) {
            QVERIFY2(perWorker[w] > 150, qPrintable(QString("worker %1 got %2 of 1000 rows").arg(w).arg(perWorker[w])));
        }
    }

    void keysHeldByTwoWorkersAreAConflict() {
        Dispatcher dispatcher(kWorkers);
        auto t = table("db", "t", {"id"}, {0});
        // Find two ids that land on different workers.
        int a = 1, b = 2;
        auto da = dispatcher.assign(causalityKeys(insert(t, ints({a}))), 1, kNothingCommitted);
        auto db = dispatcher.assign(causalityKeys(insert(t, ints({b}))), 2, kNothingCommitted);
        while (db.worker == da.worker) {
            ++b;
            db = dispatcher.assign(causalityKeys(insert(t, ints({b}))), 2 + b, kNothingCommitted);
        }
        // An update moving row a onto key b touches both workers' rows.
        auto conflict = dispatcher.assign(causalityKeys(update(t, ints({a}), ints({b}))), 100, kNothingCommitted);
        QVERIFY(conflict.conflict);
        // After the barrier the map is cleared and the change goes through.
        dispatcher.clear();
        QVERIFY(!dispatcher.assign(causalityKeys(update(t, ints({a}), ints({b}))), 101, kNothingCommitted).conflict);
    }

    void committedKeysAreReleased() {
        Dispatcher dispatcher(kWorkers);
        auto t = table("db", "t", {"id"}, {0});
        int a = 1, b = 2;
        auto da = dispatcher.assign(causalityKeys(insert(t, ints({a}))), 1, kNothingCommitted);
        auto db = dispatcher.assign(causalityKeys(insert(t, ints({b}))), 2, kNothingCommitted);
        while (db.worker == da.worker) {
            ++b;
            db = dispatcher.assign(causalityKeys(insert(t, ints({b}))), 2, kNothingCommitted);
        }
        std::vector<uint64_t> committed(kWorkers, 0);
        committed[da.worker] = 1;  // row a has committed: its key is free
        auto decision = dispatcher.assign(causalityKeys(update(t, ints({a}), ints({b}))), 3, committed);
        QVERIFY(!decision.conflict);
        QCOMPARE(decision.worker, db.worker);
    }
    void newRowsGoOnlyToTheWorkersAllowedButHeldKeysStayWithTheirWorker() {
        Dispatcher dispatcher(kWorkers);
        auto t = table("db", "t", {"id"}, {0});
        // Spread over every worker first, until some row sits on a worker past the first two.
        int held = 0;
        size_t heldWorker = 0;
        for (int i = 0; heldWorker < 2; ++i) {
            held = i;
            heldWorker = dispatcher.assign(causalityKeys(insert(t, ints({i}))), i + 1, kNothingCommitted).worker;
        }
        uint64_t sequence = 1000;
        std::vector<int> perWorker(kWorkers, 0);
        for (int i = 10000; i < 11000; ++i) {
            auto decision = dispatcher.assign(causalityKeys(insert(t, ints({i}))), ++sequence, kNothingCommitted, 2);
            QVERIFY(!decision.conflict);
            ++perWorker[decision.worker];
        }
        QVERIFY2(perWorker[0] > 300 && perWorker[1] > 300 && perWorker[2] == 0 && perWorker[3] == 0,
                 qPrintable(QString("rows per worker: %1 %2 %3 %4")
                                .arg(perWorker[0])
                                .arg(perWorker[1])
                                .arg(perWorker[2])
                                .arg(perWorker[3])));
        // A row whose key is still held (not committed) follows its worker, whatever the spread.
        auto decision = dispatcher.assign(causalityKeys(erase(t, ints({held}))), ++sequence, kNothingCommitted, 2);
        QVERIFY(!decision.conflict);
        QCOMPARE(decision.worker, heldWorker);
        // Committed, the key is free: it goes where the spread says.
        std::vector<uint64_t> committed(kWorkers, sequence);
        decision = dispatcher.assign(causalityKeys(insert(t, ints({held}))), ++sequence, committed, 1);
        QCOMPARE(decision.worker, size_t(0));
    }

    void manyHeldKeysAreKeptWhenTheTableGrowsAndForgottenOnceCommitted() {
        Dispatcher dispatcher(kWorkers);
        auto t = table("db", "t", {"id"}, {0});
        // More uncommitted rows than the key table holds at first: every one must stay known.
        const int rows = int(Dispatcher::kInitialSlots);
        std::vector<size_t> workerOf(size_t(rows), 0);
        for (int i = 0; i < rows; ++i) {
            workerOf[size_t(i)] =
                dispatcher.assign(causalityKeys(insert(t, ints({i}))), uint64_t(i) + 1, kNothingCommitted).worker;
        }
        QCOMPARE(dispatcher.heldKeys(), size_t(rows));
        uint64_t sequence = uint64_t(rows);
        for (int i = 0; i < rows; i += 997) {
            auto decision =
                dispatcher.assign(causalityKeys(update(t, ints({i}), ints({i}))), ++sequence, kNothingCommitted);
            QVERIFY(!decision.conflict);
            QCOMPARE(decision.worker, workerOf[size_t(i)]);
        }
        // Every worker reports far ahead: each key is free as soon as it is recorded, and the next
        // rebuild forgets them all.
        std::vector<uint64_t> committed(kWorkers, sequence + uint64_t(rows) * 4);
        for (int i = rows; i < rows + rows; ++i) {
            dispatcher.assign(causalityKeys(insert(t, ints({i}))), ++sequence, committed);
        }
        QVERIFY2(dispatcher.heldKeys() < size_t(rows),
                 qPrintable(QString("%1 keys held after every earlier row committed").arg(dispatcher.heldKeys())));
        // Rebuilds reuse the table they replaced: rows held across two more of them keep their worker,
        // whatever the reused table held before.
        uint64_t firstHeld = sequence + 1;
        std::vector<uint64_t> beforeThem(kWorkers, firstHeld - 1);
        std::vector<size_t> laterWorker(size_t(rows), 0);
        for (int i = 0; i < rows; ++i) {
            laterWorker[size_t(i)] =
                dispatcher.assign(causalityKeys(insert(t, ints({3 * rows + i}))), ++sequence, beforeThem).worker;
        }
        QVERIFY(dispatcher.heldKeys() >= size_t(rows));
        for (int i = 0; i < rows; i += 991) {
            auto decision = dispatcher.assign(causalityKeys(update(t, ints({3 * rows + i}), ints({3 * rows + i}))),
                                              ++sequence, beforeThem);
            QVERIFY(!decision.conflict);
            QCOMPARE(decision.worker, laterWorker[size_t(i)]);
        }
    }

    void everyNewKeyOfAChangeIsHeldEvenWhenTwoProbeToOneFreeSlot() {
        // Two new keys of one change may find the same free slot first (their probe chains meet); both
        // must be recorded. Many two-key changes fill the table past where chains meet often.
        Dispatcher dispatcher(kWorkers);
        std::mt19937_64 random(20261207);
        auto keyOffWorkerZero = [&] {
            uint64_t key = random();
            return key % kWorkers == 0 ? key + 1 : key;  // unheld, such a key would go to worker key % 4
        };
        const size_t changes = 4 * Dispatcher::kInitialSlots;
        std::vector<uint64_t> keys;
        uint64_t sequence = 0;
        for (size_t i = 0; i < changes; ++i) {
            std::array<uint64_t, 2> pair{keyOffWorkerZero(), keyOffWorkerZero()};
            auto decision = dispatcher.assign(pair, ++sequence, kNothingCommitted, 1);  // all on worker 0
            QVERIFY(!decision.conflict);
            QCOMPARE(decision.worker, size_t(0));
            keys.insert(keys.end(), pair.begin(), pair.end());
        }
        QCOMPARE(dispatcher.heldKeys(), keys.size());
        size_t lost = 0;
        for (uint64_t key : keys) {
            std::array<uint64_t, 1> one{key};
            lost += dispatcher.assign(one, ++sequence, kNothingCommitted).worker != 0 ? 1 : 0;
        }
        QCOMPARE(lost, size_t(0));
    }
};

QTEST_GUILESS_MAIN(CausalityTest)
#include "test_causality.moc"
