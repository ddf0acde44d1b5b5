// A load worker's second thread: it sends one batch to the target while the worker reads the next one
// from the upstream, so that neither server waits for the other. One batch at most is in flight, so a
// worker holds two batches (the one being sent and the one being filled).
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace syncscope::load {

class BatchSender {
public:
    BatchSender();
    // Waits for the batch in flight, then ends the thread.
    ~BatchSender();
    BatchSender(const BatchSender&) = delete;
    BatchSender& operator=(const BatchSender&) = delete;

    // Waits for the batch in flight (rethrowing what it threw), then runs `send` on the sender's thread.
    // `send` must not touch what the caller goes on using until wait() returns.
    void send(std::function<void()> send);
    // Waits until nothing is in flight; rethrows what the last batch threw.
    void wait();
    // Waits until nothing is in flight and drops what it threw: for leaving after another error, before
    // the worker rolls back on the same target session.
    void settle() noexcept;

private:
    void run();

    std::mutex mutex_;
    std::condition_variable changed_;
    std::function<void()> job_;
    bool busy_ = false;
    bool quit_ = false;
    std::exception_ptr failure_;
    std::thread thread_;  // last: started when everything above exists
};

// Settles `sender` when the scope is left, normally or by an exception.
class SettleOnExit {
public:
    explicit SettleOnExit(BatchSender& sender) : sender_(sender) {}
    ~SettleOnExit() { sender_.settle(); }
    SettleOnExit(const SettleOnExit&) = delete;
    SettleOnExit& operator=(const SettleOnExit&) = delete;

private:
    BatchSender& sender_;
};

}  // namespace syncscope::load
