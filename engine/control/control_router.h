// The control API's routing on one httplib server (a header of engine/control's own: it exposes httplib).
// The router checks every request's access before any route, reads a POST's body only when it has one,
// answers everything as JSON with the task's secrets redacted (a JSON reason for every refusal, also
// httplib's own), and addresses a request to the task or, with ?source=ID, to one source's subtask. It holds
// no resource's logic: each resource adds its routes from a file of its own (the add*Routes below).
#pragma once

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <set>
#include <string>

#include "engine/control/control_access.h"
#include "engine/control/control_server_options.h"
#include "engine/task/task_control.h"

namespace syncscope::control {

class ErrorTally;
class StatusHistory;

namespace http_status {
constexpr int kOk = 200;
constexpr int kBadRequest = 400;
constexpr int kUnauthorized = 401;
constexpr int kForbidden = 403;
constexpr int kNotFound = 404;
constexpr int kConflict = 409;
constexpr int kPayloadTooLarge = 413;
constexpr int kInternalError = 500;
constexpr int kBadGateway = 502;  // a preview could not read the upstream or the downstream
}  // namespace http_status

class ControlRouter {
public:
    static constexpr size_t kMaxBodyBytes = 64 * 1024;  // a resume-from body is a few dozen bytes

    using GetHandler = std::function<void(const httplib::Request& req, httplib::Response& res)>;
    using PostHandler =
        std::function<void(const httplib::Request& req, const std::string& body, httplib::Response& res)>;
    using Command = std::function<task::CommandResult(task::TaskControl&)>;

    // Installs the access check and the JSON refusals on `server`; the task, options and access must outlive
    // the router.
    ControlRouter(httplib::Server& server, task::TaskControl& task, const ControlServerOptions& options,
                  const ControlAccess& access);

    void get(const char* path, GetHandler handle);
    void post(const char* path, PostHandler handle);
    // A command without a body (start, pause, ...): `run` on the addressed task, answered by answerCommand.
    void command(const char* path, const char* name, Command run);

    void reply(httplib::Response& res, int status, const nlohmann::json& body) const;
    void replyError(httplib::Response& res, int status, const std::string& message) const;
    // 200 with `text` as `type` (the metrics page), the secrets redacted as in JSON answers.
    void replyText(httplib::Response& res, const std::string& text, const char* type) const;
    // {"command", "accepted", "result" or "reason" and "error", "stage", "source" when a subtask was
    // addressed}; `addToAnswer` adds the command's own fields. 200 when accepted, 409 when refused.
    void answerCommand(httplib::Response& res, const char* name, const task::CommandResult& result,
                       const std::function<void(nlohmann::json&)>& addToAnswer, const task::TaskControl& target,
                       const std::string& sourceId) const;

    // The task a request addresses: the whole task, or with ?source=ID that source's subtask. Answers 404 and
    // returns null when the task has no such source.
    task::TaskControl* targetOf(const httplib::Request& req, httplib::Response& res) const;
    // With several sources, the whole task stands for the one subtask that failed (a skip without ?source=).
    task::TaskControl& failedSubtaskOr(task::TaskControl& target) const;
    bool isWholeTask(const task::TaskControl& target) const { return &target == &task_; }

    task::TaskControl& task() const { return task_; }
    const ControlServerOptions& options() const { return options_; }

private:
    void checkAccessFirst();
    void answerEveryRefusal();
    std::string redact(std::string text) const;

    httplib::Server& server_;
    task::TaskControl& task_;
    const ControlServerOptions& options_;
    const ControlAccess& access_;
    std::set<std::string> postPaths_;  // the POST routes, all added before serving starts
};

// Each resource's routes, one file each.
// status_routes.cpp: GET /api/v1/status, /api/v1/version, /api/v1/history, /metrics.
void addStatusRoutes(ControlRouter& router, ErrorTally& errors, const StatusHistory& history);
// log_routes.cpp: GET /api/v1/audit and /api/v1/log (?tail=N).
void addLogRoutes(ControlRouter& router);
// command_routes.cpp: POST /api/v1/start, pause, resume, stop, until.
void addCommandRoutes(ControlRouter& router);
// skip_routes.cpp: POST /api/v1/skip and /api/v1/resume-from, GET /api/v1/preview/skip and /preview/resume-from.
void addSkipRoutes(ControlRouter& router);

}  // namespace syncscope::control
