#include "engine/remote/remote_task.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <ctime>
#include <utility>

#include "engine/common/local_time.h"
#include "engine/control/status_json.h"
#include "engine/control/status_json_reader.h"

namespace syncscope::remote {

namespace {

// A query parameter's value, percent-encoded (a table name may hold any character).
std::string queryValue(const std::string& value) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string encoded;
    for (unsigned char c : value) {
        if (std::isalnum(c) != 0 || c == '.' || c == '_' || c == '-') {
            encoded += static_cast<char>(c);
        } else {
            encoded += '%';
            encoded += kHex[c >> 4];
            encoded += kHex[c & 0xF];
        }
    }
    return encoded;
}

constexpr int kHttpOk = 200;
constexpr int kHttpNotFound = 404;
constexpr size_t kMaxNotices = 256;

}  // namespace

RemoteTask::RemoteTask(RemoteEngineOptions options) : client_(std::move(options)) {}

RemoteTask::~RemoteTask() = default;

void RemoteTask::pollOnce() {
    ControlApiClient::Answer answer = client_.get("/api/v1/status");
    std::string problem = answer.error;
    std::shared_ptr<const task::StatusSnapshot> fresh;
    if (problem.empty() && answer.status != kHttpOk) {
        problem = client_.options().url() + "/api/v1/status answered HTTP " + std::to_string(answer.status) + ": " +
                  answer.body;
    } else if (problem.empty()) {
        try {
            fresh = std::make_shared<const task::StatusSnapshot>(
                control::statusFromJson(nlohmann::json::parse(answer.body)));
        } catch (const std::exception& e) {
            problem = client_.options().url() + "/api/v1/status: the answer is not a SyncScope status: " + e.what();
        }
    }
    std::shared_ptr<const task::StatusSnapshot> replaced;  // freed after the lock: status() must not wait on a free
    std::lock_guard lock(mutex_);
    if (fresh) {
        if (!connection_.connected && connection_.failedPolls > 0 && notices_.size() < kMaxNotices) {
            notices_.push_back(
                {task::Clock::now(), fresh->stage, "connection to " + client_.options().url() + " restored", false});
        }
        if (lastStage_ && *lastStage_ != fresh->stage && notices_.size() < kMaxNotices) {
            notices_.push_back({task::Clock::now(), fresh->stage,
                                std::string("stage ") + task::stageName(fresh->stage) + ": " + fresh->stageReason,
                                fresh->stage == task::Stage::Error});
        }
        lastStage_ = fresh->stage;
        replaced = std::exchange(last_, std::move(fresh));
        connection_.connected = true;
        connection_.lastSeen = std::chrono::system_clock::now();
        connection_.error.clear();
        connection_.failedPolls = 0;
        return;
    }
    if (connection_.connected && notices_.size() < kMaxNotices) {
        notices_.push_back({task::Clock::now(), task::Stage::Error, "connection lost: " + problem, true});
    }
    connection_.connected = false;
    connection_.error = problem;
    ++connection_.failedPolls;
}

std::vector<control::HistoryPoint> RemoteTask::history(std::chrono::system_clock::time_point since) const {
    const std::string path = "/api/v1/history?since=" + control::isoTime(since);
    ControlApiClient::Answer answer = client_.get(path);
    if (!answer.error.empty()) {
        throw RemoteEngineError("history not read: " + answer.error);
    }
    if (answer.status == kHttpNotFound) {
        return {};  // API revision 3 or older keeps no history
    }
    if (answer.status != kHttpOk) {
        throw RemoteEngineError(client_.options().url() + path + " answered HTTP " + std::to_string(answer.status) +
                                ": " + answer.body);
    }
    try {
        return control::historyFromJson(nlohmann::json::parse(answer.body));
    } catch (const std::exception& e) {
        throw RemoteEngineError(client_.options().url() + path +
                                ": the answer is not a SyncScope history: " + e.what());
    }
}

RemoteConnection RemoteTask::connection() const {
    std::lock_guard lock(mutex_);
    return connection_;
}

std::shared_ptr<const task::StatusSnapshot> RemoteTask::status() const {
    std::lock_guard lock(mutex_);
    if (connection_.connected && last_) {
        return last_;
    }
    // Not a frozen healthy state: what was last seen, marked as lost.
    auto lost = last_ ? std::make_shared<task::StatusSnapshot>(*last_) : std::make_shared<task::StatusSnapshot>();
    if (!last_) {
        lost->taskName = client_.options().address();
    }
    lost->sequence = (last_ ? last_->sequence : 0) + connection_.failedPolls;
    lost->takenAt = task::Clock::now();
    lost->stage = task::Stage::Error;
    const std::string seen = connection_.lastSeen ? "last seen " + clockText(*connection_.lastSeen) : "never reached";
    lost->stageReason = "connection lost (" + seen + "), reconnecting";
    lost->lastError = "remote engine " + client_.options().url() + ": " +
                      (connection_.error.empty() ? std::string("connecting") : connection_.error) + " (" + seen +
                      ", reconnecting)";
    lost->recentRowsPerSecond = 0;
    return lost;
}

std::vector<task::Notice> RemoteTask::drainNotices(size_t maxCount) {
    std::lock_guard lock(mutex_);
    size_t count = std::min(maxCount, notices_.size());
    std::vector<task::Notice> out(notices_.begin(), notices_.begin() + static_cast<std::ptrdiff_t>(count));
    notices_.erase(notices_.begin(), notices_.begin() + static_cast<std::ptrdiff_t>(count));
    return out;
}

task::CommandResult RemoteTask::command(const std::string& name, const std::string& body) {
    ControlApiClient::Answer answer = client_.post("/api/v1/" + name, body);
    if (!answer.error.empty()) {
        return {false, name + " not sent: " + answer.error};
    }
    nlohmann::json json = nlohmann::json::parse(answer.body, nullptr, false);
    std::string text =
        json.is_object() ? json.value("result", json.value("reason", json.value("error", answer.body))) : answer.body;
    poller_.pollNow();  // show the command's effect at once
    return {answer.status == kHttpOk, text};
}

task::CommandResult RemoteTask::start() {
    return command("start");
}
task::CommandResult RemoteTask::pause() {
    return command("pause");
}
task::CommandResult RemoteTask::resume() {
    return command("resume");
}
task::CommandResult RemoteTask::stop() {
    return command("stop");
}
task::CommandResult RemoteTask::skipFailedEvent(const task::SkipEvidence&) {
    return command("skip");
}
task::CommandResult RemoteTask::resumeFrom(const task::ResumeTarget& target) {
    nlohmann::json body = nlohmann::json::object();
    if (!target.file.empty()) {
        body["binlog_name"] = target.file;
        body["binlog_pos"] = target.pos;
    }
    if (!target.gtid.empty()) {
        body["gtid"] = target.gtid;
    }
    return command("resume-from", body.dump());
}

task::CommandResult RemoteTask::stopAt(const std::string& point) {
    return command("until", nlohmann::json{{"point", point}}.dump());
}

task::CommandResult RemoteTask::unlockShardDdl(const std::string& target, bool preview) {
    const std::string query = "?target=" + queryValue(target);
    if (!preview) {
        return command("shard-locks/unlock" + query);
    }
    ControlApiClient::Answer answer = client_.get("/api/v1/preview/shard-unlock" + query);
    if (!answer.error.empty()) {
        return {false, "preview of the unlock not asked: " + answer.error};
    }
    nlohmann::json json = nlohmann::json::parse(answer.body, nullptr, false);
    std::string text = json.is_object() ? json.value("preview", json.value("error", answer.body)) : answer.body;
    return {answer.status == kHttpOk, text};
}

}  // namespace syncscope::remote
