// The status composer alone: one snapshot from the task's state, the checkpoint points, a session's live
// view and the upstream: points placed on the upstream's axis, a table point ahead of the persisted global
// point flagged with its distance, the rows of ended and running sessions added up per table, the upstream
// brought up to the furthest point read (never behind a point of the same view), the sequence counted,
// safe mode named when the task asks for it, and the stage, failure and load passed through.
#include <QtTest>

#include "engine/task/status_composer.h"

using namespace syncscope;
using namespace syncscope::task;

namespace {

binlog::Location at(const std::string& file, uint64_t pos) {
    return binlog::Location(binlog::BinlogPosition(file, pos));
}

UpstreamState upstreamAt(uint64_t pos) {
    UpstreamState upstream;
    upstream.files = {{"mariadb-bin.000001", 1000}, {"mariadb-bin.000002", pos}};
    upstream.axis = binlog::PositionAxis(upstream.files);
    upstream.position = binlog::BinlogPosition("mariadb-bin.000002", pos);
    return upstream;
}

}  // namespace

class StatusComposerTest : public QObject {
    Q_OBJECT

private slots:
    void oneConsistentViewOfTheTask() {
        TaskSetup setup;
        setup.taskName = "orders";
        setup.sourceId = "mariadb-01";
        StatusComposer composer(setup);

        checkpoint::TrackerView points;
        points.globalInMemory = at("mariadb-bin.000002", 300);
        points.globalPersisted = at("mariadb-bin.000002", 200);
        points.exitSafePersisted = at("mariadb-bin.000002", 900);
        checkpoint::TrackerView::Table ahead;
        ahead.table = {"shop", "orders"};
        ahead.inMemory = at("mariadb-bin.000002", 350);
        ahead.persisted = at("mariadb-bin.000002", 250);
        checkpoint::TrackerView::Table behind;
        behind.table = {"shop", "items"};
        behind.persisted = at("mariadb-bin.000001", 900);
        points.tables = {ahead, behind};

        TaskStateView state;
        state.stage = Stage::Running;
        state.stageReason = "replicating";
        state.sessionRunning = true;
        state.totals.rowsApplied = 10;
        state.totals.rowsByTable[{"shop", "orders"}] = 10;
        SessionLiveView live;
        live.read = PointView{"mariadb-bin.000002", 600, {}, {}};
        live.applied = PointView{"mariadb-bin.000002", 400, {}, {}};
        live.rowsApplied = 5;
        live.rowsPerTable.push_back({{"shop", "orders"}, 5});

        // The upstream was polled at 500, before the session read up to 600: it is brought up to 600.
        auto first = composer.compose(state, points, live, upstreamAt(500), std::nullopt);
        QCOMPARE(first->sequence, uint64_t{1});
        QCOMPARE(first->taskName, std::string("orders"));
        QCOMPARE(first->stage, Stage::Running);
        QCOMPARE(first->upstream.pos, uint64_t{600});
        QCOMPARE(first->read.axis.value_or(0), uint64_t{1600});
        QCOMPARE(first->applied.axis.value_or(0), uint64_t{1400});
        QCOMPARE(first->globalPersisted.axis.value_or(0), uint64_t{1200});
        QCOMPARE(first->exitSafe.pos, uint64_t{900});
        QCOMPARE(first->rowsApplied, uint64_t{15});
        QCOMPARE(first->tables.size(), size_t{2});
        const auto& orders = first->tables[0];
        QVERIFY(orders.aheadOfGlobal);
        QCOMPARE(orders.bytesFromGlobal, int64_t{50});
        QCOMPARE(orders.rowsApplied, uint64_t{15});
        const auto& items = first->tables[1];
        QVERIFY(!items.aheadOfGlobal);
        QCOMPARE(items.bytesFromGlobal, int64_t{-300});
        QVERIFY(!first->safeMode);

        // The next snapshot counts on; a task that asks for safe mode throughout says so; a failure and a
        // load pass through.
        setup.syncer.safeMode = true;
        state.stage = Stage::Error;
        state.failedEvent = FailedEvent{};
        state.failedEvent->errorCode = 1054;
        state.lastError = "Unknown column";
        load::LoadProgressView load;
        load.finished = true;
        auto second = composer.compose(state, points, live, upstreamAt(700), load);
        QCOMPARE(second->sequence, uint64_t{2});
        QCOMPARE(second->upstream.pos, uint64_t{700});
        QVERIFY(second->safeMode);
        QCOMPARE(second->safeModeReason, std::string("the task sets safe-mode: true"));
        QCOMPARE(second->failedEvent->errorCode, 1054);
        QCOMPARE(second->lastError, std::string("Unknown column"));
        QVERIFY(second->load && second->load->finished);
    }
};

QTEST_GUILESS_MAIN(StatusComposerTest)
#include "test_status_composer.moc"
