// GET /api/v1/status, /api/v1/version, /api/v1/history and /metrics: what the task is doing, read by the GUI,
// the CLI and Prometheus.
#include <chrono>
#include <optional>

#include "engine/control/control_router.h"
#include "engine/control/error_tally.h"
#include "engine/control/metrics_page.h"
#include "engine/control/metrics_writer.h"
#include "engine/control/status_history.h"
#include "engine/control/status_json.h"
#include "engine/control/status_json_reader.h"
#include "engine/control/verify_status.h"

namespace syncscope::control {

namespace {

// Revision 2: /api/v1/version, /api/v1/audit, /api/v1/log, HTTPS, a JSON reason in every 4xx.
// Revision 3: subtasks of a task with several sources (status "subtasks", ?source=ID).
// Revision 4: GET /api/v1/history?since=TIME (the charts' last ten minutes).
// Revision 5: GET /api/v1/shard-locks (shard-mode), status "shard_locks", the DBA's unlock and its preview.
constexpr int kApiRevision = 6;
const char* const kMetricsType = "text/plain; version=0.0.4; charset=utf-8";

void serveStatus(const ControlRouter& router, const httplib::Request& req, httplib::Response& res) {
    task::TaskControl* target = router.targetOf(req, res);
    if (target == nullptr) {
        return;
    }
    const ControlServerOptions& options = router.options();
    nlohmann::json status = statusJson(*target->status());
    status["verify"] = readVerifySummary(options.verifySummaryFile);
    if (options.subtasks != nullptr && router.isWholeTask(*target)) {
        nlohmann::json subtasks = nlohmann::json::array();
        for (const std::string& id : options.subtasks->sourceIds()) {
            if (task::TaskControl* subtask = options.subtasks->subtask(id)) {
                subtasks.push_back(statusJson(*subtask->status()));
            }
        }
        status["subtasks"] = subtasks;
    }
    router.reply(res, http_status::kOk, status);
}

void serveVersion(const ControlRouter& router, httplib::Response& res) {
    router.reply(
        res, http_status::kOk,
        {{"api", "v1"},
         {"revision", kApiRevision},
         {"tls", !router.options().tlsCertFile.empty()},
         {"endpoints",
          {"GET /api/v1/status", "GET /api/v1/version", "GET /api/v1/audit?tail=N", "GET /api/v1/log?tail=N",
           "GET /metrics", "POST /api/v1/start", "POST /api/v1/pause", "POST /api/v1/resume", "POST /api/v1/stop",
           "POST /api/v1/skip", "POST /api/v1/resume-from", "POST /api/v1/until", "GET /api/v1/preview/skip",
           "GET /api/v1/preview/resume-from", "GET /api/v1/history?since=TIME", "GET /api/v1/shard-locks",
           "GET /api/v1/preview/shard-unlock?target=S.T", "POST /api/v1/shard-locks/unlock?target=S.T"}}});
}

// ?since=TIME (ISO, as status's taken_at; default: all that is kept), ?source=ID for one subtask's.
void serveHistory(const ControlRouter& router, const StatusHistory& history, const httplib::Request& req,
                  httplib::Response& res) {
    task::Clock::time_point since{};
    if (req.has_param("since")) {
        std::optional<task::Clock::time_point> parsed = parseIsoTime(req.get_param_value("since"));
        if (!parsed) {
            router.replyError(res, http_status::kBadRequest,
                              req.path +
                                  ": since must be a UTC time as the status's taken_at (2026-12-02T06:00:00.000Z), "
                                  "got '" +
                                  req.get_param_value("since") + "'");
            return;
        }
        since = *parsed;
    }
    task::TaskControl* target = router.targetOf(req, res);
    if (target == nullptr) {
        return;
    }
    const std::string channel = router.isWholeTask(*target) ? std::string() : req.get_param_value("source");
    nlohmann::json body = historyJson(history.since(channel, since));
    body["window_seconds"] = std::chrono::duration_cast<std::chrono::seconds>(history.window()).count();
    router.reply(res, http_status::kOk, body);
}

}  // namespace

void addStatusRoutes(ControlRouter& router, ErrorTally& errors, const StatusHistory& history) {
    router.get("/api/v1/status",
               [&router](const httplib::Request& req, httplib::Response& res) { serveStatus(router, req, res); });
    router.get("/api/v1/shard-locks", [&router](const httplib::Request&, httplib::Response& res) {
        auto status = router.task().status();
        router.reply(res, http_status::kOk,
                     {{"task", status->taskName},
                      {"shard_locks", shardLocksJson(status->shardLocks)},
                      {"shard_columns", shardColumnsJson(status->shardColumns)}});
    });
    router.get("/api/v1/preview/shard-unlock", [&router](const httplib::Request& req, httplib::Response& res) {
        task::CommandResult preview = router.task().unlockShardDdl(req.get_param_value("target"), true);
        if (!preview.accepted) {
            router.replyError(res, http_status::kConflict, "preview shard-unlock: " + preview.reason);
            return;
        }
        router.reply(res, http_status::kOk, {{"command", "shard-unlock"}, {"preview", preview.reason}});
    });
    router.get("/api/v1/version",
               [&router](const httplib::Request&, httplib::Response& res) { serveVersion(router, res); });
    router.get("/api/v1/history", [&router, &history](const httplib::Request& req, httplib::Response& res) {
        serveHistory(router, history, req, res);
    });
    router.get("/metrics", [&router, &errors](const httplib::Request&, httplib::Response& res) {
        auto status = router.task().status();
        errors.observe(*status);
        MetricsWriter verifyMetrics;
        writeVerifyMetrics(readVerifySummary(router.options().verifySummaryFile), verifyMetrics);
        router.replyText(res, renderMetrics(*status, errors.counts()) + verifyMetrics.text(), kMetricsType);
    });
}

}  // namespace syncscope::control
