// A thread that polls: it calls a function, waits the interval (or until pollNow()), and again, until it
// is destroyed. The one thread helper of the engine's watchers (the upstream's position, a remote
// engine's status, a MariaDB replica's channels). Declare it as its owner's last member: it starts once
// everything it polls is built, and it is stopped and joined before any of that is destroyed.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace syncscope {

class PollingThread {
public:
    PollingThread(std::chrono::milliseconds interval, std::function<void()> poll);
    ~PollingThread();
    PollingThread(const PollingThread&) = delete;
    PollingThread& operator=(const PollingThread&) = delete;

    // From any thread: the next poll starts now rather than at the end of the interval.
    void pollNow();

private:
    void loop();

    std::chrono::milliseconds interval_;
    std::function<void()> poll_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    bool requested_ = false;
    std::thread thread_;
};

}  // namespace syncscope
