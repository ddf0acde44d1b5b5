#include "engine/task/audit_log.h"

#include <fcntl.h>
#include <pwd.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "engine/common/error.h"

namespace syncscope::task {

namespace {

std::string utcNow() {
    constexpr int kMillisPerSecond = 1000;
    auto now = std::chrono::system_clock::now();
    std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    auto millis =
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % kMillisPerSecond;
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[sizeof "2026-01-01T00:00:00.000Z"];
    size_t length = std::strftime(text, sizeof text, "%FT%T", &utc);
    std::snprintf(text + length, sizeof text - length, ".%03dZ", static_cast<int>(millis));
    return text;
}

}  // namespace

AuditLog::AuditLog(std::string path) : path_(std::move(path)) {}

std::string AuditLog::osUser() {
    if (const passwd* entry = getpwuid(geteuid()); entry != nullptr && entry->pw_name != nullptr) {
        return entry->pw_name;
    }
    const char* user = std::getenv("USER");
    return user != nullptr ? user : "unknown";
}

void AuditLog::append(const AuditEntry& entry) {
    if (path_.empty()) {
        return;
    }
    nlohmann::json line = {
        {"time", utcNow()},
        {"user", osUser()},
        {"action", entry.action},
        {"task", entry.task},
        {"source_id", entry.sourceId},
        {"position_before", entry.positionBefore},
        {"position_after", entry.positionAfter},
    };
    if (!entry.details.empty()) {
        line["details"] = entry.details;
    }
    std::string text = line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";

    std::lock_guard lock(mutex_);
    std::error_code ec;
    std::filesystem::path parent = std::filesystem::path(path_).parent_path();
    if (!parent.empty()) {
        std::filesystem::create_directories(parent, ec);
    }
    constexpr mode_t kOwnerReadWrite = 0600;
    int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, kOwnerReadWrite);
    if (fd < 0) {
        throw Error("audit log " + path_ + ": cannot open: " + std::strerror(errno));
    }
    ssize_t written = ::write(fd, text.data(), text.size());
    int syncResult = ::fsync(fd);
    ::close(fd);
    if (written != static_cast<ssize_t>(text.size()) || syncResult != 0) {
        throw Error("audit log " + path_ + ": cannot write the entry for '" + entry.action + "'");
    }
}

}  // namespace syncscope::task
