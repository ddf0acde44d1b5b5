// Holds the latest StatusSnapshot; the engine swaps in a new one atomically and readers on any thread
// take the current one without waiting for the engine.
#pragma once

#include <atomic>
#include <memory>

#include "engine/task/status_snapshot.h"

namespace syncscope::task {

class StatusPublisher {
public:
    StatusPublisher() : current_(std::make_shared<const StatusSnapshot>()) {}

    void publish(std::shared_ptr<const StatusSnapshot> snapshot) { current_.store(std::move(snapshot)); }
    std::shared_ptr<const StatusSnapshot> current() const { return current_.load(); }

private:
    std::atomic<std::shared_ptr<const StatusSnapshot>> current_;
};

}  // namespace syncscope::task
