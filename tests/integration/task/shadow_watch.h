// Watches the downstream, while an online schema change runs upstream, for what must never appear there:
// a table named like the tool's shadow or trash tables, and any trigger (pt-osc's are never replicated).
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace syncscope::test {

class ShadowWatch {
public:
    // Polls every 100 ms on its own connection. tablePattern is a MariaDB REGEXP on the table names of
    // `schema`; empty watches triggers only (a task without online-ddl replicates shadow tables).
    ShadowWatch(std::string schema, std::string tablePattern);
    ~ShadowWatch();
    ShadowWatch(const ShadowWatch&) = delete;
    ShadowWatch& operator=(const ShadowWatch&) = delete;

    void stop();
    // Forgets what was seen (after the watch's own self-check).
    void clear();
    // The first sighting of each object, "table osc_pt._sbtest1_new after 12.3 s".
    std::vector<std::string> sightings() const;
    // Whether `object` ("table schema.name" or "trigger schema.name") has been seen.
    bool saw(const std::string& object) const;
    int polls() const { return polls_.load(); }
    // Poll failures (connection lost, query refused), the last few.
    std::vector<std::string> failures() const;

private:
    void run();

    std::string schema_;
    std::string tablePattern_;
    std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
    std::atomic<bool> stopping_{false};
    std::atomic<int> polls_{0};
    mutable std::mutex mutex_;
    std::set<std::string> seen_;
    std::vector<std::string> sightings_;
    std::vector<std::string> failures_;
    std::thread thread_;
};

}  // namespace syncscope::test
