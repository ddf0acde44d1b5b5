// Runs queries on one server's session on a thread of its own, in the order they were given: so that
// each server works through its own queue (the next chunk while the client compares the last one or
// the other server finishes) instead of waiting for the slower side after every statement.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>

#include "engine/verify/server_session.h"

namespace syncscope::verify {

class SessionWorker {
public:
    explicit SessionWorker(ServerSession& session);
    // Jobs not yet started are dropped (their futures break); the running one ends first, so that the
    // session is free again once the worker is gone.
    ~SessionWorker();
    SessionWorker(const SessionWorker&) = delete;
    SessionWorker& operator=(const SessionWorker&) = delete;

    // Queues `job(session)`; its result or exception comes through the future.
    template <typename Job>
    auto submit(Job job) -> std::future<std::invoke_result_t<Job&, ServerSession&>> {
        using Result = std::invoke_result_t<Job&, ServerSession&>;
        auto task = std::make_shared<std::packaged_task<Result(ServerSession&)>>(std::move(job));
        auto result = task->get_future();
        enqueue([task](ServerSession& session) { (*task)(session); });
        return result;
    }

private:
    void enqueue(std::function<void(ServerSession&)> job);
    void run();

    ServerSession& session_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void(ServerSession&)>> jobs_;
    bool stopping_ = false;
    std::thread thread_;  // last: it starts once the members above exist
};

}  // namespace syncscope::verify
