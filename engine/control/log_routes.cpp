// GET /api/v1/audit and /api/v1/log: the last lines of the task's audit (the DBA's commands, as JSON) and of its
// log (redacted), ?tail=N of them.
#include <optional>
#include <vector>

#include "engine/common/secret_redaction.h"
#include "engine/control/control_router.h"
#include "engine/control/file_tail.h"

namespace syncscope::control {

namespace {

constexpr size_t kDefaultTailLines = 100;
constexpr size_t kMaxTailLines = 5000;
constexpr size_t kMaxTailDigits = 4;
constexpr size_t kMaxTailBytes = 4 * 1024 * 1024;

// ?tail=N (default kDefaultTailLines, at most kMaxTailLines); answers 400 and nullopt when N is bad.
std::optional<size_t> tailCount(const ControlRouter& router, const httplib::Request& req, httplib::Response& res) {
    if (!req.has_param("tail")) {
        return kDefaultTailLines;
    }
    const std::string text = req.get_param_value("tail");
    if (text.empty() || text.size() > kMaxTailDigits || text.find_first_not_of("0123456789") != std::string::npos ||
        std::stoul(text) > kMaxTailLines) {
        router.replyError(res, http_status::kBadRequest,
                          req.path + ": tail must be a number of lines from 0 to " + std::to_string(kMaxTailLines) +
                              ", got '" + text + "'");
        return std::nullopt;
    }
    return std::stoul(text);
}

}  // namespace

void addLogRoutes(ControlRouter& router) {
    router.get("/api/v1/audit", [&router](const httplib::Request& req, httplib::Response& res) {
        auto tail = tailCount(router, req, res);
        if (!tail) {
            return;
        }
        nlohmann::json lines = nlohmann::json::array();
        for (const std::string& line : tailLines(router.options().auditLogPath, *tail, kMaxTailBytes)) {
            nlohmann::json entry = nlohmann::json::parse(line, nullptr, false);
            lines.push_back(entry.is_discarded() ? nlohmann::json(line) : entry);
        }
        router.reply(res, http_status::kOk, {{"lines", lines}});
    });
    router.get("/api/v1/log", [&router](const httplib::Request& req, httplib::Response& res) {
        auto tail = tailCount(router, req, res);
        if (!tail) {
            return;
        }
        // Lines are redacted when logged; a file written by an older version is redacted here too.
        std::vector<std::string> lines = tailLines(router.options().logFilePath, *tail, kMaxTailBytes);
        for (std::string& line : lines) {
            line = redactSecrets(line);
        }
        router.reply(res, http_status::kOk, {{"lines", lines}});
    });
}

}  // namespace syncscope::control
