#include "tests/integration/task/shadow_watch.h"

#include <cstdio>
#include <memory>

#include "engine/source/upstream_connection.h"
#include "tests/support/test_env.h"

namespace syncscope::test {

namespace {

constexpr auto kPollInterval = std::chrono::milliseconds(100);
constexpr size_t kFailuresKept = 5;

std::string quoted(const std::string& text) {
    std::string out = "'";
    for (char c : text) {
        if (c == '\'' || c == '\\') {
            out += '\\';
        }
        out += c;
    }
    return out + "'";
}

}  // namespace

ShadowWatch::ShadowWatch(std::string schema, std::string tablePattern)
    : schema_(std::move(schema)), tablePattern_(std::move(tablePattern)), thread_([this] { run(); }) {}

ShadowWatch::~ShadowWatch() {
    stop();
}

void ShadowWatch::stop() {
    stopping_ = true;
    if (thread_.joinable()) {
        thread_.join();
    }
}

void ShadowWatch::clear() {
    std::lock_guard lock(mutex_);
    seen_.clear();
    sightings_.clear();
}

std::vector<std::string> ShadowWatch::sightings() const {
    std::lock_guard lock(mutex_);
    return sightings_;
}

bool ShadowWatch::saw(const std::string& object) const {
    std::lock_guard lock(mutex_);
    return seen_.count(object) > 0;
}

std::vector<std::string> ShadowWatch::failures() const {
    std::lock_guard lock(mutex_);
    return failures_;
}

void ShadowWatch::run() {
    std::string sql =
        "SELECT CONCAT('trigger ', TRIGGER_SCHEMA, '.', TRIGGER_NAME) FROM information_schema.TRIGGERS "
        "WHERE TRIGGER_SCHEMA = " +
        quoted(schema_);
    if (!tablePattern_.empty()) {
        sql +=
            " UNION ALL SELECT CONCAT('table ', TABLE_SCHEMA, '.', TABLE_NAME) FROM information_schema.TABLES "
            "WHERE TABLE_SCHEMA = " +
            quoted(schema_) + " AND TABLE_NAME REGEXP " + quoted(tablePattern_);
    }
    std::unique_ptr<source::UpstreamConnection> down;
    while (!stopping_) {
        try {
            if (!down) {
                down = std::make_unique<source::UpstreamConnection>(engineSettings(downstreamRoot()));
            }
            auto rows = down->query(sql);
            double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
            std::lock_guard lock(mutex_);
            for (const auto& row : rows) {
                std::string object = row.front().value_or("NULL");
                if (seen_.insert(object).second) {
                    char when[32];
                    std::snprintf(when, sizeof when, " after %.1f s", seconds);
                    sightings_.push_back(object + when);
                }
            }
            ++polls_;
        } catch (const std::exception& e) {
            down.reset();
            std::lock_guard lock(mutex_);
            failures_.push_back(e.what());
            if (failures_.size() > kFailuresKept) {
                failures_.erase(failures_.begin());
            }
        }
        std::this_thread::sleep_for(kPollInterval);
    }
}

}  // namespace syncscope::test
