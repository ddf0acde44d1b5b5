// bench_gui_fleet: the main window offscreen over a fleet of 20 channels with 50,000 tables in all, every
// channel publishing a new snapshot 10 times a second: 10 local channels (snapshots published by engine
// threads) and 10 remote engines (real control servers on loopback, polled by RemoteTask over HTTP), the
// overview refreshed at 10 Hz and one local channel open in the task view. With the private MariaDB pair running
// (scripts/bench-gui starts it), local channel 0 is the engine's real Task applying a backlog at full speed
// (applying_channel.h) instead of a synthetic one. Prints the GUI thread's
// overview refresh per tick (median, max), its work per second, and the longest GUI-thread stall,
// against a reference run of one channel of 2,500 tables in the same invocation. The longest gaps are split
// into the GUI thread's own work, its wait for a core and the rest (gui_thread_probe.h), and the process's
// CPU time is summed by nice value: on a small machine the bench's own 40 background threads compete with
// the GUI thread. They run at the engine threads' lower priority (nice +5, as `syncscope` runs its local
// engines; BENCH_ENGINE_NICE=N to change it, 0 for none).
// Goal: overview update under 5 ms per tick, no stall over 50 ms.
#include <malloc.h>
#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTemporaryDir>
#include <QTimer>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "engine/common/thread_priority.h"
#include "engine/control/control_server.h"
#include "tests/ui/bench/applying_channel.h"
#include "tests/ui/bench/gui_thread_probe.h"
#include "ui/engine/engine_adapter.h"
#include "ui/engine/malloc_arenas.h"
#include "ui/fleet/fleet_model.h"
#include "ui/main/fleet_controller.h"
#include "ui/main/main_window.h"

namespace {

constexpr int kChannels = 20;
constexpr int kTablesPerChannel = 2500;  // 50,000 in all
constexpr int kPublishHz = 10;
constexpr int kRefreshHz = 10;
constexpr int kSeconds = 10;
constexpr int kMovedShare = 10;
constexpr int kEngineNiceIncrement = 5;  // as app/gui/main.cpp
constexpr int kBacklogRows = 400000;     // more than the engine applies in kSeconds on this machine
constexpr int kPollMs = 100;
constexpr int kWarmUpMs = 2000;
constexpr int kStartTimeoutMs = 60000;
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
        std::shared_ptr<const syncscope::task::StatusSnapshot> replaced;  // freed after the lock, as the engine's
        std::lock_guard lock(mutex_);                                     // publisher does (an atomic swap)
        replaced = std::exchange(current_, std::move(next));
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
    double mostOwnWorkInAGap = 0;
};

std::string loadAverage() {
    std::ifstream file("/proc/loadavg");
    std::string one, five, fifteen;
    file >> one >> five >> fifteen;
    return one + " " + five + " " + fifteen;
}

// Waits on the GUI thread's event loop (never blocking it) until the condition holds or the timeout.
bool waitInEventLoop(const std::function<bool()>& condition, int timeoutMs) {
    return syncscope::bench::waitInEventLoop(condition, timeoutMs, kPollMs);
}

// `applying`: channel 0 is that real task, started here and applying its backlog while the bench measures.
Figures run(syncscope::bench::TimedApplication& app, int channels, syncscope::bench::ApplyingChannel* applying) {
    std::vector<std::shared_ptr<PublishingTask>> tasks;
    std::vector<std::unique_ptr<syncscope::control::ControlServer>> servers;
    syncscope::ui::MainWindow window;
    window.resize(1280, 800);
    window.show();
    window.fleetController()->timer()->stop();  // this benchmark refreshes and times the overview itself
    for (int i = 0; i < channels; ++i) {
        if (i == 0 && applying) {
            syncscope::ui::ChannelSpec spec;
            spec.taskPath = QStringLiteral("/bench/applying.yaml");
            spec.sourcePath = QStringLiteral("/bench/applying-source.yaml");
            window.fleetController()->model()->addGroup(syncscope::ui::localTaskGroup(spec, applying->task()));
            continue;
        }
        tasks.push_back(std::make_shared<PublishingTask>(i));
        if (i % 2 == 0 || channels == 1) {
            syncscope::ui::ChannelSpec spec;
            spec.taskPath = QStringLiteral("/bench/channel-%1.yaml").arg(i);
            spec.sourcePath = QStringLiteral("/bench/source-%1.yaml").arg(i);
            window.fleetController()->model()->addGroup(syncscope::ui::localTaskGroup(spec, tasks.back()));
        } else {
            servers.push_back(std::make_unique<syncscope::control::ControlServer>(
                *tasks.back(), syncscope::control::ControlServerOptions{}));
            syncscope::ui::ChannelSpec spec;
            spec.kind = syncscope::ui::ChannelKind::RemoteEngine;
            spec.host = QStringLiteral("127.0.0.1");
            spec.port = servers.back()->port();
            window.fleetController()->addChannel(spec);
        }
    }
    window.fleetController()->refresh();
    window.fleetController()->openChannel(0);  // one channel's task view open as well (its own adapter at its own rate)
    window.showOverview();
    uint64_t appliedBefore = 0;
    if (applying) {
        applying->task()->start();
        if (!waitInEventLoop([&] { return applying->task()->stage() == syncscope::task::Stage::Running; },
                             kStartTimeoutMs)) {
            std::printf("  the applying channel did not start: %s\n", applying->task()->status()->stageReason.c_str());
        }
        appliedBefore = applying->rowsApplied();
    }

    std::atomic<bool> publishing = true;
    std::thread engines([&] {
        syncscope::applyEngineThreadPriority();  // the engines' publishers, as a Task's
        while (publishing) {
            for (auto& task : tasks) {
                task->publish();
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(1000 / kPublishHz));
        }
    });
    // The first paint of the window, its charts' first layout and the code paged in from disk take the first second
    // once (up to 0.5 s on a busy machine): a DBA waits for that when the window opens, not while it updates.
    QEventLoop warmUp;
    QTimer::singleShot(kWarmUpMs, &warmUp, &QEventLoop::quit);
    warmUp.exec();

    std::vector<double> ticks;
    std::vector<double> perSecond(kSeconds + 1, 0.0);
    QElapsedTimer clock;
    clock.start();
    QTimer refresh;
    refresh.setObjectName(QStringLiteral("bench fleet refresh"));
    refresh.setInterval(1000 / kRefreshHz);
    QObject::connect(&refresh, &QTimer::timeout, [&] {
        QElapsedTimer cost;
        cost.start();
        window.fleetController()->refresh();
        const double ms = double(cost.nsecsElapsed()) / 1e6;
        ticks.push_back(ms);
        perSecond[size_t(std::min<qint64>(clock.elapsed() / 1000, kSeconds))] += ms;
    });
    syncscope::bench::GuiThreadProbe probe(&app);
    const std::string loadBefore = loadAverage();
    const syncscope::bench::ProcessCpu cpuBefore = syncscope::bench::processCpuNow();
    refresh.start();
    probe.start();
    // A local loop, not QApplication::quit(): quitting closes the windows, and the main window waits for a
    // running local task to stop before it closes.
    QEventLoop loop;
    QTimer::singleShot(kSeconds * 1000, &loop, &QEventLoop::quit);
    loop.exec();
    probe.stop();
    const syncscope::bench::ProcessCpu cpuAfter = syncscope::bench::processCpuNow();
    if (applying) {
        const uint64_t applied = applying->rowsApplied() - appliedBefore;
        std::printf("  applying channel: %llu rows applied while measured (%.0f rows/s), %s\n",
                    static_cast<unsigned long long>(applied), double(applied) / probe.seconds(),
                    applying->rowsApplied() >= applying->rowsWritten()
                        ? "its backlog RAN OUT (not full speed to the end)"
                        : "backlog left: full speed throughout");
    }
    publishing = false;
    engines.join();
    window.detachTask();
    if (applying) {
        applying->task()->stop();
        applying->task()->waitUntilStopped();
    }

    std::sort(ticks.begin(), ticks.end());
    perSecond.pop_back();
    std::sort(perSecond.begin(), perSecond.end());
    Figures figures;
    figures.tickMedian = ticks.empty() ? 0 : ticks[ticks.size() / 2];
    figures.tickMax = ticks.empty() ? 0 : ticks.back();
    figures.workPerSecondMedian = perSecond[perSecond.size() / 2];
    figures.longestStall = probe.longestWallMs();
    figures.mostOwnWorkInAGap = probe.mostCpuInAGapMs();
    std::printf("  %d channels: load average %s before, %s after; %d threads in the process\n", channels,
                loadBefore.c_str(), loadAverage().c_str(), cpuAfter.threads);
    std::printf("  process CPU by nice value over the run:");
    for (const auto& [nice, ms] : cpuAfter.byNice) {
        const auto before = cpuBefore.byNice.find(nice);
        std::printf(" nice %d: %.0f ms/s;", nice,
                    (ms - (before == cpuBefore.byNice.end() ? 0 : before->second)) / probe.seconds());
    }
    std::printf(" GUI thread %.0f ms/s\n", (cpuAfter.guiThread - cpuBefore.guiThread) / probe.seconds());
    probe.print(channels == 1 ? "reference" : "fleet");
    return figures;
}

void print(const char* name, const Figures& f) {
    std::printf(
        "%s: overview refresh per tick median %.3f ms, max %.3f ms; GUI-thread overview work %.1f ms/s; "
        "longest stall %.0f ms (most GUI-thread work between two heartbeats %.1f ms)\n",
        name, f.tickMedian, f.tickMax, f.workPerSecondMedian, f.longestStall, f.mostOwnWorkInAGap);
}

}  // namespace

int main(int argc, char** argv) {
    // As app/gui/main.cpp (BENCH_SHARED_ARENAS=1: glibc's default, threads sharing arenas with the GUI thread).
    const char* sharedArenas = std::getenv("BENCH_SHARED_ARENAS");
    const bool ownArenas = sharedArenas == nullptr || std::string(sharedArenas) != "1";
    if (ownArenas) {
        syncscope::ui::giveThreadsTheirOwnMallocArenas();
    }
    // BENCH_MALLOC_ARENAS=N: at most N arenas instead (the peak RSS against the stalls, measured).
    if (const char* arenas = std::getenv("BENCH_MALLOC_ARENAS"); arenas != nullptr && std::atoi(arenas) > 0) {
        mallopt(M_ARENA_MAX, std::atoi(arenas));
    }
    syncscope::bench::TimedApplication app(argc, argv);
    spdlog::set_level(spdlog::level::warn);  // the applying channel's engine logs its progress otherwise
    int engineNice = kEngineNiceIncrement;
    if (const char* asked = std::getenv("BENCH_ENGINE_NICE"); asked != nullptr && *asked != '\0') {
        engineNice = std::atoi(asked);
    }
    syncscope::setEngineThreadNiceIncrement(engineNice);
    std::printf("engine, poller and server threads at nice +%d over the GUI thread; %s\n", engineNice,
                ownArenas ? "a malloc arena per thread" : "glibc's shared malloc arenas");
    std::printf("fleet: %d channels (half local, half remote over HTTP), %d tables each (%d in all), %d Hz\n",
                kChannels, kTablesPerChannel, kChannels * kTablesPerChannel, kPublishHz);
    const Figures reference = run(app, 1, nullptr);
    print("reference, 1 local channel", reference);
    // Channel 0 of the fleet applies at full speed on the private MariaDB pair when it is running (BENCH_FLEET_APPLY=0:
    // not even tried); else every channel is synthetic, as the figures then say.
    QTemporaryDir dir;
    std::unique_ptr<syncscope::bench::ApplyingChannel> applying;
    const char* applyAsked = std::getenv("BENCH_FLEET_APPLY");
    if (applyAsked == nullptr || std::string(applyAsked) != "0") {
        applying = std::make_unique<syncscope::bench::ApplyingChannel>();
        std::string why = applying->prepare(dir.path().toStdString());
        if (why.empty()) {
            why = applying->writeBacklog(kBacklogRows);
        }
        if (!why.empty()) {
            std::printf("no applying channel (is the pair running? scripts/dbpair start): %s\n", why.c_str());
            applying.reset();
        } else {
            std::printf(
                "channel 0 of the fleet: the real engine applying a backlog of %d rows (20 tables) from the "
                "pair\n",
                kBacklogRows);
        }
    }
    const Figures fleet = run(app, kChannels, applying.get());
    print("fleet, 20 channels", fleet);
    std::printf("ratio fleet / reference: per tick %.1fx, work per second %.1fx\n",
                reference.tickMedian > 0 ? fleet.tickMedian / reference.tickMedian : 0.0,
                reference.workPerSecondMedian > 0 ? fleet.workPerSecondMedian / reference.workPerSecondMedian : 0.0);
    const bool ok = fleet.tickMedian < kGoalTickMs && fleet.longestStall <= kGoalStallMs;
    std::printf("goal: overview update < %.0f ms per tick and no stall > %.0f ms -> %s\n", kGoalTickMs, kGoalStallMs,
                ok ? "ok" : "MISSED");
    return ok ? 0 : 1;
}
