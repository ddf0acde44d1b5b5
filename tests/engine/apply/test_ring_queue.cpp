// The apply workers' queue of row changes (issue 12): a ring that keeps its capacity, so pushing and
// popping allocate nothing once it has grown; it must keep order through wrap-around and growth.
#include <QtTest>

#include <memory>

#include "engine/apply/ring_queue.h"

using namespace syncscope::apply;

class RingQueueTest : public QObject {
    Q_OBJECT

private slots:
    void keepsOrderThroughWrapAndGrowth() {
        RingQueue<std::unique_ptr<int>> queue;
        int next = 0;
        int expected = 0;
        // Interleave pushes and pops so that the head wraps around, then push past the capacity.
        for (int round = 0; round < 50; ++round) {
            for (int i = 0; i < 3 + round; ++i) {
                queue.push_back(std::make_unique<int>(next++));
            }
            for (int i = 0; i < 2 + round / 2 && !queue.empty(); ++i) {
                std::unique_ptr<int> item = std::move(queue.front());
                queue.pop_front();
                QCOMPARE(*item, expected++);
            }
        }
        QCOMPARE(queue.size(), size_t(next - expected));
        while (!queue.empty()) {
            QCOMPARE(*queue.front(), expected++);
            queue.pop_front();
        }
        QCOMPARE(expected, next);
    }

    void emptyAfterEverythingIsPopped() {
        RingQueue<int> queue;
        QVERIFY(queue.empty());
        queue.push_back(7);
        QCOMPARE(queue.size(), size_t(1));
        QCOMPARE(queue.front(), 7);
        queue.pop_front();
        QVERIFY(queue.empty());
    }
};

QTEST_GUILESS_MAIN(RingQueueTest)
#include "test_ring_queue.moc"
