// Engine threads may run below the process's priority (the GUI sets this so that its thread stays
// responsive); by default nothing changes.
#include <QtTest>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <thread>

#include "engine/common/thread_priority.h"

namespace {

int niceOfAThreadThatApplies() {
    int nice = 0;
    std::thread worker([&] {
        syncscope::applyEngineThreadPriority();
        nice = getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
    });
    worker.join();
    return nice;
}

}  // namespace

class ThreadPriorityTest : public QObject {
    Q_OBJECT

private slots:
    void engineThreadsYieldOnlyWhenAsked() {
        int base = getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
        QCOMPARE(niceOfAThreadThatApplies(), base);  // off by default
        syncscope::setEngineThreadNiceIncrement(5);
        QCOMPARE(niceOfAThreadThatApplies(), std::min(base + 5, 19));
        // Only the engine thread moved: this one keeps its priority.
        QCOMPARE(getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid))), base);
        syncscope::setEngineThreadNiceIncrement(0);
        QCOMPARE(niceOfAThreadThatApplies(), base);
    }

    // The apply workers are started by the syncer thread and a control server's pool by its listening thread: they
    // inherit an engine thread's lowered nice value and must not lower it once more (they ended at 19 before).
    void anEngineThreadStartedByAnEngineThreadIsLoweredOnce() {
        int base = getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
        syncscope::setEngineThreadNiceIncrement(5);
        int outer = 0;
        int inner = 0;
        int again = 0;
        std::thread engine([&] {
            syncscope::applyEngineThreadPriority();
            outer = getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
            std::thread worker([&] {
                syncscope::applyEngineThreadPriority();
                inner = getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
                syncscope::applyEngineThreadPriority();
                again = getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
            });
            worker.join();
        });
        engine.join();
        syncscope::setEngineThreadNiceIncrement(0);
        QCOMPARE(outer, std::min(base + 5, 19));
        QCOMPARE(inner, outer);
        QCOMPARE(again, outer);
    }
};

QTEST_GUILESS_MAIN(ThreadPriorityTest)
#include "test_thread_priority.moc"
