// bench_gui_models: 10,000 tables refreshing 10 times a second through the real models (the table
// checkpoint model behind its sorting, filtering proxy, and the history recorder). Each tick builds a new
// snapshot in which a tenth of the tables moved, as a busy engine would publish, and times the model
// update alone. Prints the median and the maximum per tick; the goal is a median under 5 ms.
#include <QGuiApplication>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "ui/models/history_recorder.h"
#include "ui/models/table_checkpoint_filter_proxy.h"
#include "ui/models/table_checkpoint_model.h"

namespace {

constexpr int kTables = 10000;
constexpr int kTicks = 200;
constexpr int kTicksPerSecond = 10;
constexpr int kMovedShare = 10;  // one table in ten moves per tick
constexpr uint64_t kFileSize = 256ULL * 1024 * 1024;
constexpr double kGoalMilliseconds = 5.0;

syncscope::task::PointView at(uint64_t axis) {
    syncscope::task::PointView point;
    point.file = "mysql-bin.00000" + std::to_string(axis / kFileSize + 1);
    point.pos = axis % kFileSize;
    point.axis = axis;
    return point;
}

std::shared_ptr<syncscope::task::StatusSnapshot> makeSnapshot(
    int tick, const std::shared_ptr<syncscope::task::StatusSnapshot>& previous) {
    auto snapshot = previous ? std::make_shared<syncscope::task::StatusSnapshot>(*previous)
                             : std::make_shared<syncscope::task::StatusSnapshot>();
    snapshot->sequence = uint64_t(tick);
    snapshot->takenAt = syncscope::task::Clock::now() + std::chrono::milliseconds(100 * tick);
    const uint64_t global = 1000000 + uint64_t(tick) * 5000;
    snapshot->upstreamFiles = {{"mysql-bin.000001", kFileSize}, {"mysql-bin.000002", kFileSize}};
    snapshot->upstream = at(global + 900000);
    snapshot->globalPersisted = at(global);
    snapshot->lagSeconds = 0.5;
    snapshot->recentRowsPerSecond = 40000;
    if (snapshot->tables.empty()) {
        for (int i = 0; i < kTables; ++i) {
            syncscope::task::TablePointView table;
            table.schema = "db" + std::to_string(i % 50);
            table.table = "table_" + std::to_string(i);
            table.inMemory = at(uint64_t(i) * 10);
            table.persisted = table.inMemory;
            snapshot->tables.push_back(table);
        }
    }
    for (int i = tick % kMovedShare; i < kTables; i += kMovedShare) {
        auto& table = snapshot->tables[size_t(i)];
        table.inMemory = at(global + uint64_t(i % 997));
        table.persisted = at(global - uint64_t(i % 991));
        table.rowsApplied += 7;
        table.bytesFromGlobal = int64_t(*table.persisted.axis) - int64_t(global);
        table.lastChange = snapshot->takenAt;
    }
    snapshot->tables[42].aheadOfGlobal = true;  // one flagged table, as in the screenshots
    return snapshot;
}

}  // namespace

int main(int argc, char** argv) {
    QGuiApplication app(argc, argv);
    syncscope::ui::TableCheckpointModel model;
    syncscope::ui::TableCheckpointFilterProxy proxy;
    proxy.setSourceModel(&model);
    proxy.sort(syncscope::ui::TableCheckpointModel::BytesFromGlobalColumn, Qt::DescendingOrder);
    syncscope::ui::HistoryRecorder history;

    // Snapshots are built before timing: building them is the engine's cost, not the GUI's.
    std::vector<std::shared_ptr<syncscope::task::StatusSnapshot>> snapshots;
    std::shared_ptr<syncscope::task::StatusSnapshot> previous;
    for (int tick = 0; tick <= kTicks; ++tick) {
        previous = makeSnapshot(tick, previous);
        snapshots.push_back(previous);
    }
    model.setSnapshot(snapshots.front());  // the first one is a reset, as when a task opens

    std::vector<double> milliseconds;
    int changedRows = 0;
    for (int tick = 1; tick <= kTicks; ++tick) {
        const auto begin = std::chrono::steady_clock::now();
        changedRows += model.setSnapshot(snapshots[size_t(tick)]).changedRows;
        history.record(*snapshots[size_t(tick)]);
        milliseconds.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count());
    }
    std::vector<double> sorted = milliseconds;
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted[sorted.size() / 2];
    std::printf("tables %d, ticks %d (%d per second), rows changed per tick %d\n", kTables, kTicks, kTicksPerSecond,
                changedRows / kTicks);
    std::printf("model update per tick: median %.3f ms, max %.3f ms (goal: median < %.0f ms) -> %s\n", median,
                sorted.back(), kGoalMilliseconds, median < kGoalMilliseconds ? "ok" : "TOO SLOW");
    return median < kGoalMilliseconds ? 0 : 1;
}
