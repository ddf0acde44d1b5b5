// What the GUI thread was doing in its longest gaps, for the GUI benchmarks: a gap between two ticks of a
// heartbeat timer is split into the GUI thread's own CPU time, the time it waited on a run queue for a core
// (/proc/thread-self/schedstat) and the rest (blocked: a lock, a system call), with the longest event the
// GUI thread delivered in it (receiver class, object name, event type). The process's threads' CPU time is
// summed by nice value, so that a run shows how much of the machine the bench's own background threads took.
#pragma once

#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QString>
#include <QTimer>

#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace syncscope::bench {

// The calling thread's CPU time and run-queue wait, in milliseconds (schedstat: on-CPU ns, waiting ns, slices).
// Also how often it blocked (voluntary switches: a lock, a system call) and waited for a page read from disk.
struct ThreadTimes {
    double cpuMs = 0;
    double runQueueMs = 0;
    long blocks = 0;
    long pageReads = 0;
};

// A /proc file opened once and read again from its start: the heartbeat reads two every 10 ms, and opening them
// each time (a path walk, an ifstream) was a quarter of the GUI thread's CPU time in bench_gui_fleet.
class ProcFile {
public:
    static constexpr size_t kFirstBytes = 256;  // the first line is all the probe reads

    explicit ProcFile(const char* path) : fd_(::open(path, O_RDONLY | O_CLOEXEC)) {}
    ~ProcFile() {
        if (fd_ >= 0) {
            ::close(fd_);
        }
    }
    ProcFile(const ProcFile&) = delete;
    ProcFile& operator=(const ProcFile&) = delete;

    std::string firstBytes() const {
        char text[kFirstBytes];
        const ssize_t read = fd_ >= 0 ? ::pread(fd_, text, sizeof text - 1, 0) : -1;
        return read > 0 ? std::string(text, size_t(read)) : std::string();
    }

private:
    int fd_;
};

// `schedstat`: the calling thread's /proc/thread-self/schedstat, opened on it.
inline ThreadTimes threadTimesNow(const ProcFile& schedstat) {
    std::istringstream file(schedstat.firstBytes());
    unsigned long long cpuNs = 0;
    unsigned long long waitNs = 0;
    file >> cpuNs >> waitNs;
    rusage usage{};
    getrusage(RUSAGE_THREAD, &usage);
    return {double(cpuNs) / 1e6, double(waitNs) / 1e6, usage.ru_nvcsw, usage.ru_majflt};
}

// Time the machine's virtual CPUs were not run by the host (steal), summed over the CPUs, in milliseconds: a gap in
// which the GUI thread neither ran, waited on a run queue nor blocked is the whole machine standing still.
inline double machineStealMs(const ProcFile& stat) {
    std::istringstream file(stat.firstBytes());
    std::string cpu;
    unsigned long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    file >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal;
    return double(steal) * 1000.0 / double(sysconf(_SC_CLK_TCK));
}

// A QApplication that times every event it delivers at the outermost level (nested loops count once), so a
// probe can name the longest event of a gap.
class TimedApplication : public QApplication {
public:
    using QApplication::QApplication;

    bool notify(QObject* receiver, QEvent* event) override {
        if (depth_ > 0) {
            return QApplication::notify(receiver, event);
        }
        ++depth_;
        QElapsedTimer clock;
        clock.start();
        const bool handled = QApplication::notify(receiver, event);
        const double ms = double(clock.nsecsElapsed()) / 1e6;
        --depth_;
        if (ms > longestMs_) {
            longestMs_ = ms;
            const QObject* parent = receiver->parent();
            longestWhat_ =
                QStringLiteral("%1 '%2' (parent %3), event %4")
                    .arg(QString::fromLatin1(receiver->metaObject()->className()), receiver->objectName(),
                         parent ? QString::fromLatin1(parent->metaObject()->className()) : QStringLiteral("-"))
                    .arg(int(event->type()));
        }
        return handled;
    }

    // The longest event delivered since the last call, and forgets it.
    std::pair<double, QString> takeLongestEvent() {
        std::pair<double, QString> longest{longestMs_, longestWhat_};
        longestMs_ = 0;
        longestWhat_.clear();
        return longest;
    }

private:
    int depth_ = 0;
    double longestMs_ = 0;
    QString longestWhat_;
};

struct Gap {
    double wallMs = 0;      // beyond the heartbeat's interval
    double cpuMs = 0;       // the GUI thread on a core
    double runQueueMs = 0;  // runnable, waiting for a core
    long blocks = 0;
    long pageReads = 0;
    double stealMs = 0;  // the machine's, over all its CPUs
    double longestEventMs = 0;
    QString longestEvent;
    double atSeconds = 0;
};

// A heartbeat on the GUI thread: every tick records the gap since the last one; keeps the longest gaps.
class GuiThreadProbe {
public:
    static constexpr int kIntervalMs = 10;
    static constexpr size_t kKept = 5;

    explicit GuiThreadProbe(TimedApplication* app) : app_(app) {
        timer_.setObjectName(QStringLiteral("probe heartbeat"));
        timer_.setTimerType(Qt::PreciseTimer);
        timer_.setInterval(kIntervalMs);
        QObject::connect(&timer_, &QTimer::timeout, [this] { tick(); });
    }

    void start() {
        clock_.start();
        last_ = threadTimesNow(schedstat_);
        lastSteal_ = machineStealMs(stat_);
        lastNs_ = 0;
        app_->takeLongestEvent();
        timer_.start();
    }
    void stop() { timer_.stop(); }

    const std::vector<Gap>& longest() const { return longest_; }  // longest first
    double longestWallMs() const { return longest_.empty() ? 0 : longest_.front().wallMs; }
    // The longest stretch of the GUI thread's own work between two ticks (whatever it waited besides).
    double mostCpuInAGapMs() const { return mostCpu_; }
    double runQueueTotalMs() const { return runQueueTotal_; }
    double cpuTotalMs() const { return cpuTotal_; }
    double seconds() const { return double(lastNs_) / 1e9; }

    void print(const char* name) const {
        std::printf(
            "  %s: GUI thread %.0f ms on a core, %.0f ms waiting for one in %.1f s; most own work between two "
            "ticks %.1f ms\n",
            name, cpuTotal_, runQueueTotal_, seconds(), mostCpu_);
        for (const Gap& gap : longest_) {
            std::printf(
                "    gap %.0f ms at %.1f s: %.1f ms own work, %.1f ms waiting for a core, %.1f ms blocked beyond the "
                "interval (%ld times, %ld page reads), machine steal %.0f ms; longest event %.1f ms: %s\n",
                gap.wallMs, gap.atSeconds, gap.cpuMs, gap.runQueueMs,
                std::max(0.0, gap.wallMs - gap.cpuMs - gap.runQueueMs), gap.blocks, gap.pageReads, gap.stealMs,
                gap.longestEventMs, qPrintable(gap.longestEvent));
        }
    }

private:
    void tick() {
        const qint64 now = clock_.nsecsElapsed();
        const ThreadTimes times = threadTimesNow(schedstat_);
        auto [eventMs, event] = app_->takeLongestEvent();
        Gap gap;
        gap.wallMs = double(now - lastNs_) / 1e6 - kIntervalMs;
        gap.cpuMs = times.cpuMs - last_.cpuMs;
        gap.runQueueMs = times.runQueueMs - last_.runQueueMs;
        gap.blocks = times.blocks - last_.blocks;
        gap.pageReads = times.pageReads - last_.pageReads;
        const double steal = machineStealMs(stat_);
        gap.stealMs = steal - lastSteal_;
        lastSteal_ = steal;
        gap.longestEventMs = eventMs;
        gap.longestEvent = event;
        gap.atSeconds = double(now) / 1e9;
        cpuTotal_ += gap.cpuMs;
        runQueueTotal_ += gap.runQueueMs;
        mostCpu_ = std::max(mostCpu_, gap.cpuMs);
        last_ = times;
        lastNs_ = now;
        if (longest_.size() < kKept || gap.wallMs > longest_.back().wallMs) {
            longest_.push_back(gap);
            std::sort(longest_.begin(), longest_.end(), [](const Gap& a, const Gap& b) { return a.wallMs > b.wallMs; });
            if (longest_.size() > kKept) {
                longest_.pop_back();
            }
        }
    }

    TimedApplication* app_;
    ProcFile schedstat_{"/proc/thread-self/schedstat"};  // the GUI thread's: the probe is made on it
    ProcFile stat_{"/proc/stat"};
    QTimer timer_;
    QElapsedTimer clock_;
    ThreadTimes last_;
    double lastSteal_ = 0;
    qint64 lastNs_ = 0;
    std::vector<Gap> longest_;
    double mostCpu_ = 0;
    double runQueueTotal_ = 0;
    double cpuTotal_ = 0;
};

// CPU time (ms) of this process's threads by nice value, and of the calling (GUI) thread.
struct ProcessCpu {
    std::map<int, double> byNice;
    double guiThread = 0;
    int threads = 0;
};

inline ProcessCpu processCpuNow() {
    ProcessCpu cpu;
    const long ticksPerSecond = sysconf(_SC_CLK_TCK);
    const long self = long(syscall(SYS_gettid));
    DIR* dir = opendir("/proc/self/task");
    if (!dir) {
        return cpu;
    }
    while (dirent* entry = readdir(dir)) {
        if (entry->d_name[0] == '.') {
            continue;
        }
        std::ifstream file(std::string("/proc/self/task/") + entry->d_name + "/stat");
        std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
        const size_t close = text.rfind(')');  // the thread's name may hold spaces
        if (close == std::string::npos) {
            continue;
        }
        std::istringstream fields(text.substr(close + 2));
        std::vector<std::string> values;
        std::string value;
        while (fields >> value) {
            values.push_back(value);
        }
        // After "(comm)": state is field 3, utime 14, stime 15, nice 19 (1-based over the whole line).
        constexpr size_t kUtime = 14 - 3;
        constexpr size_t kStime = 15 - 3;
        constexpr size_t kNice = 19 - 3;
        if (values.size() <= kNice) {
            continue;
        }
        const double ms =
            double(std::stoll(values[kUtime]) + std::stoll(values[kStime])) * 1000.0 / double(ticksPerSecond);
        cpu.byNice[std::stoi(values[kNice])] += ms;
        if (std::stol(entry->d_name) == self) {
            cpu.guiThread = ms;
        }
        ++cpu.threads;
    }
    closedir(dir);
    return cpu;
}

}  // namespace syncscope::bench
