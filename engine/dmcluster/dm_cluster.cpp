#include "engine/dmcluster/dm_cluster.h"

#include <cctype>
#include <ctime>
#include <functional>
#include <utility>

#include "engine/common/local_time.h"
#include "engine/dmcluster/openapi_reader.h"

namespace syncscope::dmcluster {

namespace {

constexpr int kHttpOk = 200;
const char* const kTaskListPath = "/api/v1/tasks?with_status=true";
const char* const kSourceListPath = "/api/v1/sources?with_status=true";
const char* const kMasterListPath = "/api/v1/cluster/masters";
const char* const kWorkerListPath = "/api/v1/cluster/workers";

// Task and source names go into the path as DM's router reads them: anything but unreserved characters escaped.
std::string pathSegment(const std::string& name) {
    static const char* const kHex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : name) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 0xF];
        }
    }
    return out;
}

// One GET read by `reader`; throws a one-line Error naming the call, the master and what went wrong.
template <typename Result>
Result fetch(const DmApiClient& client, const std::string& path,
             const std::function<Result(const nlohmann::json&)>& reader) {
    DmApiClient::Answer answer = client.get(path);
    if (!answer.answered()) {
        throw Error(answer.error);
    }
    const std::string where = "GET " + answer.master + path;
    if (answer.status != kHttpOk) {
        throw Error(where + " answered HTTP " + std::to_string(answer.status) + ": " + errorMessageOf(answer.body));
    }
    nlohmann::json json = nlohmann::json::parse(answer.body, nullptr, false);
    if (json.is_discarded()) {
        throw Error(where + ": the answer is not JSON");
    }
    try {
        return reader(json);
    } catch (const DmResponseError& e) {
        throw Error(where + ": the answer does not fit DM's OpenAPI document, refused: " + e.what());
    }
}

std::string subtaskPosition(const ClusterState& state, const std::string& taskName, const std::string& source) {
    std::string text;
    if (const DmTask* task = state.task(taskName)) {
        for (const auto& subtask : task->subtasks) {
            if ((source.empty() || subtask.source == source) && subtask.sync) {
                const DmLocation& at = subtask.sync->syncerBinlog;
                text += (text.empty() ? "" : ", ") + subtask.source + " " + at.file + ":" + std::to_string(at.pos);
            }
        }
    }
    return text.empty() ? "-" : text;
}

}  // namespace

DmCluster::DmCluster(DmClusterOptions options, std::optional<DownstreamAccess> downstream)
    : client_(std::move(options)), audit_(client_.options().auditLogPath) {
    if (downstream) {
        checkpoints_ = std::make_unique<DmCheckpointWatch>(std::move(*downstream), [this] { return latest(); });
    }
}

std::optional<TaskCheckpoints> DmCluster::checkpoints(const std::string& taskName) const {
    return checkpoints_ ? checkpoints_->of(taskName) : std::nullopt;
}

DmCluster::~DmCluster() = default;

std::string DmCluster::name() const {
    return client_.masters().front().url();
}

void DmCluster::pollNow() {
    poller_.pollNow();
}

std::shared_ptr<const ClusterState> DmCluster::state() const {
    std::lock_guard lock(mutex_);
    return state_;
}

void DmCluster::pollOnce() {
    ClusterState fresh;
    std::string problem;
    try {
        fresh.tasks = fetch<std::vector<DmTask>>(client_, kTaskListPath, readTaskList);
        fresh.sources = fetch<std::vector<DmSource>>(client_, kSourceListPath, readSourceList);
        fresh.masters = fetch<std::vector<DmMaster>>(client_, kMasterListPath, readMasterList);
        fresh.workers = fetch<std::vector<DmWorker>>(client_, kWorkerListPath, readWorkerList);
    } catch (const std::exception& e) {
        problem = e.what();
    }
    std::shared_ptr<const ClusterState> replaced;  // freed after the lock: state() must not wait on a free
    std::lock_guard lock(mutex_);
    std::shared_ptr<ClusterState> next;
    if (problem.empty()) {
        next = std::make_shared<ClusterState>(std::move(fresh));
        next->answeringMaster = client_.preferredMaster();  // the one that answered, as every call went there
        next->lastSeen = std::chrono::system_clock::now();
    } else {
        next = std::make_shared<ClusterState>(*state_);  // what was last seen stays, marked by the error
        next->error = problem;
        ++next->failedPolls;
    }
    next->polls = state_->polls + 1;
    replaced = std::exchange(state_, std::move(next));
}

std::optional<std::string> DmCluster::taskRefusal(const std::string& action, const std::string& taskName,
                                                  const std::string& source, const char* alreadyStage) const {
    ClusterState state = latest();
    const std::string what =
        action + " of task '" + taskName + "'" + (source.empty() ? "" : " on source '" + source + "'");
    if (!state.lastSeen) {
        return what + " not sent: the DM cluster " + name() + " has not been reached yet" +
               (state.error.empty() ? std::string() : ": " + state.error);
    }
    if (!state.error.empty()) {
        return what + " not sent: the DM cluster " + name() + " does not answer (last seen " +
               clockText(*state.lastSeen) + "): " + state.error;
    }
    const DmTask* task = state.task(taskName);
    if (!task) {
        return what + " not sent: the DM cluster " + name() + " has no task '" + taskName + "'";
    }
    bool any = false;
    bool allThere = true;
    for (const auto& subtask : task->subtasks) {
        if (source.empty() || subtask.source == source) {
            any = true;
            allThere = allThere && subtask.stage == alreadyStage;
        }
    }
    if (!source.empty() && !any) {
        return what + " not sent: task '" + taskName + "' has no subtask on source '" + source + "'";
    }
    if (any && allThere) {
        return what + " not sent: it is " + alreadyStage + " already";
    }
    return std::nullopt;
}

task::CommandResult DmCluster::send(const std::string& action, const std::string& taskName, const std::string& source,
                                    const std::string& path, const std::string& body) {
    const std::string what =
        action + " of " +
        (taskName.empty() ? "source '" + source + "'"
                          : "task '" + taskName + "'" + (source.empty() ? "" : " on source '" + source + "'"));
    task::AuditEntry entry;
    entry.action = "dm " + action;
    entry.task = "DM cluster " + name() + (taskName.empty() ? "" : " task " + taskName);
    entry.sourceId = source;
    entry.positionBefore = subtaskPosition(latest(), taskName, source);
    entry.details = {{"request", "POST " + path}};
    if (!body.empty()) {
        entry.details["body"] = nlohmann::json::parse(body);
    }
    try {
        audit_.append(entry);
    } catch (const std::exception& e) {
        return {false, what + " not sent: the audit log cannot be written: " + e.what()};
    }
    DmApiClient::Answer answer = client_.post(path, body);
    if (!answer.answered()) {
        pollNow();
        return {false, what + " not sent: " + answer.error};
    }
    if (answer.status != kHttpOk) {
        pollNow();
        return {false, what + " refused by " + answer.master + " (HTTP " + std::to_string(answer.status) +
                           "): " + errorMessageOf(answer.body)};
    }
    if (!taskName.empty()) {
        refreshTask(taskName);
    }
    pollNow();
    return {true, what + " sent to " + answer.master};
}

void DmCluster::refreshTask(const std::string& taskName) {
    try {
        auto subtasks = fetch<std::vector<DmSubtask>>(client_, "/api/v1/tasks/" + pathSegment(taskName) + "/status",
                                                      readTaskStatus);
        std::shared_ptr<const ClusterState> replaced;
        std::lock_guard lock(mutex_);
        auto next = std::make_shared<ClusterState>(*state_);
        for (auto& task : next->tasks) {
            if (task.name == taskName) {
                task.subtasks = std::move(subtasks);
            }
        }
        replaced = std::exchange(state_, std::move(next));
    } catch (const std::exception&) {
        // The next poll says what is wrong; the command itself was answered.
    }
}

task::CommandResult DmCluster::startTask(const std::string& taskName, const std::string& source) {
    return taskCommand("start", "Running", taskName, source);
}

task::CommandResult DmCluster::stopTask(const std::string& taskName, const std::string& source) {
    return taskCommand("stop", "Stopped", taskName, source);
}

// POST /api/v1/tasks/{task}/start|stop, for the whole task or one source's subtask, unless every subtask it
// names is in `alreadyStage` already.
task::CommandResult DmCluster::taskCommand(const std::string& action, const char* alreadyStage,
                                           const std::string& taskName, const std::string& source) {
    std::lock_guard commandLock(commandMutex_);
    if (auto refusal = taskRefusal(action, taskName, source, alreadyStage)) {
        return {false, *refusal};
    }
    nlohmann::json body = nlohmann::json::object();
    if (!source.empty()) {
        body["source_name_list"] = {source};
    }
    return send(action, taskName, source, "/api/v1/tasks/" + pathSegment(taskName) + "/" + action, body.dump());
}

std::optional<std::string> DmCluster::sourceRefusal(const std::string& action, const std::string& source,
                                                    bool enabledAlready) const {
    ClusterState state = latest();
    const std::string what = action + " '" + source + "'";
    if (!state.lastSeen || !state.error.empty()) {
        return what + " not sent: the DM cluster " + name() + " does not answer" +
               (state.error.empty() ? std::string() : ": " + state.error);
    }
    for (const auto& candidate : state.sources) {
        if (candidate.name == source) {
            if (candidate.enabled == enabledAlready) {
                return what + " not sent: the source is " + (enabledAlready ? "enabled" : "disabled") + " already";
            }
            return std::nullopt;
        }
    }
    return what + " not sent: the DM cluster " + name() + " has no source '" + source + "'";
}

task::CommandResult DmCluster::enableSource(const std::string& source) {
    std::lock_guard commandLock(commandMutex_);
    if (auto refusal = sourceRefusal("enable source", source, true)) {
        return {false, *refusal};
    }
    return send("enable source", {}, source, "/api/v1/sources/" + pathSegment(source) + "/enable", {});
}

task::CommandResult DmCluster::disableSource(const std::string& source) {
    std::lock_guard commandLock(commandMutex_);
    if (auto refusal = sourceRefusal("disable source", source, false)) {
        return {false, *refusal};
    }
    return send("disable source", {}, source, "/api/v1/sources/" + pathSegment(source) + "/disable", {});
}

}  // namespace syncscope::dmcluster
