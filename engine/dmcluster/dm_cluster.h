// One DM cluster added by its dm-master addresses: polls DM's OpenAPI on its own thread (tasks with their
// status, sources, masters, workers) and keeps what it last saw; a cluster that stops answering keeps its
// last state but says so (error, last seen), so it is never shown as a frozen healthy one. Commands
// (start and stop of a task or of one source's subtask, enable and disable of a source) are refused with
// the reason when the state does not allow them, and written to the audit log before they are sent.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/common/polling_thread.h"
#include "engine/dmcluster/cluster_state.h"
#include "engine/dmcluster/dm_api_client.h"
#include "engine/dmcluster/dm_checkpoint_watch.h"
#include "engine/task/audit_log.h"
#include "engine/task/task_control.h"

namespace syncscope::dmcluster {

class DmCluster {
public:
    // Checks the options at once (throws DmClusterError naming the address or file); polls from then on.
    // With `downstream`, the tasks' checkpoint tables are read too.
    explicit DmCluster(DmClusterOptions options, std::optional<DownstreamAccess> downstream = std::nullopt);
    ~DmCluster();
    DmCluster(const DmCluster&) = delete;
    DmCluster& operator=(const DmCluster&) = delete;

    // The last poll's state, shared rather than copied (the overview asks for it for every row on every tick);
    // a new poll or a command's effect is a new object.
    std::shared_ptr<const ClusterState> state() const;
    ClusterState latest() const { return *state(); }
    // The task's checkpoint tables as last read; nullopt without downstream access or before the first read.
    std::optional<TaskCheckpoints> checkpoints(const std::string& taskName) const;
    const DmClusterOptions& options() const { return client_.options(); }
    std::string name() const;  // the first master's URL
    void pollNow();

    // `source` empty: every source of the task. DM's OpenAPI has no pause: a stopped task keeps its
    // checkpoints and a start resumes from them, so these are also the pause and the resume.
    task::CommandResult startTask(const std::string& taskName, const std::string& source);
    task::CommandResult stopTask(const std::string& taskName, const std::string& source);
    // Every task of the source stops (disable) or runs again (enable), as DM does it.
    task::CommandResult enableSource(const std::string& source);
    task::CommandResult disableSource(const std::string& source);

private:
    void pollOnce();
    task::CommandResult taskCommand(const std::string& action, const char* alreadyStage, const std::string& taskName,
                                    const std::string& source);
    // Why the command cannot be sent now; nullopt when it can.
    std::optional<std::string> taskRefusal(const std::string& action, const std::string& taskName,
                                           const std::string& source, const char* alreadyStage) const;
    std::optional<std::string> sourceRefusal(const std::string& action, const std::string& source,
                                             bool enabledAlready) const;
    task::CommandResult send(const std::string& action, const std::string& taskName, const std::string& source,
                             const std::string& path, const std::string& body);
    void refreshTask(const std::string& taskName);

    DmApiClient client_;
    task::AuditLog audit_;
    std::mutex commandMutex_;   // one command at a time
    mutable std::mutex mutex_;  // guards state_
    std::shared_ptr<const ClusterState> state_ = std::make_shared<const ClusterState>();
    std::unique_ptr<DmCheckpointWatch> checkpoints_;  // reads state_: stopped before it goes
    PollingThread poller_{client_.options().pollInterval, [this] { pollOnce(); }};  // last: started after the rest
};

}  // namespace syncscope::dmcluster
