// The audit log: every operator action (start, pause, resume, stop, skip, resume-from, remove-meta) appended
// as one JSON line with the time, the OS user, positions before and after and, for a skip, the row
// images of the skipped event. Written and synced before the action takes effect.
#pragma once

#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

namespace syncscope::task {

struct AuditEntry {
    std::string action;  // "start", "pause", "resume", "stop", "skip", "resume-from", "remove-meta", "until"
    std::string task;
    std::string sourceId;
    std::string positionBefore;
    std::string positionAfter;
    nlohmann::json details = nlohmann::json::object();  // e.g. the skipped event's row images
};

class AuditLog {
public:
    // An empty path disables the log (used by tests that do not look at it).
    explicit AuditLog(std::string path);

    // Appends and fsyncs one line; throws syncscope::Error naming the file when it cannot.
    void append(const AuditEntry& entry);

    const std::string& path() const { return path_; }

    // The name of the user running this process (from the password database, else $USER).
    static std::string osUser();

private:
    std::string path_;
    std::mutex mutex_;
};

}  // namespace syncscope::task
