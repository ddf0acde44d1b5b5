// The commands that move the task past rows: POST /api/v1/skip (the failed event) and /api/v1/resume-from (a
// point), and their previews, GET /api/v1/preview/skip and /preview/resume-from. Before a skip, or a resume-from
// that goes forward, the rows left out are saved as replayable SQL (unless the body says "save_sql": false); if
// that fails, nothing changes.
#include <spdlog/spdlog.h>

#include <filesystem>

#include "engine/control/control_request.h"
#include "engine/control/control_router.h"
#include "engine/task/evidenced_resume_from.h"

namespace syncscope::control {

namespace {

// Adds the saved file and its preview to a command's answer.
std::function<void(nlohmann::json&)> withEvidence(const task::SkipEvidence& evidence) {
    return [&evidence](nlohmann::json& answer) {
        if (!evidence.replaySqlFile.empty()) {
            answer["replay_sql_file"] = evidence.replaySqlFile;
            answer["preview"] = evidence.preview;
        }
    };
}

// A command the task refused skipped nothing: the rows saved for it are removed.
void dropUnusedEvidence(const task::CommandResult& result, task::SkipEvidence& evidence) {
    if (!result.accepted && !evidence.replaySqlFile.empty()) {
        std::error_code ignored;
        std::filesystem::remove(evidence.replaySqlFile, ignored);
        evidence = {};
    }
}

void skip(const ControlRouter& router, const httplib::Request& req, const std::string& body, httplib::Response& res) {
    SkipBody request = parseSkipBody(body);
    if (!request.problem.empty()) {
        router.replyError(res, http_status::kBadRequest, "skip: " + request.problem);
        return;
    }
    task::TaskControl* addressed = router.targetOf(req, res);
    if (addressed == nullptr) {
        return;
    }
    task::TaskControl& target = router.failedSubtaskOr(*addressed);
    auto status = target.status();
    const auto& previewer = router.options().previewer;
    task::SkipEvidence evidence;
    if (previewer && request.saveSkippedRows && status->failedEvent) {
        try {
            evidence = previewer->saveSkippedRows(*status);
        } catch (const std::exception& e) {
            router.replyError(res, http_status::kBadGateway,
                              std::string("skip refused, nothing changed: the skipped rows could not be saved as "
                                          "replayable SQL: ") +
                                  e.what() + "; fix that, or skip without saving them: {\"save_sql\": false}");
            return;
        }
    }
    task::CommandResult result = target.skipFailedEvent(evidence);
    dropUnusedEvidence(result, evidence);
    router.answerCommand(res, "skip", result, withEvidence(evidence), target,
                         router.isWholeTask(target) ? std::string() : status->sourceId);
}

// Going back, nothing is skipped or saved.
void resumeFrom(const ControlRouter& router, const httplib::Request& req, const std::string& body,
                httplib::Response& res) {
    ResumeFromRequest request = parseResumeFromBody(body);
    if (!request.target) {
        router.replyError(res, http_status::kBadRequest, "resume-from: " + request.problem);
        return;
    }
    task::TaskControl* target = router.targetOf(req, res);
    if (target == nullptr) {
        return;
    }
    auto status = target->status();
    const auto& previewer = router.options().previewer;
    // Only where the task takes a resume-from: a refusal by the task (409) then costs no binlog read.
    const bool takesIt = status->stage == task::Stage::Paused || status->stage == task::Stage::Stopped;
    if (previewer && takesIt) {
        std::string problem;
        try {
            problem = previewer->resumeTargetProblem(*status, *request.target);
        } catch (const std::exception& e) {
            spdlog::warn("control API: resume-from: the target could not be checked in the binlog: {}", e.what());
        }
        if (!problem.empty()) {
            router.replyError(res, http_status::kBadRequest, "resume-from refused, nothing changed: " + problem);
            return;
        }
    }
    task::SkipEvidence evidence;
    if (previewer && request.saveSkippedRows && takesIt) {
        try {
            evidence = previewer->saveResumeFromSkippedRows(*status, *request.target);
        } catch (const std::exception& e) {
            router.replyError(res, http_status::kBadGateway,
                              std::string("resume-from refused, nothing changed: the rows it skips could not be saved "
                                          "as replayable SQL: ") +
                                  e.what() + "; fix that, or resume without saving them: \"save_sql\": false");
            return;
        }
    }
    task::CommandResult result = task::resumeFromWithEvidence(*target, *request.target, evidence);
    dropUnusedEvidence(result, evidence);
    router.answerCommand(res, "resume-from", result, withEvidence(evidence), *target, req.get_param_value("source"));
}

// A preview reads both servers on this request's thread: the task is not held meanwhile.
void servePreview(const ControlRouter& router, httplib::Response& res, const std::string& command,
                  const std::function<nlohmann::json()>& read) {
    if (!router.options().previewer) {
        router.replyError(res, http_status::kNotFound, "preview " + command + ": this control API serves no previews");
        return;
    }
    try {
        router.reply(res, http_status::kOk, {{"command", command}, {"preview", read()}});
    } catch (const std::exception& e) {
        router.replyError(res, http_status::kBadGateway, "preview " + command + ": " + e.what());
    }
}

void previewSkip(const ControlRouter& router, const httplib::Request& req, httplib::Response& res) {
    task::TaskControl* addressed = router.targetOf(req, res);
    if (addressed == nullptr) {
        return;
    }
    auto status = router.failedSubtaskOr(*addressed).status();
    if (!status->failedEvent) {
        router.replyError(res, http_status::kConflict,
                          "preview skip: the task has no failed event to skip (stage " +
                              std::string(task::stageName(status->stage)) + ")");
        return;
    }
    servePreview(router, res, "skip", [&] { return router.options().previewer->previewSkip(*status); });
}

void previewResumeFrom(const ControlRouter& router, const httplib::Request& req, httplib::Response& res) {
    ResumeFromRequest request = parseResumeFromQuery(
        req.get_param_value("binlog_name"), req.get_param_value("binlog_pos"), req.get_param_value("gtid"),
        req.has_param("binlog_name"), req.has_param("binlog_pos"), req.has_param("gtid"));
    if (request.target && request.target->file.empty()) {
        request.problem =
            "the preview reads the binlog between two positions: give binlog_name and "
            "binlog_pos (a GTID's position: `syncscope-cli events --server ... --from GTID`)";
        request.target.reset();
    }
    if (!request.target) {
        router.replyError(res, http_status::kBadRequest, "preview resume-from: " + request.problem);
        return;
    }
    task::TaskControl* target = router.targetOf(req, res);
    if (target == nullptr) {
        return;
    }
    auto status = target->status();
    servePreview(router, res, "resume-from",
                 [&] { return router.options().previewer->previewResumeFrom(*status, *request.target); });
}

}  // namespace

void addSkipRoutes(ControlRouter& router) {
    router.post("/api/v1/skip", [&router](const httplib::Request& req, const std::string& body,
                                          httplib::Response& res) { skip(router, req, body, res); });
    router.post("/api/v1/resume-from", [&router](const httplib::Request& req, const std::string& body,
                                                 httplib::Response& res) { resumeFrom(router, req, body, res); });
    router.get("/api/v1/preview/skip",
               [&router](const httplib::Request& req, httplib::Response& res) { previewSkip(router, req, res); });
    router.get("/api/v1/preview/resume-from",
               [&router](const httplib::Request& req, httplib::Response& res) { previewResumeFrom(router, req, res); });
}

}  // namespace syncscope::control
