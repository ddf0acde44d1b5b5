// A SyncScope engine on another machine (`syncscope-cli run --listen`), reached through its HTTP
// control API and shown and controlled like a local task. Polls GET /api/v1/status on its own thread;
// a lost connection is never shown as a frozen healthy state: the snapshot then says Error with "connection
// lost", when it was last seen, and that it is reconnecting, and connection() tells the overview.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "engine/common/polling_thread.h"
#include "engine/control/status_history.h"
#include "engine/remote/control_api_client.h"
#include "engine/task/task_control.h"

namespace syncscope::remote {

struct RemoteConnection {
    bool connected = false;  // the last poll was answered
    std::optional<std::chrono::system_clock::time_point> lastSeen;
    std::string error;         // why the last poll failed: unreachable, 401 wrong token, TLS, ...
    uint64_t failedPolls = 0;  // in a row
};

class RemoteTask : public task::TaskControl {
public:
    // Reads the token file at once (throws RemoteEngineError naming it); connects on the poll thread.
    explicit RemoteTask(RemoteEngineOptions options);
    ~RemoteTask() override;
    RemoteTask(const RemoteTask&) = delete;
    RemoteTask& operator=(const RemoteTask&) = delete;

    const RemoteEngineOptions& options() const { return client_.options(); }
    RemoteConnection connection() const;
    // The engine's samples taken after `since` (GET /api/v1/history, API revision 4), for charts that start before
    // the GUI connected; an engine too old to keep them answers none. Throws RemoteEngineError naming the engine
    // and what went wrong. Blocks for one request: call it off the GUI thread.
    std::vector<control::HistoryPoint> history(std::chrono::system_clock::time_point since) const;

    std::shared_ptr<const task::StatusSnapshot> status() const override;
    std::vector<task::Notice> drainNotices(size_t maxCount) override;
    task::CommandResult start() override;
    task::CommandResult pause() override;
    task::CommandResult resume() override;
    task::CommandResult stop() override;
    using task::TaskControl::skipFailedEvent;
    // The remote engine saves the skipped rows itself (POST /api/v1/skip); a local evidence is not sent.
    task::CommandResult skipFailedEvent(const task::SkipEvidence& evidence) override;
    task::CommandResult resumeFrom(const task::ResumeTarget& target) override;
    task::CommandResult stopAt(const std::string& point) override;
    task::CommandResult unlockShardDdl(const std::string& target, bool preview) override;

private:
    task::CommandResult command(const std::string& name, const std::string& body = {});
    void pollOnce();

    ControlApiClient client_;
    mutable std::mutex mutex_;                          // guards what the poller last saw
    std::shared_ptr<const task::StatusSnapshot> last_;  // as the engine last answered
    RemoteConnection connection_;
    std::vector<task::Notice> notices_;
    std::optional<task::Stage> lastStage_;
    PollingThread poller_{client_.options().pollInterval, [this] { pollOnce(); }};  // last: started after the rest
};

}  // namespace syncscope::remote
