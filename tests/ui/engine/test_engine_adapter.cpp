// The engine adapter against a TaskControl that behaves like the engine (SimulatedTask; the real
// engine is wired to the GUI by another test later): snapshots are emitted only when they change,
// notices and log lines arrive in batches, commands run off the GUI thread and come back with the
// engine's answer, refusals included, and the table model follows the snapshots.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QThread>
#include <QtTest>

#include "tests/ui/support/release_watching_task.h"
#include "tests/ui/support/simulated_task.h"
#include "ui/engine/engine_adapter.h"
#include "ui/models/table_checkpoint_model.h"

Q_DECLARE_METATYPE(std::vector<syncscope::task::Notice>)
Q_DECLARE_METATYPE(std::vector<syncscope::LogLine>)

using namespace syncscope;
using namespace syncscope::ui;
using syncscope::task::Stage;
using syncscope::test::SimulatedTask;

class EngineAdapterTest : public QObject {
    Q_OBJECT

private slots:
    void refreshRateIsClampedToFourToTenPerSecond_data() {
        QTest::addColumn<int>("asked");
        QTest::addColumn<int>("expected");
        QTest::addRow("too slow") << 1 << 4;
        QTest::addRow("in range") << 6 << 6;
        QTest::addRow("too fast") << 60 << 10;
    }

    void refreshRateIsClampedToFourToTenPerSecond() {
        QFETCH(int, asked);
        QFETCH(int, expected);
        EngineAdapter adapter;
        adapter.setRefreshRate(asked);
        QCOMPARE(adapter.refreshRate(), expected);
    }

    // The engine allocated the snapshot: freeing it on the GUI thread waited on the engine thread's malloc arena
    // (bench_gui_fleet: 100 ms in _int_free from TableCheckpointModel::setSnapshot on a busy machine).
    void aReplacedSnapshotIsFreedOffTheGuiThread() {
        auto task = std::make_shared<syncscope::test::ReleaseWatchingTask>();
        EngineAdapter adapter;
        std::shared_ptr<const syncscope::task::StatusSnapshot> shown;  // a view keeps the latest, as the models do
        connect(
            &adapter, &EngineAdapter::snapshotChanged, this,
            [&shown](std::shared_ptr<const syncscope::task::StatusSnapshot> snapshot) { shown = std::move(snapshot); });
        adapter.attachTask(task);
        adapter.refreshNow();  // the adapter and the view hold the first snapshot
        task->publishNext();   // the engine lets go of it
        adapter.refreshNow();  // both take the second one
        QCOMPARE(shown->sequence, uint64_t(2));
        QTRY_VERIFY(task->freedOn() != nullptr);
        QVERIFY(task->freedOn() != QThread::currentThread());
        adapter.detachTask();
    }

    void snapshotsAreEmittedOnlyWhenTheyChange() {
        auto task = std::make_shared<SimulatedTask>(3);
        EngineAdapter adapter;
        QSignalSpy snapshots(&adapter, &EngineAdapter::snapshotChanged);
        adapter.attachTask(task);
        QCOMPARE(snapshots.count(), 1);
        QVERIFY(adapter.isPolling());
        adapter.refreshNow();
        adapter.refreshNow();
        QCOMPARE(snapshots.count(), 1);
        task->advance(1000, 10);
        adapter.refreshNow();
        QCOMPARE(snapshots.count(), 2);
        QCOMPARE(adapter.lastSnapshot()->sequence, task->status()->sequence);
    }

    void commandsFollowTheStageMachineWithRefusals_data() {
        QTest::addColumn<QStringList>("commands");
        QTest::addColumn<QStringList>("answers");
        QTest::addColumn<int>("finalStage");
        QTest::addRow("start pause resume stop") << QStringList{"start", "pause", "resume", "stop"}
                                                 << QStringList{"ok", "ok", "ok", "ok"} << int(Stage::Stopped);
        QTest::addRow("pause before start is refused")
            << QStringList{"pause", "start", "start"} << QStringList{"refused", "ok", "refused"} << int(Stage::Running);
        QTest::addRow("resume while running is refused")
            << QStringList{"start", "resume", "stop", "stop"} << QStringList{"ok", "refused", "ok", "refused"}
            << int(Stage::Stopped);
        QTest::addRow("skip without a failed event is refused")
            << QStringList{"start", "skip"} << QStringList{"ok", "refused"} << int(Stage::Running);
    }

    void commandsFollowTheStageMachineWithRefusals() {
        QFETCH(QStringList, commands);
        QFETCH(QStringList, answers);
        QFETCH(int, finalStage);
        auto task = std::make_shared<SimulatedTask>(2);
        EngineAdapter adapter;
        adapter.attachTask(task);
        QSignalSpy finished(&adapter, &EngineAdapter::commandFinished);
        for (int i = 0; i < commands.size(); ++i) {
            const QString& command = commands[i];
            if (command == "start")
                adapter.start();
            if (command == "pause")
                adapter.pause();
            if (command == "resume")
                adapter.resume();
            if (command == "stop")
                adapter.stop();
            if (command == "skip")
                adapter.skipFailedEvent();
            QTRY_COMPARE(finished.count(), i + 1);
            const auto result = finished.at(i).at(1).value<task::CommandResult>();
            QCOMPARE(result.accepted ? QStringLiteral("ok") : QStringLiteral("refused"), answers[i]);
            if (!result.accepted) {
                QVERIFY2(!result.reason.empty(), "a refusal says why");
            }
        }
        QCOMPARE(adapter.commandsInFlight(), 0);
        QCOMPARE(int(adapter.lastSnapshot()->stage), finalStage);
    }

    void noticesArriveInBatchesAndTheTableModelFollows() {
        auto task = std::make_shared<SimulatedTask>(4);
        EngineAdapter adapter;
        TableCheckpointModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        connect(&adapter, &EngineAdapter::snapshotChanged, &model, &TableCheckpointModel::setSnapshot);
        QSignalSpy notices(&adapter, &EngineAdapter::noticesArrived);
        adapter.attachTask(task);
        QCOMPARE(model.rowCount(), 4);
        task->start();
        task->pause();
        task->resume();
        adapter.refreshNow();
        QCOMPARE(notices.count(), 1);
        QCOMPARE(notices.at(0).at(0).value<std::vector<task::Notice>>().size(), size_t(3));

        task->advance(50000, 400);
        task->flush();
        task->putTableAhead(2, 700, 9);
        adapter.refreshNow();
        QCOMPARE(model.aheadCount(), 1);
        QVERIFY(
            model.index(2, TableCheckpointModel::FlagColumn).data(TableCheckpointModel::AheadOfGlobalRole).toBool());
        QCOMPARE(model.index(2, TableCheckpointModel::BytesFromGlobalColumn).data(TableCheckpointModel::SortRole),
                 QVariant(qlonglong(700)));
        quint64 rows = 0;
        for (int row = 0; row < model.rowCount(); ++row) {
            rows += model.index(row, TableCheckpointModel::RowsAppliedColumn)
                        .data(TableCheckpointModel::SortRole)
                        .toULongLong();
        }
        QCOMPARE(rows, quint64(400));
    }

    void logLinesAreDrainedFromTheRingOnTheTimer() {
        auto ring = std::make_shared<LogRing>(10);
        EngineAdapter adapter;
        QSignalSpy lines(&adapter, &EngineAdapter::logLinesArrived);
        adapter.setLogRing(ring);
        for (int i = 0; i < 12; ++i) {
            ring->push({{}, LogLevel::Info, "source", "event " + std::to_string(i)});
        }
        QTRY_COMPARE(lines.count(), 1);  // the timer, not a call per line
        const auto batch = lines.at(0).at(0).value<std::vector<LogLine>>();
        QCOMPARE(batch.size(), size_t(10));
        QCOMPARE(lines.at(0).at(1).value<uint64_t>(), uint64_t(2));
    }
};

QTEST_MAIN(EngineAdapterTest)
#include "test_engine_adapter.moc"
