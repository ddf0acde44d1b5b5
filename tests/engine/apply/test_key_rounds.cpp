// Key-round order: every key value's changes keep their order, kinds come together within a round, and
// tables the downstream could collide on (or keys it compares by collation) are never reordered.
#include <QtTest>

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
};

QTEST_GUILESS_MAIN(KeyRoundsTest)
#include "test_key_rounds.moc"
