// Key-round order: every key value's changes keep their order, kinds come together within a round, and
// tables the downstream could collide on (or keys it compares by collation) are never reordered. Conflict
// rounds: every pair of changes sharing a carried key keeps its order, and a round shares no key.
#include <QtTest>

#include <random>

#include "engine/apply/causality_keys.h"
#include "engine/apply/key_rounds.h"
#include "tests/engine/apply/row_change_fixtures.h"

using namespace syncscope;
using namespace syncscope::apply;
using namespace syncscope::apply::testing;

namespace {

std::vector<KeyedStep> keyed(const std::vector<RowChange>& changes, const std::vector<int>& ranks) {
    std::vector<KeyedStep> steps;
    for (size_t i = 0; i < changes.size(); ++i) {
        const RowChange& change = changes[i];
        steps.push_back({&change, change.op == RowOp::Delete ? &change.before : &change.after, ranks[i]});
    }
    return steps;
}

RowChange carrying(std::initializer_list<uint64_t> keys) {
    RowChange change;
    std::vector<uint64_t> list(keys);
    carryKeys(change, list);
    return change;
}

std::vector<const RowChange*> pointers(const std::vector<RowChange>& changes) {
    std::vector<const RowChange*> out;
    for (const auto& change : changes) {
        out.push_back(&change);
    }
    return out;
}

}  // namespace

class KeyRoundsTest : public QObject {
    Q_OBJECT

private slots:
    void eachKeyKeepsItsOrderAndKindsComeTogether() {
        auto t = soleKeyTable("db", "t", {"id", "v"}, {0});
        // key 5: insert(1), delete(0), insert(1); key 6: delete(0); key 7: insert(1).
        std::vector<RowChange> changes{insert(t, ints({5, 1})), erase(t, ints({5, 1})), insert(t, ints({7, 1})),
                                       erase(t, ints({6, 1})), insert(t, ints({5, 2}))};
        auto order = keyRoundOrder(keyed(changes, {1, 0, 1, 0, 1}));
        QVERIFY(order.has_value());
        // Round 0: delete 6, then inserts 5 and 7 in their order; round 1: delete 5; round 2: insert 5.
        QCOMPARE(*order, (std::vector<size_t>{3, 0, 2, 1, 4}));
    }

    void keysThatMustKeepTheirOrder_data() {
        QTest::addColumn<int>("shape");
        QTest::addRow("unique indexes downstream not known") << 0;
        QTest::addRow("an update moves its key") << 1;
        QTest::addRow("a text key") << 2;
        QTest::addRow("too few to be worth it") << 3;
    }
    void keysThatMustKeepTheirOrder() {
        QFETCH(int, shape);
        std::shared_ptr<const schema::TableSchema> t = soleKeyTable("db", "t", {"id", "v"}, {0});
        if (shape == 0) {
            t = table("db", "t", {"id", "v"}, {0});
        } else if (shape == 2) {
            t = textKeySoleTable("db", "t");
            QVERIFY(t->rowKeyIsOnlyUniqueIndex());  // only the key's type holds it back
        }
        std::vector<RowChange> changes{update(t, ints({1, 0}), ints({shape == 1 ? 9 : 1, 1})), erase(t, ints({2, 0})),
                                       insert(t, ints({3, 0}))};
        if (shape == 3) {
            changes.pop_back();
        }
        std::vector<int> ranks{3, 0, 1};
        ranks.resize(changes.size());
        QVERIFY(!keyRoundOrder(keyed(changes, ranks)).has_value());
    }

    void aChangeFollowsTheLatestRoundOfAnyKeyItShares() {
        // Keys: 1 | 2 | 1 and 3 | 3 | 4 | 2 and 3.
        std::vector<RowChange> changes{carrying({1}), carrying({2}), carrying({1, 3}),
                                       carrying({3}), carrying({4}), carrying({2, 3})};
        auto rounds = conflictRounds(pointers(changes));
        QVERIFY(rounds.has_value());
        QCOMPARE(*rounds, (std::vector<uint32_t>{1, 1, 2, 3, 1, 4}));
    }

    void aChangeWithoutKeysKeepsTheBatchInOrder() {
        std::vector<RowChange> changes{carrying({1}), carrying({2})};
        changes.push_back(RowChange{});  // made outside the pool
        QVERIFY(!conflictRounds(pointers(changes)).has_value());
        std::vector<uint64_t> tooMany(kCarriedKeys + 1, 7);
        RowChange crowded;
        carryKeys(crowded, tooMany);
        QCOMPARE(int(crowded.carriedKeys), 0);
        changes.back() = crowded;
        QVERIFY(!conflictRounds(pointers(changes)).has_value());
    }

    // 2,000 random changes over few keys (the table grows past its first size, and many keys share a slot):
    // each round is one more than the highest round of an earlier change sharing a key, as counted naively.
    void roundsMatchANaiveCount() {
        std::mt19937_64 random(1414);
        std::vector<RowChange> changes;
        for (int i = 0; i < 2000; ++i) {
            std::vector<uint64_t> keys;
            for (size_t k = 0, n = 1 + random() % kCarriedKeys; k < n; ++k) {
                uint64_t key = (random() % 300) << (random() % 2 == 0 ? 0 : 40);  // equal low bits
                if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
                    keys.push_back(key);
                }
            }
            RowChange change;
            carryKeys(change, keys);
            changes.push_back(change);
        }
        auto rounds = conflictRounds(pointers(changes));
        QVERIFY(rounds.has_value());
        for (size_t i = 0; i < changes.size(); ++i) {
            uint32_t want = 1;
            for (size_t j = 0; j < i; ++j) {
                const RowChange& a = changes[i];
                const RowChange& b = changes[j];
                bool shared = false;
                for (size_t x = 0; x < a.carriedKeys; ++x) {
                    for (size_t y = 0; y < b.carriedKeys; ++y) {
                        shared = shared || a.keys[x] == b.keys[y];
                    }
                }
                if (shared) {
                    want = std::max(want, (*rounds)[j] + 1);
                }
            }
            QCOMPARE((*rounds)[i], want);
        }
    }
};

QTEST_GUILESS_MAIN(KeyRoundsTest)
#include "test_key_rounds.moc"
