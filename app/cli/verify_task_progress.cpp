#include "app/cli/verify_task_progress.h"

#include <nlohmann/json.hpp>

#include <cppconn/connection.h>

#include "engine/apply/downstream_connection.h"
#include "engine/inspect/checkpoint_table_reader.h"
#include "engine/remote/control_api_client.h"
#include "engine/verify/verify_error.h"

namespace syncscope::cli {
namespace {

constexpr int kHttpOk = 200;
constexpr int kControlTimeoutSeconds = 5;

verify::AppliedAnswer answerFor(const binlog::Location& applied, const binlog::Location& point) {
    binlog::PositionOrder order = applied.compare(point);
    return order == binlog::PositionOrder::After || order == binlog::PositionOrder::Same
               ? verify::AppliedAnswer::Applied
               : verify::AppliedAnswer::NotYet;
}

class ControlApiProgress : public verify::TaskProgress {
public:
    explicit ControlApiProgress(remote::RemoteEngineOptions endpoint) : client_(std::move(endpoint)) {}

    verify::AppliedAnswer appliedUpTo(const binlog::Location& point) override {
        remote::ControlApiClient::Answer response = client_.get("/api/v1/status");
        if (!response.ok() || response.status != kHttpOk) {
            throw verify::VerifyError(
                "the task's control API did not answer: " +
                (response.ok() ? client_.options().url() + "/api/v1/status: HTTP " + std::to_string(response.status)
                               : response.error));
        }
        auto status = nlohmann::json::parse(response.body, nullptr, false);
        const nlohmann::json points = status.is_object() ? status.value("points", nlohmann::json()) : nlohmann::json();
        const nlohmann::json applied =
            points.is_object() ? points.value("applied", nlohmann::json()) : nlohmann::json();
        if (!applied.is_object()) {
            // Waiting on an answer that can never come would call every row in flight unsettled.
            throw verify::VerifyError("the task's control API at " + client_.options().url() +
                                      " answered /api/v1/status without points.applied: is it a SyncScope engine?");
        }
        auto location =
            binlog::Location::fromParts(applied.value("binlog_name", ""), applied.value("binlog_pos", uint64_t{0}),
                                        applied.value("binlog_gtid", ""));
        return answerFor(location, point);
    }

    std::string describe() const override {
        return "the applied point from the task's control API at " + client_.options().address();
    }

private:
    remote::ControlApiClient client_;
};

class CheckpointProgress : public verify::TaskProgress {
public:
    CheckpointProgress(const ServerSettings& downstream, std::string metaSchema, std::string task, std::string sourceId)
        : connection_(apply::connectDownstream(downstream)),
          metaSchema_(std::move(metaSchema)),
          task_(std::move(task)),
          sourceId_(std::move(sourceId)) {}

    verify::AppliedAnswer appliedUpTo(const binlog::Location& point) override {
        std::vector<inspect::CheckpointTableRows> tables;
        try {
            tables = inspect::CheckpointTableReader(*connection_).read(metaSchema_, task_);
        } catch (const apply::DownstreamError&) {
            return verify::AppliedAnswer::NoTask;  // no checkpoint table: nothing replicates here
        }
        for (const auto& table : tables) {
            for (const auto& row : table.rows) {
                if (row.isGlobal && row.sourceId == sourceId_) {
                    auto global =
                        binlog::Location::fromParts(row.binlogName, row.binlogPos.value_or(0), row.binlogGtid);
                    return answerFor(global, point);
                }
            }
        }
        return verify::AppliedAnswer::NoTask;
    }

    std::string describe() const override {
        return "the persisted global point of `" + metaSchema_ + "`.`" + task_ + "_syncer_checkpoint`";
    }

private:
    std::unique_ptr<sql::Connection> connection_;
    std::string metaSchema_;
    std::string task_;
    std::string sourceId_;
};

}  // namespace

std::unique_ptr<verify::TaskProgress> controlApiProgress(const std::string& address, const std::string& caFile,
                                                         const std::string& tokenFile) {
    remote::RemoteEngineOptions endpoint = remote::controlEndpoint(address, caFile, tokenFile);
    endpoint.timeoutSeconds = kControlTimeoutSeconds;
    endpoint.connectTimeoutSeconds = kControlTimeoutSeconds;
    return std::make_unique<ControlApiProgress>(std::move(endpoint));
}

std::unique_ptr<verify::TaskProgress> checkpointProgress(const ServerSettings& downstream,
                                                         const std::string& metaSchema, const std::string& task,
                                                         const std::string& sourceId) {
    return std::make_unique<CheckpointProgress>(downstream, metaSchema, task, sourceId);
}

}  // namespace syncscope::cli
