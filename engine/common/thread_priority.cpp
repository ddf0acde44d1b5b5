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
std::atomic<int> frontEndNice{0};  // the nice value of the thread that set the increment (the front end's main thread)

// On Linux a thread is a task of its own: PRIO_PROCESS with its thread id reads or changes only this thread.
id_t thisThread() {
    return static_cast<id_t>(syscall(SYS_gettid));
}

}  // namespace

void setEngineThreadNiceIncrement(int increment) {
    errno = 0;
    const int nice = getpriority(PRIO_PROCESS, thisThread());
    frontEndNice = errno == 0 ? nice : 0;
    niceIncrement = std::clamp(increment, 0, kLowestPriorityNice);
}

void applyEngineThreadPriority() {
    int increment = niceIncrement.load();
    if (increment == 0) {
        return;
    }
    errno = 0;
    int current = getpriority(PRIO_PROCESS, thisThread());
    if (errno != 0) {
        return;
    }
    // Relative to the front end's thread, not to this thread: a thread started by an engine thread inherits its
    // nice value already lowered, and a second call must not lower it again (the apply workers, started by the
    // syncer, and a server's pool, started by its listening thread, would end at nice 19).
    const int target = std::min(frontEndNice.load() + increment, kLowestPriorityNice);
    if (current < target) {
        setpriority(PRIO_PROCESS, thisThread(), target);  // best effort: the engine works without
    }
}

}  // namespace syncscope
