#include "engine/control/control_router.h"

#include <spdlog/spdlog.h>

#include <exception>
#include <vector>

#include "engine/control/control_request.h"

namespace syncscope::control {

namespace {

constexpr int kJsonIndent = 2;
constexpr int kFirstErrorStatus = 400;
const char* const kJsonType = "application/json";

// RFC 9112 section 6.3: a request with neither Content-Length nor Transfer-Encoding has no body. httplib
// 0.11 would read one until the client closes, so `curl -X POST .../pause` waited for the read timeout
// and got a bare 400; the POST routes therefore read their body themselves, only when there is one.
bool requestHasBody(const httplib::Request& req) {
    return req.has_header("Content-Length") || req.has_header("Transfer-Encoding");
}

// The reason given for a 4xx or 5xx that no route answered itself (httplib's own refusals).
std::string reasonForStatus(const httplib::Request& req, int status) {
    const std::string request = req.method.empty() ? std::string("the request") : req.method + " " + req.path;
    if (status == http_status::kNotFound) {
        return "no such endpoint: " + request + "; see GET /api/v1/version for the endpoints";
    }
    if (status == http_status::kPayloadTooLarge) {
        return request + ": the body is larger than the " + std::to_string(ControlRouter::kMaxBodyBytes) +
               " bytes the control API accepts";
    }
    if (status == http_status::kBadRequest) {
        return request + ": the request could not be read (malformed request line, header or body)";
    }
    return request + ": refused with HTTP status " + std::to_string(status);
}

}  // namespace

ControlRouter::ControlRouter(httplib::Server& server, task::TaskControl& task, const ControlServerOptions& options,
                             const ControlAccess& access)
    : server_(server), task_(task), options_(options), access_(access) {
    checkAccessFirst();
    answerEveryRefusal();
}

void ControlRouter::checkAccessFirst() {
    server_.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
        const ControlAccess::Level level = access_.levelOf(req.get_header_value("Authorization"));
        if (level == ControlAccess::Level::Read && req.method != "GET") {
            replyError(res, http_status::kForbidden, ControlAccess::forbiddenReason(req.method, req.path));
            return httplib::Server::HandlerResponse::Handled;
        }
        if (level != ControlAccess::Level::None) {
            // httplib would wait for a body that never comes before it finds no route (see requestHasBody).
            const bool readsContent =
                req.method == "POST" || req.method == "PUT" || req.method == "PATCH" || req.method == "DELETE";
            if (readsContent && !requestHasBody(req) && !(req.method == "POST" && postPaths_.count(req.path))) {
                replyError(res, http_status::kNotFound, reasonForStatus(req, http_status::kNotFound));
                return httplib::Server::HandlerResponse::Handled;
            }
            return httplib::Server::HandlerResponse::Unhandled;
        }
        res.set_header("WWW-Authenticate", "Bearer");
        replyError(res, http_status::kUnauthorized, access_.unauthorizedReason(req.method));
        return httplib::Server::HandlerResponse::Handled;
    });
}

void ControlRouter::answerEveryRefusal() {
    // Every refusal carries a JSON reason, also those httplib makes itself (404, 413, a malformed request).
    server_.set_error_handler([this](const httplib::Request& req, httplib::Response& res) {
        if (res.status >= kFirstErrorStatus && res.body.empty()) {
            replyError(res, res.status, reasonForStatus(req, res.status));
        }
    });
    server_.set_exception_handler([this](const httplib::Request& req, httplib::Response& res, std::exception_ptr ep) {
        std::string what = "unknown error";
        try {
            std::rethrow_exception(ep);
        } catch (const std::exception& e) {
            what = e.what();
        } catch (...) {
        }
        spdlog::error("control API: {} {}: {}", req.method, req.path, redact(what));
        replyError(res, http_status::kInternalError, req.method + " " + req.path + " failed: " + what);
    });
}

void ControlRouter::get(const char* path, GetHandler handle) {
    server_.Get(path, std::move(handle));
}

void ControlRouter::post(const char* path, PostHandler handle) {
    postPaths_.insert(path);
    server_.Post(path, [this, handle = std::move(handle)](const httplib::Request& req, httplib::Response& res,
                                                          const httplib::ContentReader& content) {
        std::string body;
        if (requestHasBody(req)) {
            bool read = content([&body](const char* data, size_t length) {
                body.append(data, length);
                return true;
            });
            if (!read) {
                // httplib has set 413 (too large) or 400 (cut short) on res.
                int status = res.status == http_status::kPayloadTooLarge ? http_status::kPayloadTooLarge
                                                                         : http_status::kBadRequest;
                replyError(res, status, reasonForStatus(req, status));
                return;
            }
        }
        handle(req, body, res);
    });
}

void ControlRouter::command(const char* path, const char* name, Command run) {
    post(path, [this, name, run = std::move(run)](const httplib::Request& req, const std::string& body,
                                                  httplib::Response& res) {
        std::string problem = problemWithEmptyBody(body);
        if (!problem.empty()) {
            replyError(res, http_status::kBadRequest, std::string(name) + ": " + problem);
            return;
        }
        task::TaskControl* target = targetOf(req, res);
        if (target == nullptr) {
            return;
        }
        answerCommand(res, name, run(*target), {}, *target, req.get_param_value("source"));
    });
}

std::string ControlRouter::redact(std::string text) const {
    for (const std::string& secret : options_.secrets) {
        if (secret.empty()) {
            continue;
        }
        for (size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at)) {
            text.replace(at, secret.size(), "***");
        }
    }
    return text;
}

void ControlRouter::reply(httplib::Response& res, int status, const nlohmann::json& body) const {
    res.status = status;
    res.set_content(redact(body.dump(kJsonIndent, ' ', false, nlohmann::json::error_handler_t::replace)) + "\n",
                    kJsonType);
}

void ControlRouter::replyError(httplib::Response& res, int status, const std::string& message) const {
    reply(res, status, {{"error", message}});
}

void ControlRouter::replyText(httplib::Response& res, const std::string& text, const char* type) const {
    res.status = http_status::kOk;
    res.set_content(redact(text), type);
}

void ControlRouter::answerCommand(httplib::Response& res, const char* name, const task::CommandResult& result,
                                  const std::function<void(nlohmann::json&)>& addToAnswer,
                                  const task::TaskControl& target, const std::string& sourceId) const {
    nlohmann::json body{{"command", name}, {"accepted", result.accepted}};
    if (!sourceId.empty()) {
        body["source"] = sourceId;
    }
    if (addToAnswer) {
        addToAnswer(body);
    }
    body[result.accepted ? "result" : "reason"] = result.reason;
    if (!result.accepted) {
        body["error"] = std::string(name) + ": " + result.reason;  // every refusal has "error"
    }
    body["stage"] = task::stageName(target.status()->stage);
    if (result.accepted) {
        spdlog::info("control API: {}{}: {}", name, sourceId.empty() ? "" : " (source " + sourceId + ")",
                     result.reason);
    }
    reply(res, result.accepted ? http_status::kOk : http_status::kConflict, body);
}

task::TaskControl* ControlRouter::targetOf(const httplib::Request& req, httplib::Response& res) const {
    if (!req.has_param("source")) {
        return &task_;
    }
    const std::string sourceId = req.get_param_value("source");
    if (options_.subtasks != nullptr) {
        if (task::TaskControl* subtask = options_.subtasks->subtask(sourceId)) {
            return subtask;
        }
    } else if (task_.status()->sourceId == sourceId) {
        return &task_;
    }
    std::string known;
    for (const std::string& id : options_.subtasks != nullptr ? options_.subtasks->sourceIds()
                                                              : std::vector<std::string>{task_.status()->sourceId}) {
        known += (known.empty() ? "" : ", ") + id;
    }
    replyError(
        res, http_status::kNotFound,
        req.method + " " + req.path + ": the task has no source '" + sourceId + "' (its sources: " + known + ")");
    return nullptr;
}

task::TaskControl& ControlRouter::failedSubtaskOr(task::TaskControl& target) const {
    if (&target != &task_ || options_.subtasks == nullptr) {
        return target;
    }
    task::TaskControl* failed = nullptr;
    for (const std::string& id : options_.subtasks->sourceIds()) {
        task::TaskControl* subtask = options_.subtasks->subtask(id);
        if (subtask != nullptr && subtask->status()->failedEvent) {
            if (failed != nullptr) {
                return target;  // several: the whole task refuses and names them
            }
            failed = subtask;
        }
    }
    return failed != nullptr ? *failed : target;
}

}  // namespace syncscope::control
