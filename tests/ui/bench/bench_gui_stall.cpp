// bench_gui_stall: the main window (offscreen, 1280x800, painted) over the real engine while it applies a
// 100,000-row workload written to the private MariaDB pair's upstream by another thread. A 5 ms
// heartbeat timer on the GUI thread measures the gaps between its ticks: the largest is the longest
// stall a DBA would feel. Also prints the GUI's cost per refresh (EngineAdapter::lastRefreshCost).
// Needs the pair: SYNCSCOPE_DB_DIR, SYNCSCOPE_UP_PORT, SYNCSCOPE_DOWN_PORT as for the tests
// (scripts/bench-gui starts it). The goal is no stall over 50 ms; nothing is asserted.
#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTemporaryDir>
#include <QTimer>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <ctime>

#include <sys/resource.h>
#include <thread>
#include <vector>

#include "engine/common/log_ring_sink.h"
#include "engine/common/thread_priority.h"
#include "tests/support/task_files.h"
#include "tests/ui/bench/bench_support.h"
#include "tests/ui/support/real_task.h"
#include "ui/engine/engine_adapter.h"
#include "ui/main/main_window.h"

namespace {

using namespace syncscope;

constexpr int kTables = 20;
constexpr int kRows = 100000;
constexpr int kRowsPerInsert = 500;
constexpr int kHeartbeatMs = 5;
constexpr double kStallGoalMs = 50;
constexpr int kPollMs = 200;
constexpr int kTimeoutMs = 15 * 60 * 1000;
const char* const kSchema = "guibench";
const char* const kTaskName = "gui-bench";

// CPU time of this thread: on a busy machine a long gap can be a wait for a core rather than GUI work.
double threadCpuMilliseconds() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return double(now.tv_sec) * 1e3 + double(now.tv_nsec) / 1e6;
}

// Times the kernel took this thread off a core that it still wanted (preemption by the machine's load).
long involuntarySwitches() {
    rusage usage{};
    getrusage(RUSAGE_THREAD, &usage);
    return usage.ru_nivcsw;
}

double percentile(std::vector<double> values, double share) {
    if (values.empty()) {
        return 0;
    }
    std::sort(values.begin(), values.end());
    return values[std::min(values.size() - 1, size_t(double(values.size()) * share))];
}

std::string tableName(int table) {
    return bench::benchTableName(kSchema, table);
}

// Waits on the GUI thread's event loop (never blocking it) until the condition holds or the timeout.
bool waitInEventLoop(const std::function<bool()>& condition, int timeoutMs) {
    return bench::waitInEventLoop(condition, timeoutMs, kPollMs);
}

// The workload: kRows rows in multi-row INSERTs spread over the tables, from its own connection.
void writeWorkload(std::atomic<bool>& failed) {
    try {
        auto up = test::connectUpstream();
        for (int first = 0; first < kRows; first += kRowsPerInsert) {
            up->execute(bench::benchInsert(kSchema, kTables, first, kRowsPerInsert));
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_gui_stall: the workload failed: %s\n", e.what());
        failed = true;
    }
}

// Counts the downstream rows every poll until all arrived or stop is set.
void watchDownstream(std::atomic<bool>& arrived, std::atomic<bool>& stop) {
    try {
        auto down = test::connectDownstream();
        while (!stop) {
            std::string sum = "SELECT 0";
            for (int table = 0; table < kTables; ++table) {
                sum += " + (SELECT COUNT(*) FROM " + tableName(table) + ")";
            }
            if (test::valueOf(*down, sum) == std::to_string(kRows)) {
                arrived = true;
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(kPollMs));
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_gui_stall: cannot watch the downstream: %s\n", e.what());
    }
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    syncscope::setEngineThreadNiceIncrement(5);  // as app/gui/main.cpp does
    QApplication::setOrganizationName(QStringLiteral("SyncScopeBench"));
    QApplication::setApplicationName(QStringLiteral("bench_gui_stall"));
    auto ring = std::make_shared<LogRing>();
    spdlog::default_logger()->sinks().push_back(std::make_shared<LogRingSink>(ring));

    QTemporaryDir dir;
    std::shared_ptr<task::Task> task;
    try {
        task = bench::openBenchTask(kSchema, kTables, kTaskName, dir.path().toStdString());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_gui_stall: cannot prepare the pair (is it running? scripts/dbpair start): %s\n",
                     e.what());
        return 2;
    }

    ui::MainWindow window;
    window.setLogRing(ring);
    window.resize(1280, 800);
    window.show();
    window.attachTask(task);
    window.adapter()->setRefreshRate(ui::EngineAdapter::kMaxRefreshHz);
    window.adapter()->start();
    if (!waitInEventLoop([&] { return task->stage() == task::Stage::Running; }, kTimeoutMs)) {
        std::fprintf(stderr, "bench_gui_stall: the task did not start\n");
        return 2;
    }

    std::vector<double> gaps;
    std::vector<double> cpuInGaps;  // the GUI thread's own work within each gap
    std::vector<long> preemptionsInGaps;
    std::vector<double> refreshCosts;
    gaps.reserve(size_t(kTimeoutMs / kHeartbeatMs));
    QElapsedTimer clock;
    clock.start();
    qint64 lastBeatNs = clock.nsecsElapsed();
    double lastBeatCpu = threadCpuMilliseconds();
    long lastBeatPreemptions = involuntarySwitches();
    QTimer heartbeat;
    heartbeat.setTimerType(Qt::PreciseTimer);
    heartbeat.setInterval(kHeartbeatMs);
    QObject::connect(&heartbeat, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        const double cpu = threadCpuMilliseconds();
        gaps.push_back(double(now - lastBeatNs) / 1e6);
        cpuInGaps.push_back(cpu - lastBeatCpu);
        lastBeatNs = now;
        lastBeatCpu = cpu;
        const long preemptions = involuntarySwitches();
        preemptionsInGaps.push_back(preemptions - lastBeatPreemptions);
        lastBeatPreemptions = preemptions;
    });
    QObject::connect(window.adapter(), &ui::EngineAdapter::refreshed,
                     [&] { refreshCosts.push_back(double(window.adapter()->lastRefreshCost().count()) / 1e6); });
    heartbeat.start();

    std::atomic<bool> workloadFailed = false;
    std::atomic<bool> arrived = false;
    std::atomic<bool> stopWatching = false;
    std::thread writer(writeWorkload, std::ref(workloadFailed));
    std::thread watcher(watchDownstream, std::ref(arrived), std::ref(stopWatching));
    const bool done = waitInEventLoop([&] { return arrived.load() || workloadFailed.load(); }, kTimeoutMs);
    const double seconds = double(clock.elapsed()) / 1000;
    heartbeat.stop();
    stopWatching = true;
    writer.join();
    watcher.join();

    const auto last = window.adapter()->lastSnapshot();
    const int tablesShown = last ? int(last->tables.size()) : 0;
    window.adapter()->stop();
    waitInEventLoop([&] { return task->stage() == task::Stage::Stopped; }, kTimeoutMs);
    window.detachTask();

    const auto longest = std::max_element(gaps.begin(), gaps.end());
    const double maxGap = gaps.empty() ? 0 : *longest;
    const double cpuInLongest = gaps.empty() ? 0 : cpuInGaps[size_t(longest - gaps.begin())];
    const long preemptedInLongest = gaps.empty() ? 0 : preemptionsInGaps[size_t(longest - gaps.begin())];
    const auto over = std::count_if(gaps.begin(), gaps.end(), [](double gap) { return gap > kStallGoalMs; });
    std::printf("workload: %d rows in %d tables, %s in %.1f s (%.0f rows/s end to end), %d table points shown\n", kRows,
                kTables, done && arrived ? "all applied downstream" : "NOT all applied", seconds,
                double(kRows) / seconds, tablesShown);
    std::printf(
        "GUI-thread heartbeat every %d ms: %zu ticks, gap median %.2f ms, p99 %.2f ms, max %.2f ms, "
        "%ld gaps over %.0f ms\n",
        kHeartbeatMs, gaps.size(), percentile(gaps, 0.5), percentile(gaps, 0.99), maxGap, long(over), kStallGoalMs);
    std::printf(
        "GUI-thread CPU time within a gap: median %.2f ms, max %.2f ms; in the longest gap %.2f ms of work and "
        "%ld preemptions by other processes (the rest of that gap the thread was off its core)\n",
        percentile(cpuInGaps, 0.5), percentile(cpuInGaps, 1.0), cpuInLongest, preemptedInLongest);
    std::printf(
        "GUI refresh (snapshot into every view) at %d Hz: %zu refreshes, median %.3f ms, p99 %.3f ms, "
        "max %.3f ms\n",
        ui::EngineAdapter::kMaxRefreshHz, refreshCosts.size(), percentile(refreshCosts, 0.5),
        percentile(refreshCosts, 0.99), percentile(refreshCosts, 1.0));
    std::printf("goal: no stall over %.0f ms -> %s (longest stretch of GUI-thread work between two ticks: %.2f ms)\n",
                kStallGoalMs, maxGap <= kStallGoalMs ? "ok" : "STALLED", percentile(cpuInGaps, 1.0));
    return done && arrived ? 0 : 1;
}
