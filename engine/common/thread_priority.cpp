#include "engine/common/thread_priority.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>

namespace syncscope {

namespace {

constexpr int kLowestPriorityNice = 19;  // the largest nice value Linux allows

std::atomic<int> niceIncrement{0};

}  // namespace

void setEngineThreadNiceIncrement(int increment) {
    niceIncrement = std::clamp(increment, 0, kLowestPriorityNice);
}

void applyEngineThreadPriority() {
    int increment = niceIncrement.load();
    if (increment == 0) {
        return;
    }
    // On Linux a thread is a task of its own: PRIO_PROCESS with its thread id changes only this thread.
    auto thread = static_cast<id_t>(syscall(SYS_gettid));
    errno = 0;
    int current = getpriority(PRIO_PROCESS, thread);
    if (errno != 0) {
        return;
    }
    setpriority(PRIO_PROCESS, thread,
                std::min(current + increment, kLowestPriorityNice));  // best effort: the engine works without
}

}  // namespace syncscope
