#include "engine/control/control_server.h"

#include <httplib.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "engine/common/secret_redaction.h"
#include "engine/common/thread_priority.h"
#include "engine/control/control_request.h"
#include "engine/control/error_tally.h"
#include "engine/control/file_tail.h"
#include "engine/control/listen_address.h"
#include "engine/control/metrics_page.h"
#include "engine/control/status_history.h"
#include "engine/control/status_json.h"
#include "engine/control/status_json_reader.h"
#include "engine/control/verify_status.h"
#include "engine/task/evidenced_resume_from.h"

namespace syncscope::control {

namespace {

constexpr int kHttpOk = 200;
constexpr int kHttpBadRequest = 400;
constexpr int kHttpUnauthorized = 401;
constexpr int kHttpForbidden = 403;
constexpr int kHttpNotFound = 404;
constexpr int kHttpConflict = 409;
constexpr int kHttpPayloadTooLarge = 413;
constexpr int kHttpFirstError = 400;
constexpr int kHttpInternalError = 500;
constexpr int kHttpBadGateway = 502;  // a preview could not read the upstream or the downstream
constexpr size_t kServerThreads = 4;

// httplib's worker pool with its threads at the engine threads' priority: a process that embeds servers beside a
// GUI (the GUI benchmark's remote engines) keeps its GUI thread first in line for a core. No change unless a
// front end set an increment (thread_priority.h).
class EnginePriorityThreadPool final : public httplib::TaskQueue {
public:
    explicit EnginePriorityThreadPool(size_t threads) : pool_(threads) {}
    void enqueue(std::function<void()> work) override {
        pool_.enqueue([work = std::move(work)] {
            thread_local bool lowered = false;  // once per thread: a request need not pay the getpriority call
            if (!lowered) {
                applyEngineThreadPriority();
                lowered = true;
            }
            work();
        });
    }
    void shutdown() override { pool_.shutdown(); }

private:
    httplib::ThreadPool pool_;
};
constexpr time_t kKeepAliveSeconds = 1;      // short, so that stop() does not wait on idle clients
constexpr size_t kMaxBodyBytes = 64 * 1024;  // a resume-from body is a few dozen bytes
constexpr std::chrono::milliseconds kErrorWatchInterval{100};
constexpr int kJsonIndent = 2;
const char* const kJsonType = "application/json";
// Revision 2: /api/v1/version, /api/v1/audit, /api/v1/log, HTTPS, a JSON reason in every 4xx.
// Revision 3: subtasks of a task with several sources (status "subtasks", ?source=ID).
// Revision 4: GET /api/v1/history?since=TIME (the charts' last ten minutes).
constexpr int kApiRevision = 4;
constexpr size_t kDefaultTailLines = 100;
constexpr size_t kMaxTailLines = 5000;
constexpr size_t kMaxTailDigits = 4;
constexpr size_t kMaxTailBytes = 4 * 1024 * 1024;
const char* const kMetricsType = "text/plain; version=0.0.4; charset=utf-8";
const char* const kBearerPrefix = "Bearer ";

// RFC 9112 section 6.3: a request with neither Content-Length nor Transfer-Encoding has no body. httplib
// 0.11 would read one until the client closes, so `curl -X POST .../pause` waited for the read timeout
// and got a bare 400; the POST routes therefore read their body themselves, only when there is one.
bool requestHasBody(const httplib::Request& req) {
    return req.has_header("Content-Length") || req.has_header("Transfer-Encoding");
}

// The reason given for a 4xx or 5xx that no route answered itself (httplib's own refusals).
std::string reasonForStatus(const httplib::Request& req, int status) {
    const std::string request = req.method.empty() ? std::string("the request") : req.method + " " + req.path;
    if (status == kHttpNotFound) {
        return "no such endpoint: " + request + "; see GET /api/v1/version for the endpoints";
    }
    if (status == kHttpPayloadTooLarge) {
        return request + ": the body is larger than the " + std::to_string(kMaxBodyBytes) +
               " bytes the control API accepts";
    }
    if (status == kHttpBadRequest) {
        return request + ": the request could not be read (malformed request line, header or body)";
    }
    return request + ": refused with HTTP status " + std::to_string(status);
}

// Compares without an early exit, so that the time taken says nothing about the token.
bool sameToken(const std::string& given, const std::string& expected) {
    unsigned char difference = given.size() == expected.size() ? 0 : 1;
    for (size_t i = 0; i < given.size(); ++i) {
        difference |= static_cast<unsigned char>(given[i] ^ expected[i % expected.size()]);
    }
    return difference == 0;
}

}  // namespace

struct ControlServer::Impl {
    task::TaskControl& task;
    ControlServerOptions options;
    std::unique_ptr<httplib::Server> server;  // an SSLServer when TLS is configured
    ErrorTally errors;
    StatusHistory history;            // sampled by the watching thread
    std::set<std::string> postPaths;  // the POST routes, filled before serving starts
    int port = 0;
    std::thread serving;
    std::atomic<bool> servingEnded = false;
    std::thread watching;
    std::mutex mutex;
    std::condition_variable wake;
    bool stopping = false;

    Impl(task::TaskControl& t, ControlServerOptions o) : task(t), options(std::move(o)) {
        if (options.tlsCertFile.empty() != options.tlsKeyFile.empty()) {
            throw ControlServerError("TLS for the control API needs both a certificate and a key file");
        }
        if (options.tlsCertFile.empty()) {
            server = std::make_unique<httplib::Server>();
            return;
        }
        for (const std::string* file : {&options.tlsCertFile, &options.tlsKeyFile}) {
            if (!std::ifstream(*file)) {
                throw ControlServerError("cannot read the control API's TLS file '" + *file + "'");
            }
        }
        auto tls = std::make_unique<httplib::SSLServer>(options.tlsCertFile.c_str(), options.tlsKeyFile.c_str());
        if (!tls->is_valid()) {
            throw ControlServerError("the control API's TLS certificate '" + options.tlsCertFile + "' and key '" +
                                     options.tlsKeyFile + "' cannot be used (not PEM, or they do not match)");
        }
        server = std::move(tls);
    }

    std::string redact(std::string text) const {
        for (const std::string& secret : options.secrets) {
            if (secret.empty()) {
                continue;
            }
            for (size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at)) {
                text.replace(at, secret.size(), "***");
            }
        }
        return text;
    }

    void reply(httplib::Response& res, int status, const nlohmann::json& body) const {
        res.status = status;
        res.set_content(redact(body.dump(kJsonIndent, ' ', false, nlohmann::json::error_handler_t::replace)) + "\n",
                        kJsonType);
    }

    void replyError(httplib::Response& res, int status, const std::string& message) const {
        reply(res, status, {{"error", message}});
    }

    enum class Access { None, Read, Control };

    // What the request's bearer token grants: everything without tokens; the control token everything;
    // the read-only token GETs.
    Access accessOf(const httplib::Request& req) const {
        if (options.token.empty()) {
            return Access::Control;
        }
        std::string header = req.get_header_value("Authorization");
        if (!header.starts_with(kBearerPrefix)) {
            return Access::None;
        }
        std::string given = header.substr(std::string_view(kBearerPrefix).size());
        if (sameToken(given, options.token)) {
            return Access::Control;
        }
        return !options.readToken.empty() && sameToken(given, options.readToken) ? Access::Read : Access::None;
    }

    void answerCommand(httplib::Response& res, const char* command, const task::CommandResult& result,
                       const std::function<void(nlohmann::json&)>& addToAnswer = {},
                       const task::TaskControl* target = nullptr, const std::string& sourceId = {}) {
        nlohmann::json body{{"command", command}, {"accepted", result.accepted}};
        if (!sourceId.empty()) {
            body["source"] = sourceId;
        }
        if (addToAnswer) {
            addToAnswer(body);
        }
        body[result.accepted ? "result" : "reason"] = result.reason;
        if (!result.accepted) {
            body["error"] = std::string(command) + ": " + result.reason;  // every refusal has "error"
        }
        body["stage"] = task::stageName((target != nullptr ? target : &task)->status()->stage);
        if (result.accepted) {
            spdlog::info("control API: {}{}: {}", command, sourceId.empty() ? "" : " (source " + sourceId + ")",
                         result.reason);
        }
        reply(res, result.accepted ? kHttpOk : kHttpConflict, body);
    }

    // The task a request addresses: the whole task, or with ?source=ID that source's subtask. Answers 404 and
    // returns null when the task has no such source.
    task::TaskControl* targetOf(const httplib::Request& req, httplib::Response& res) const {
        if (!req.has_param("source")) {
            return &task;
        }
        const std::string sourceId = req.get_param_value("source");
        if (options.subtasks != nullptr) {
            if (task::TaskControl* subtask = options.subtasks->subtask(sourceId)) {
                return subtask;
            }
        } else if (task.status()->sourceId == sourceId) {
            return &task;
        }
        std::string known;
        for (const std::string& id : options.subtasks != nullptr ? options.subtasks->sourceIds()
                                                                 : std::vector<std::string>{task.status()->sourceId}) {
            known += (known.empty() ? "" : ", ") + id;
        }
        replyError(
            res, kHttpNotFound,
            req.method + " " + req.path + ": the task has no source '" + sourceId + "' (its sources: " + known + ")");
        return nullptr;
    }

    // A skip without ?source= on a task with several sources goes to the one subtask that failed.
    task::TaskControl& failedSubtaskOr(task::TaskControl& target) const {
        if (&target != &task || options.subtasks == nullptr) {
            return target;
        }
        task::TaskControl* failed = nullptr;
        for (const std::string& id : options.subtasks->sourceIds()) {
            task::TaskControl* subtask = options.subtasks->subtask(id);
            if (subtask != nullptr && subtask->status()->failedEvent) {
                if (failed != nullptr) {
                    return target;  // several: the whole task refuses and names them
                }
                failed = subtask;
            }
        }
        return failed != nullptr ? *failed : target;
    }

    // ?tail=N (default kDefaultTailLines, at most kMaxTailLines); answers 400 and nullopt when N is bad.
    std::optional<size_t> tailCount(const httplib::Request& req, httplib::Response& res) const {
        if (!req.has_param("tail")) {
            return kDefaultTailLines;
        }
        const std::string text = req.get_param_value("tail");
        if (text.empty() || text.size() > kMaxTailDigits || text.find_first_not_of("0123456789") != std::string::npos ||
            std::stoul(text) > kMaxTailLines) {
            replyError(res, kHttpBadRequest,
                       req.path + ": tail must be a number of lines from 0 to " + std::to_string(kMaxTailLines) +
                           ", got '" + text + "'");
            return std::nullopt;
        }
        return std::stoul(text);
    }

    using BodyHandler =
        std::function<void(const httplib::Request& req, const std::string& body, httplib::Response& res)>;

    void addPost(const char* path, BodyHandler handle) {
        postPaths.insert(path);
        server->Post(path, [this, handle](const httplib::Request& req, httplib::Response& res,
                                          const httplib::ContentReader& content) {
            std::string body;
            if (requestHasBody(req)) {
                bool read = content([&body](const char* data, size_t length) {
                    body.append(data, length);
                    return true;
                });
                if (!read) {
                    // httplib has set 413 (too large) or 400 (cut short) on res.
                    int status = res.status == kHttpPayloadTooLarge ? kHttpPayloadTooLarge : kHttpBadRequest;
                    replyError(res, status, reasonForStatus(req, status));
                    return;
                }
            }
            handle(req, body, res);
        });
    }

    void addCommand(const char* path, const char* command, std::function<task::CommandResult(task::TaskControl&)> run) {
        addPost(path,
                [this, command, run](const httplib::Request& req, const std::string& body, httplib::Response& res) {
                    std::string problem = problemWithEmptyBody(body);
                    if (!problem.empty()) {
                        replyError(res, kHttpBadRequest, std::string(command) + ": " + problem);
                        return;
                    }
                    task::TaskControl* target = targetOf(req, res);
                    if (target == nullptr) {
                        return;
                    }
                    answerCommand(res, command, run(*target), {}, target, req.get_param_value("source"));
                });
    }

    // A preview reads both servers on this request's thread: the task is not held meanwhile.
    void servePreview(httplib::Response& res, const std::string& command, const std::function<nlohmann::json()>& read) {
        if (!options.previewer) {
            replyError(res, kHttpNotFound, "preview " + command + ": this control API serves no previews");
            return;
        }
        try {
            reply(res, kHttpOk, {{"command", command}, {"preview", read()}});
        } catch (const std::exception& e) {
            replyError(res, kHttpBadGateway, "preview " + command + ": " + e.what());
        }
    }

    // A skip saves the rows it leaves out as replayable SQL first (when a previewer is set and the body does
    // not say {"save_sql": false}); if that fails, nothing is skipped.
    void skip(const httplib::Request& req, const std::string& body, httplib::Response& res) {
        SkipBody request = parseSkipBody(body);
        if (!request.problem.empty()) {
            replyError(res, kHttpBadRequest, "skip: " + request.problem);
            return;
        }
        task::TaskControl* addressed = targetOf(req, res);
        if (addressed == nullptr) {
            return;
        }
        task::TaskControl& target = failedSubtaskOr(*addressed);
        auto status = target.status();
        task::SkipEvidence evidence;
        if (options.previewer && request.saveSkippedRows && status->failedEvent) {
            try {
                evidence = options.previewer->saveSkippedRows(*status);
            } catch (const std::exception& e) {
                replyError(res, kHttpBadGateway,
                           std::string("skip refused, nothing changed: the skipped rows could not be saved as "
                                       "replayable SQL: ") +
                               e.what() + "; fix that, or skip without saving them: {\"save_sql\": false}");
                return;
            }
        }
        task::CommandResult result = target.skipFailedEvent(evidence);
        if (!result.accepted && !evidence.replaySqlFile.empty()) {
            std::error_code ignored;
            std::filesystem::remove(evidence.replaySqlFile, ignored);  // no skip, nothing to undo
            evidence = {};
        }
        answerCommand(
            res, "skip", result,
            [&](nlohmann::json& answer) {
                if (!evidence.replaySqlFile.empty()) {
                    answer["replay_sql_file"] = evidence.replaySqlFile;
                    answer["preview"] = evidence.preview;
                }
            },
            &target, &target == &task ? std::string() : status->sourceId);
    }

    // A resume-from going forward saves the rows it skips as replayable SQL first, as a skip does (unless the
    // body says "save_sql": false); if that fails, nothing changes. Going back, nothing is skipped or saved.
    void resumeFrom(const httplib::Request& req, const std::string& body, httplib::Response& res) {
        ResumeFromRequest request = parseResumeFromBody(body);
        if (!request.target) {
            replyError(res, kHttpBadRequest, "resume-from: " + request.problem);
            return;
        }
        task::TaskControl* target = targetOf(req, res);
        if (target == nullptr) {
            return;
        }
        auto status = target->status();
        // Only where the task takes a resume-from: a refusal by the task (409) then costs no binlog read.
        const bool takesIt = status->stage == task::Stage::Paused || status->stage == task::Stage::Stopped;
        if (options.previewer && takesIt) {
            std::string problem;
            try {
                problem = options.previewer->resumeTargetProblem(*status, *request.target);
            } catch (const std::exception& e) {
                spdlog::warn("control API: resume-from: the target could not be checked in the binlog: {}", e.what());
            }
            if (!problem.empty()) {
                replyError(res, kHttpBadRequest, "resume-from refused, nothing changed: " + problem);
                return;
            }
        }
        task::SkipEvidence evidence;
        if (options.previewer && request.saveSkippedRows && takesIt) {
            try {
                evidence = options.previewer->saveResumeFromSkippedRows(*status, *request.target);
            } catch (const std::exception& e) {
                replyError(res, kHttpBadGateway,
                           std::string("resume-from refused, nothing changed: the rows it skips could not be saved "
                                       "as replayable SQL: ") +
                               e.what() + "; fix that, or resume without saving them: \"save_sql\": false");
                return;
            }
        }
        task::CommandResult result = task::resumeFromWithEvidence(*target, *request.target, evidence);
        if (!result.accepted && !evidence.replaySqlFile.empty()) {
            std::error_code ignored;
            std::filesystem::remove(evidence.replaySqlFile, ignored);  // nothing skipped, nothing to undo
            evidence = {};
        }
        answerCommand(
            res, "resume-from", result,
            [&](nlohmann::json& answer) {
                if (!evidence.replaySqlFile.empty()) {
                    answer["replay_sql_file"] = evidence.replaySqlFile;
                    answer["preview"] = evidence.preview;
                }
            },
            target, req.get_param_value("source"));
    }

    void addRoutes() {
        server->set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
            const Access access = accessOf(req);
            if (access == Access::Read && req.method != "GET") {
                replyError(res, kHttpForbidden,
                           "the read-only token may only read: " + req.method + " " + req.path +
                               " needs the control token (run --token-file)");
                return httplib::Server::HandlerResponse::Handled;
            }
            if (access != Access::None) {
                // httplib would wait for a body that never comes before it finds no route (see requestHasBody).
                const bool readsContent =
                    req.method == "POST" || req.method == "PUT" || req.method == "PATCH" || req.method == "DELETE";
                if (readsContent && !requestHasBody(req) && !(req.method == "POST" && postPaths.count(req.path))) {
                    replyError(res, kHttpNotFound, reasonForStatus(req, kHttpNotFound));
                    return httplib::Server::HandlerResponse::Handled;
                }
                return httplib::Server::HandlerResponse::Unhandled;
            }
            res.set_header("WWW-Authenticate", "Bearer");
            replyError(res, kHttpUnauthorized,
                       req.method == "GET" && !options.readToken.empty()
                           ? "missing or wrong bearer token (Authorization: Bearer <token>): reading needs the read "
                             "token or the control token"
                           : "missing or wrong bearer token (Authorization: Bearer <token>): this needs the control "
                             "token");
            return httplib::Server::HandlerResponse::Handled;
        });
        server->Get("/api/v1/status", [this](const httplib::Request& req, httplib::Response& res) {
            task::TaskControl* target = targetOf(req, res);
            if (target == nullptr) {
                return;
            }
            nlohmann::json status = statusJson(*target->status());
            status["verify"] = readVerifySummary(options.verifySummaryFile);
            if (options.subtasks != nullptr && target == &task) {
                nlohmann::json subtasks = nlohmann::json::array();
                for (const std::string& id : options.subtasks->sourceIds()) {
                    if (task::TaskControl* subtask = options.subtasks->subtask(id)) {
                        subtasks.push_back(statusJson(*subtask->status()));
                    }
                }
                status["subtasks"] = subtasks;
            }
            reply(res, kHttpOk, status);
        });
        server->Get("/api/v1/version", [this](const httplib::Request&, httplib::Response& res) {
            reply(
                res, kHttpOk,
                {{"api", "v1"},
                 {"revision", kApiRevision},
                 {"tls", !options.tlsCertFile.empty()},
                 {"endpoints",
                  {"GET /api/v1/status", "GET /api/v1/version", "GET /api/v1/audit?tail=N", "GET /api/v1/log?tail=N",
                   "GET /metrics", "POST /api/v1/start", "POST /api/v1/pause", "POST /api/v1/resume",
                   "POST /api/v1/stop", "POST /api/v1/skip", "POST /api/v1/resume-from", "POST /api/v1/until",
                   "GET /api/v1/preview/skip", "GET /api/v1/preview/resume-from", "GET /api/v1/history?since=TIME"}}});
        });
        server->Get("/api/v1/history",
                    [this](const httplib::Request& req, httplib::Response& res) { serveHistory(req, res); });
        server->Get("/api/v1/audit", [this](const httplib::Request& req, httplib::Response& res) {
            auto tail = tailCount(req, res);
            if (!tail) {
                return;
            }
            nlohmann::json lines = nlohmann::json::array();
            for (const std::string& line : tailLines(options.auditLogPath, *tail, kMaxTailBytes)) {
                nlohmann::json entry = nlohmann::json::parse(line, nullptr, false);
                lines.push_back(entry.is_discarded() ? nlohmann::json(line) : entry);
            }
            reply(res, kHttpOk, {{"lines", lines}});
        });
        server->Get("/api/v1/log", [this](const httplib::Request& req, httplib::Response& res) {
            auto tail = tailCount(req, res);
            if (!tail) {
                return;
            }
            // Lines are redacted when logged; a file written by an older version is redacted here too.
            std::vector<std::string> lines = tailLines(options.logFilePath, *tail, kMaxTailBytes);
            for (std::string& line : lines) {
                line = redactSecrets(line);
            }
            reply(res, kHttpOk, {{"lines", lines}});
        });
        server->Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
            auto status = task.status();
            errors.observe(*status);
            res.status = kHttpOk;
            MetricsWriter verifyMetrics;
            writeVerifyMetrics(readVerifySummary(options.verifySummaryFile), verifyMetrics);
            res.set_content(redact(renderMetrics(*status, errors.counts()) + verifyMetrics.text()), kMetricsType);
        });
        addCommand("/api/v1/start", "start", [](task::TaskControl& target) { return target.start(); });
        addCommand("/api/v1/pause", "pause", [](task::TaskControl& target) { return target.pause(); });
        addCommand("/api/v1/resume", "resume", [](task::TaskControl& target) { return target.resume(); });
        addCommand("/api/v1/stop", "stop", [](task::TaskControl& target) { return target.stop(); });
        addPost("/api/v1/skip", [this](const httplib::Request& req, const std::string& body, httplib::Response& res) {
            skip(req, body, res);
        });
        server->Get("/api/v1/preview/skip", [this](const httplib::Request& req, httplib::Response& res) {
            task::TaskControl* addressed = targetOf(req, res);
            if (addressed == nullptr) {
                return;
            }
            auto status = failedSubtaskOr(*addressed).status();
            if (!status->failedEvent) {
                replyError(res, kHttpConflict,
                           "preview skip: the task has no failed event to skip (stage " +
                               std::string(task::stageName(status->stage)) + ")");
                return;
            }
            servePreview(res, "skip", [&] { return options.previewer->previewSkip(*status); });
        });
        server->Get("/api/v1/preview/resume-from", [this](const httplib::Request& req, httplib::Response& res) {
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
                replyError(res, kHttpBadRequest, "preview resume-from: " + request.problem);
                return;
            }
            task::TaskControl* target = targetOf(req, res);
            if (target == nullptr) {
                return;
            }
            auto status = target->status();
            servePreview(res, "resume-from",
                         [&] { return options.previewer->previewResumeFrom(*status, *request.target); });
        });
        addPost("/api/v1/resume-from", [this](const httplib::Request& req, const std::string& body,
                                              httplib::Response& res) { resumeFrom(req, body, res); });
        addPost("/api/v1/until", [this](const httplib::Request& req, const std::string& body, httplib::Response& res) {
            UntilRequest request = parseUntilBody(body);
            if (!request.point) {
                replyError(res, kHttpBadRequest, "until: " + request.problem);
                return;
            }
            task::TaskControl* target = targetOf(req, res);
            if (target == nullptr) {
                return;
            }
            answerCommand(res, "until", target->stopAt(*request.point), {}, target, req.get_param_value("source"));
        });
        // Every refusal carries a JSON reason, also those httplib makes itself (404, 413, a malformed request).
        server->set_error_handler([this](const httplib::Request& req, httplib::Response& res) {
            if (res.status >= kHttpFirstError && res.body.empty()) {
                replyError(res, res.status, reasonForStatus(req, res.status));
            }
        });
        server->set_exception_handler(
            [this](const httplib::Request& req, httplib::Response& res, std::exception_ptr ep) {
                std::string what = "unknown error";
                try {
                    std::rethrow_exception(ep);
                } catch (const std::exception& e) {
                    what = e.what();
                } catch (...) {
                }
                spdlog::error("control API: {} {}: {}", req.method, req.path, redact(what));
                replyError(res, kHttpInternalError, req.method + " " + req.path + " failed: " + what);
            });
    }

    // ?since=TIME (ISO, as status's taken_at; default: all that is kept), ?source=ID for one subtask's.
    void serveHistory(const httplib::Request& req, httplib::Response& res) {
        task::Clock::time_point since{};
        if (req.has_param("since")) {
            std::optional<task::Clock::time_point> parsed = parseIsoTime(req.get_param_value("since"));
            if (!parsed) {
                replyError(res, kHttpBadRequest,
                           req.path +
                               ": since must be a UTC time as the status's taken_at (2026-12-02T06:00:00.000Z), "
                               "got '" +
                               req.get_param_value("since") + "'");
                return;
            }
            since = *parsed;
        }
        task::TaskControl* target = targetOf(req, res);
        if (target == nullptr) {
            return;
        }
        const std::string channel = target == &task ? std::string() : req.get_param_value("source");
        nlohmann::json body = historyJson(history.since(channel, since));
        body["window_seconds"] = std::chrono::duration_cast<std::chrono::seconds>(history.window()).count();
        reply(res, kHttpOk, body);
    }

    // Counts errors between scrapes too, so that a short retryable error is not missed; samples the history.
    void watchErrors() {
        std::unique_lock lock(mutex);
        while (!stopping) {
            lock.unlock();
            auto status = task.status();
            errors.observe(*status);
            history.record({}, *status);
            if (options.subtasks != nullptr) {
                for (const std::string& id : options.subtasks->sourceIds()) {
                    if (task::TaskControl* subtask = options.subtasks->subtask(id)) {
                        history.record(id, *subtask->status());
                    }
                }
            }
            lock.lock();
            wake.wait_for(lock, kErrorWatchInterval, [this] { return stopping; });
        }
    }
};

ControlServer::ControlServer(task::TaskControl& task, ControlServerOptions options)
    : impl_(std::make_unique<Impl>(task, std::move(options))) {
    const ControlServerOptions& opts = impl_->options;
    ListenAddress address{opts.host, opts.port};
    if (!address.isLoopback() && opts.token.empty()) {
        throw ControlServerError("refusing to serve the control API on " + opts.host +
                                 ", which is not a loopback address, without a token: give one (--token-file) "
                                 "or listen on 127.0.0.1");
    }
    if (!opts.token.empty() && opts.token.size() < ControlServerOptions::kMinTokenLength) {
        throw ControlServerError("the control API token is " + std::to_string(opts.token.size()) +
                                 " characters long; use at least " +
                                 std::to_string(ControlServerOptions::kMinTokenLength));
    }
    if (!opts.readToken.empty() && opts.token.empty()) {
        throw ControlServerError(
            "a read-only token (--read-token-file) needs the control token (--token-file): "
            "without it every command would be open");
    }
    if (!opts.readToken.empty() && opts.readToken.size() < ControlServerOptions::kMinTokenLength) {
        throw ControlServerError("the read-only token is " + std::to_string(opts.readToken.size()) +
                                 " characters long; use at least " +
                                 std::to_string(ControlServerOptions::kMinTokenLength));
    }
    if (!opts.readToken.empty() && opts.readToken == opts.token) {
        throw ControlServerError("the read-only token is the control token: give a different one");
    }
    // httplib's default also sets SO_REUSEPORT, which would let a second process bind the same port and
    // take part of the traffic; only SO_REUSEADDR (restart over TIME_WAIT) is wanted.
    impl_->server->set_socket_options([](socket_t socket) {
        int yes = 1;
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
    impl_->server->new_task_queue = [] { return new EnginePriorityThreadPool(kServerThreads); };
    impl_->server->set_keep_alive_timeout(kKeepAliveSeconds);
    impl_->server->set_payload_max_length(kMaxBodyBytes);
    impl_->addRoutes();
    if (opts.port == 0) {
        impl_->port = impl_->server->bind_to_any_port(opts.host);
    } else if (impl_->server->bind_to_port(opts.host, opts.port)) {
        impl_->port = opts.port;
    }
    if (impl_->port <= 0) {
        throw ControlServerError("cannot listen on " + opts.host + ":" + std::to_string(opts.port) +
                                 " for the control API: the address is in use or not this machine's");
    }
    impl_->serving = std::thread([this] {
        applyEngineThreadPriority();
        impl_->server->listen_after_bind();
        impl_->servingEnded = true;
    });
    impl_->watching = std::thread([this] {
        applyEngineThreadPriority();
        impl_->watchErrors();
    });
    spdlog::info("control API listening on {}{}", url(), opts.token.empty() ? "" : " (bearer token required)");
}

ControlServer::~ControlServer() {
    stop();
}

int ControlServer::port() const {
    return impl_->port;
}

std::string ControlServer::url() const {
    bool v6 = impl_->options.host.find(':') != std::string::npos;
    const char* scheme = impl_->options.tlsCertFile.empty() ? "http://" : "https://";
    return scheme + (v6 ? "[" + impl_->options.host + "]" : impl_->options.host) + ":" + std::to_string(port());
}

void ControlServer::stop() {
    {
        std::lock_guard lock(impl_->mutex);
        impl_->stopping = true;
    }
    impl_->wake.notify_all();
    // httplib's stop() does nothing until the serving thread has marked the server running, so a stop()
    // right after the constructor could leave that thread accepting forever: repeat until it has ended.
    while (impl_->serving.joinable() && !impl_->servingEnded) {
        impl_->server->stop();
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (impl_->serving.joinable()) {
        impl_->serving.join();
    }
    if (impl_->watching.joinable()) {
        impl_->watching.join();
    }
}

}  // namespace syncscope::control
