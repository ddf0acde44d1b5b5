// bench_gui_ruler: the position ruler's cost on 10,000 tables. Each tick a new snapshot (a tenth of the
// table points moved, one in a hundred ahead of the global point) is handed to the ruler and the ruler is
// painted into an image at 1280 and 1920 pixels, as the task view does ten times a second. A reference
// run with 10 tables in the same invocation gives the ratio. Prints the median and the maximum per tick;
// the goal is a median under 5 ms for 10,000 tables (the GUI's tick budget, as bench_gui_models).
#include <QApplication>
#include <QImage>
#include <QPainter>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "tests/ui/bench/bench_axis.h"
#include "ui/widgets/position_ruler.h"

namespace {

constexpr int kTicks = 200;
constexpr uint64_t kFileSize = syncscope::bench::kBenchFileSize;
constexpr double kGoalMilliseconds = 5.0;

using syncscope::bench::benchPoint;

std::shared_ptr<const syncscope::task::StatusSnapshot> makeSnapshot(int tick, int tables) {
    auto snapshot = std::make_shared<syncscope::task::StatusSnapshot>();
    const uint64_t global = 1000000 + uint64_t(tick) * 5000;
    for (int file = 0; file < 4; ++file) {
        snapshot->upstreamFiles.push_back({"mysql-bin.00000" + std::to_string(file + 1), kFileSize});
    }
    snapshot->upstream = benchPoint(3 * kFileSize + 1000000 + uint64_t(tick) * 9000);
    snapshot->read = benchPoint(global + 2 * kFileSize);
    snapshot->applied = benchPoint(global + 2 * kFileSize - 4000);
    snapshot->globalInMemory = benchPoint(global + 2 * kFileSize - 9000);
    snapshot->globalPersisted = benchPoint(global);
    snapshot->exitSafe = benchPoint(global + 2 * kFileSize + 64 * 1024 * 1024);
    snapshot->tables.reserve(size_t(tables));
    for (int i = 0; i < tables; ++i) {
        syncscope::task::TablePointView table;
        table.schema = "shop";
        table.table = "t" + std::to_string(i);
        const bool moved = (i + tick) % 10 == 0;
        const uint64_t point = global + uint64_t(i) * 131 + (moved ? uint64_t(tick) * 17 : 0);
        table.persisted = benchPoint(i % 100 == 0 ? point + 300000 : point);
        table.inMemory = table.persisted;
        table.aheadOfGlobal = i % 100 == 0;
        table.bytesFromGlobal = int64_t(*table.persisted.axis) - int64_t(global);
        snapshot->tables.push_back(std::move(table));
    }
    return snapshot;
}

struct Figures {
    double median = 0;
    double max = 0;
};

Figures run(int tables, int width) {
    syncscope::ui::PositionRuler ruler;
    ruler.resize(width, ruler.sizeHint().height());
    std::vector<std::shared_ptr<const syncscope::task::StatusSnapshot>> snapshots;
    for (int tick = 0; tick < kTicks; ++tick) {
        snapshots.push_back(makeSnapshot(tick, tables));
    }
    QImage image(ruler.size(), QImage::Format_ARGB32_Premultiplied);
    std::vector<double> milliseconds;
    for (const auto& snapshot : snapshots) {
        const auto started = std::chrono::steady_clock::now();
        ruler.setSnapshot(snapshot);
        image.fill(Qt::transparent);
        ruler.render(&image);
        milliseconds.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count());
    }
    std::sort(milliseconds.begin(), milliseconds.end());
    return {milliseconds[milliseconds.size() / 2], milliseconds.back()};
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    bool ok = true;
    for (int width : {1280, 1920}) {
        const Figures reference = run(10, width);
        const Figures many = run(10000, width);
        std::printf(
            "%d px: 10 tables median %.3f ms (max %.3f); 10,000 tables median %.3f ms (max %.3f); "
            "ratio %.2fx\n",
            width, reference.median, reference.max, many.median, many.max, many.median / reference.median);
        ok = ok && many.median < kGoalMilliseconds;
    }
    std::printf("goal: median < %.0f ms per tick with 10,000 tables -> %s\n", kGoalMilliseconds,
                ok ? "ok" : "TOO SLOW");
    return ok ? 0 : 1;
}
