// Which sources of a task with several sources the DBA has paused, kept in a small JSON file beside the task's
// audit log (<dir>/<task>-paused-sources.json), so that a restart of the task leaves them paused (as DM keeps a
// paused subtask paused): a source paused before its upstream's maintenance must not start applying because the
// process was restarted in between. Written at once on every pause and resume (a new file renamed over the old).
#pragma once

#include <map>
#include <mutex>
#include <string>

namespace syncscope::multisource {

class PausedSources {
public:
    // `file` empty: nothing is remembered. Reads the file: a missing one is "none paused"; one that cannot be read
    // or parsed throws MultiSourceError naming it (nothing is started on a guess).
    explicit PausedSources(std::string file);

    bool isPaused(const std::string& sourceId) const;
    std::string pausedSince(const std::string& sourceId) const;  // "YYYY-MM-DD HH:MM:SS UTC"; "" when not paused
    // Throw Error naming the file when it cannot be written (the command itself has been done).
    void remember(const std::string& sourceId);
    void forget(const std::string& sourceId);
    const std::string& file() const { return file_; }

private:
    void save() const;  // with mutex_ held

    std::string file_;
    mutable std::mutex mutex_;
    std::map<std::string, std::string> since_;  // source id -> when it was paused
};

// <directory of the audit log>/<task>-paused-sources.json; "" when the audit log path is empty.
std::string pausedSourcesFileBeside(const std::string& auditLogPath, const std::string& taskName);

}  // namespace syncscope::multisource
