// ChunkQueue: pending chunks go out largest first and done ones never; a chunk held for a key walk is
// not handed out, its walked chunks take its place (the first under its name) and join the queue; a
// worker waits while a walk may still add chunks and ends when none can come, or at once on halt; the
// plan afterwards holds every chunk once, walked tables by their walked chunks.
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <thread>

#include "engine/load/chunk_queue.h"

using namespace syncscope::load;

namespace {

LoadChunk chunk(const std::string& table, size_t index, uint64_t rows, bool done = false) {
    LoadChunk c;
    c.upstream = {"s", table};
    c.target = c.upstream;
    c.keyColumns = {"k"};
    c.name = "s." + table + "." + std::to_string(100000 + index).substr(1);
    c.estimatedRows = rows;
    c.done = done;
    return c;
}

std::vector<LoadChunk> walkedOf(const std::string& table, size_t count, uint64_t rows) {
    std::vector<LoadChunk> walked;
    for (size_t i = 0; i < count; ++i) {
        LoadChunk c = chunk(table, i, rows);
        if (i > 0) {
            c.lower = KeyBound{"'" + std::to_string(i) + "'"};
        }
        if (i + 1 < count) {
            c.upper = KeyBound{"'" + std::to_string(i + 1) + "'"};
        }
        walked.push_back(c);
    }
    return walked;
}

bool isText(const LoadChunk& c) {
    return c.upstream.table == "text";
}

}  // namespace

class ChunkQueueTest : public QObject {
    Q_OBJECT

private slots:
    void largestFirstAndDoneNever() {
        std::atomic<bool> halt{false};
        ChunkQueue queue({chunk("a", 0, 10), chunk("a", 1, 30, true), chunk("b", 0, 20), chunk("c", 0, 20)},
                         [](const LoadChunk&) { return false; });
        QVERIFY(queue.heldForWalk().empty());
        std::vector<std::string> order;
        while (LoadChunk* c = queue.next(halt)) {
            order.push_back(c->name);
        }
        // Equal estimates go by name.
        QCOMPARE(order, (std::vector<std::string>{"s.b.00000", "s.c.00000", "s.a.00000"}));
    }

    void walkedChunksReplaceTheHeldChunkAndJoinTheQueue() {
        std::atomic<bool> halt{false};
        ChunkQueue queue({chunk("int", 0, 5), chunk("text", 0, 900)}, isText);
        QCOMPARE(queue.heldForWalk().size(), size_t{1});
        LoadChunk* held = queue.heldForWalk().front();
        QCOMPARE(held->name, std::string("s.text.00000"));

        // The held chunk is not handed out: the integer chunk is, then the worker waits for the walk.
        LoadChunk* first = queue.next(halt);
        QVERIFY(first != nullptr);
        QCOMPARE(first->name, std::string("s.int.00000"));
        auto waiting = std::async(std::launch::async, [&] { return queue.next(halt); });
        QVERIFY(waiting.wait_for(std::chrono::milliseconds(150)) == std::future_status::timeout);

        queue.walkEnded(*held, walkedOf("text", 3, 300));
        LoadChunk* fromWalk = waiting.get();
        QVERIFY(fromWalk != nullptr);
        QCOMPARE(fromWalk->upstream.table, std::string("text"));
        std::vector<std::string> rest{fromWalk->name};
        while (LoadChunk* c = queue.next(halt)) {
            rest.push_back(c->name);
        }
        std::sort(rest.begin(), rest.end());
        QCOMPARE(rest, (std::vector<std::string>{"s.text.00000", "s.text.00001", "s.text.00002"}));

        // The plan: every chunk once, the held chunk now the first walked one (with its upper bound).
        std::vector<LoadChunk> plan = queue.plan();
        QCOMPARE(plan.size(), size_t{4});
        QCOMPARE(plan[1].name, std::string("s.text.00000"));
        QVERIFY(!plan[1].lower.has_value());
        QCOMPARE(plan[1].upper, std::optional<KeyBound>(KeyBound{"'1'"}));
        QCOMPARE(plan[3].lower, std::optional<KeyBound>(KeyBound{"'2'"}));
        QVERIFY(!plan[3].upper.has_value());
    }

    void aWalkThatEndsWithoutChunksLeavesTheHeldChunkPendingAndEndsTheWait() {
        std::atomic<bool> halt{false};
        ChunkQueue queue({chunk("text", 0, 900)}, isText);
        LoadChunk* held = queue.heldForWalk().front();
        auto waiting = std::async(std::launch::async, [&] { return queue.next(halt); });
        QVERIFY(waiting.wait_for(std::chrono::milliseconds(150)) == std::future_status::timeout);
        queue.walkEnded(*held, {});
        QCOMPARE(waiting.get(), static_cast<LoadChunk*>(nullptr));
        std::vector<LoadChunk> plan = queue.plan();
        QCOMPARE(plan.size(), size_t{1});
        QVERIFY(!plan[0].done);
        QVERIFY(!plan[0].upper.has_value());
    }

    void haltEndsAWaitingWorker() {
        std::atomic<bool> halt{false};
        ChunkQueue queue({chunk("text", 0, 900)}, isText);
        auto waiting = std::async(std::launch::async, [&] { return queue.next(halt); });
        QVERIFY(waiting.wait_for(std::chrono::milliseconds(150)) == std::future_status::timeout);
        halt = true;
        QVERIFY(waiting.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
        QCOMPARE(waiting.get(), static_cast<LoadChunk*>(nullptr));
    }
};

QTEST_GUILESS_MAIN(ChunkQueueTest)
#include "test_chunk_queue.moc"
