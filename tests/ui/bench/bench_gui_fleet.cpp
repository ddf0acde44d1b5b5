// bench_gui_fleet: the main window offscreen over a fleet of 20 channels with 50,000 tables in all, every
// channel publishing a new snapshot 10 times a second: 10 local channels (snapshots published by engine
// threads) and 10 remote engines (real control servers on loopback, polled by RemoteTask over HTTP), the
// overview refreshed at 10 Hz and one local channel open in the task view. Prints the GUI thread's
// overview refresh per tick (median, max), its work per second, and the longest GUI-thread stall,
// against a reference run of one channel of 2,500 tables in the same invocation.
// Goal: overview update under 5 ms per tick, no stall over 50 ms.
#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/control/control_server.h"
#include "ui/engine/engine_adapter.h"
#include "ui/fleet/fleet_model.h"
#include "ui/main/main_window.h"

namespace {

constexpr int kChannels = 20;
constexpr int kTablesPerChannel = 2500;  // 50,000 in all
constexpr int kPublishHz = 10;
constexpr int kRefreshHz = 10;
constexpr int kSeconds = 10;
constexpr int kMovedShare = 10;
constexpr int kStallProbeMs = 10;
constexpr uint64_t kFileSize = 256ULL * 1024 * 1024;
constexpr double kGoalTickMs = 5.0;
constexpr double kGoalStallMs = 50.0;

syncscope::task::PointView at(uint64_t axis) {
    syncscope::task::PointView point;
    point.file = "mysql-bin.00000" + std::to_string(axis / kFileSize + 1);
    point.pos = axis % kFileSize;
    point.axis = axis;
    return point;
}

// A channel whose engine publishes a new snapshot on every publish(): a tenth of its tables move.
class PublishingTask : public syncscope::task::TaskControl {
public:
    explicit PublishingTask(int id) : id_(id) { publish(); }
    std::shared_ptr<const syncscope::task::StatusSnapshot> status() const override {
        std::lock_guard lock(mutex_);
        return current_;
    }
    std::vector<syncscope::task::Notice> drainNotices(size_t) override { return {}; }
    syncscope::task::CommandResult start() override { return {true, "started"}; }
    syncscope::task::CommandResult pause() override { return {true, "paused"}; }
    syncscope::task::CommandResult resume() override { return {true, "resumed"}; }
    syncscope::task::CommandResult stop() override { return {true, "stopped"}; }
    syncscope::task::CommandResult skipFailedEvent(const syncscope::task::SkipEvidence&) override {
        return {false, "nothing failed"};
    }
    syncscope::task::CommandResult resumeFrom(const syncscope::task::ResumeTarget&) override { return {false, "no"}; }

    void publish() {
        auto next = current_ ? std::make_shared<syncscope::task::StatusSnapshot>(*status())
                             : std::make_shared<syncscope::task::StatusSnapshot>();
        ++tick_;
        const uint64_t global = 1000000 + tick_ * 5000;
        next->sequence = tick_;
        next->takenAt = syncscope::task::Clock::now();
        next->taskName = "channel-" + std::to_string(id_);
        next->stage = syncscope::task::Stage::Running;
        next->upstreamFiles = {{"mysql-bin.000001", kFileSize}, {"mysql-bin.000002", kFileSize}};
        next->upstream = at(global + 900000);
        next->read = at(global + 800000);
        next->globalPersisted = at(global);
        next->lagSeconds = double(tick_ % 7);
        next->recentRowsPerSecond = 1000.0 * double(id_ + 1);
        if (next->tables.empty()) {
            for (int i = 0; i < kTablesPerChannel; ++i) {
                syncscope::task::TablePointView table;
                table.schema = "db" + std::to_string(i % 50);
                table.table = "t" + std::to_string(i);
                table.persisted = table.inMemory = at(uint64_t(i) * 10);
                next->tables.push_back(table);
            }
        }
        for (size_t i = tick_ % kMovedShare; i < next->tables.size(); i += kMovedShare) {
            next->tables[i].inMemory = at(global + i % 997);
            next->tables[i].persisted = at(global - i % 991);
            next->tables[i].rowsApplied += 3;
        }
        std::lock_guard lock(mutex_);
        current_ = std::move(next);
    }

private:
    int id_;
    uint64_t tick_ = 0;
    mutable std::mutex mutex_;
    std::shared_ptr<const syncscope::task::StatusSnapshot> current_;
};

struct Figures {
    double tickMedian = 0;
    double tickMax = 0;
    double workPerSecondMedian = 0;
    double longestStall = 0;
};

Figures run(int channels) {
    std::vector<std::shared_ptr<PublishingTask>> tasks;
    std::vector<std::unique_ptr<syncscope::control::ControlServer>> servers;
    syncscope::ui::MainWindow window;
    window.resize(1280, 800);
    window.show();
    window.fleetTimer()->stop();  // this benchmark refreshes and times the overview itself
    for (int i = 0; i < channels; ++i) {
        tasks.push_back(std::make_shared<PublishingTask>(i));
        if (i % 2 == 0 || channels == 1) {
            syncscope::ui::ChannelSpec spec;
            spec.taskPath = QStringLiteral("/bench/channel-%1.yaml").arg(i);
            spec.sourcePath = QStringLiteral("/bench/source-%1.yaml").arg(i);
            window.fleet()->addGroup(syncscope::ui::localTaskGroup(spec, tasks.back()));
        } else {
            servers.push_back(std::make_unique<syncscope::control::ControlServer>(
                *tasks.back(), syncscope::control::ControlServerOptions{}));
            syncscope::ui::ChannelSpec spec;
            spec.kind = syncscope::ui::ChannelKind::RemoteEngine;
            spec.host = QStringLiteral("127.0.0.1");
            spec.port = servers.back()->port();
            window.addChannel(spec);
        }
    }
    window.refreshFleet();
    window.openChannel(0);  // one channel's task view open as well (its own adapter at its own rate)
    window.showOverview();

    std::atomic<bool> publishing = true;
    std::thread engines([&] {
        while (publishing) {
            for (auto& task : tasks) {
                task->publish();
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(1000 / kPublishHz));
        }
    });

    std::vector<double> ticks;
    std::vector<double> perSecond(kSeconds + 1, 0.0);
    QElapsedTimer clock;
    clock.start();
    QTimer refresh;
    refresh.setInterval(1000 / kRefreshHz);
    QObject::connect(&refresh, &QTimer::timeout, [&] {
        QElapsedTimer cost;
        cost.start();
        window.refreshFleet();
        const double ms = double(cost.nsecsElapsed()) / 1e6;
        ticks.push_back(ms);
        perSecond[size_t(std::min<qint64>(clock.elapsed() / 1000, kSeconds))] += ms;
    });
    double longestStall = 0;
    qint64 lastProbe = clock.elapsed();
    QTimer probe;
    probe.setInterval(kStallProbeMs);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        const qint64 now = clock.elapsed();
        longestStall = std::max(longestStall, double(now - lastProbe - kStallProbeMs));
        lastProbe = now;
    });
    refresh.start();
    probe.start();
    // A local loop, not QApplication::quit(): quitting closes the windows, and the main window waits for a
    // running local task to stop before it closes.
    QEventLoop loop;
    QTimer::singleShot(kSeconds * 1000, &loop, &QEventLoop::quit);
    loop.exec();
    publishing = false;
    engines.join();
    window.detachTask();

    std::sort(ticks.begin(), ticks.end());
    perSecond.pop_back();
    std::sort(perSecond.begin(), perSecond.end());
    Figures figures;
    figures.tickMedian = ticks.empty() ? 0 : ticks[ticks.size() / 2];
    figures.tickMax = ticks.empty() ? 0 : ticks.back();
    figures.workPerSecondMedian = perSecond[perSecond.size() / 2];
    figures.longestStall = longestStall;
    return figures;
}

void print(const char* name, const Figures& f) {
    std::printf(
        "%s: overview refresh per tick median %.3f ms, max %.3f ms; GUI-thread overview work %.1f ms/s; "
        "longest stall %.0f ms\n",
        name, f.tickMedian, f.tickMax, f.workPerSecondMedian, f.longestStall);
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    std::printf("fleet: %d channels (half local, half remote over HTTP), %d tables each (%d in all), %d Hz\n",
                kChannels, kTablesPerChannel, kChannels * kTablesPerChannel, kPublishHz);
    const Figures reference = run(1);
    print("reference, 1 local channel", reference);
    const Figures fleet = run(kChannels);
    print("fleet, 20 channels", fleet);
    std::printf("ratio fleet / reference: per tick %.1fx, work per second %.1fx\n",
                reference.tickMedian > 0 ? fleet.tickMedian / reference.tickMedian : 0.0,
                reference.workPerSecondMedian > 0 ? fleet.workPerSecondMedian / reference.workPerSecondMedian : 0.0);
    const bool ok = fleet.tickMedian < kGoalTickMs && fleet.longestStall <= kGoalStallMs;
    std::printf("goal: overview update < %.0f ms per tick and no stall > %.0f ms -> %s\n", kGoalTickMs, kGoalStallMs,
                ok ? "ok" : "MISSED");
    return ok ? 0 : 1;
}
