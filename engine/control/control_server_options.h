// What a control API serves and how (ControlServer, control_server.h): the address, the tokens, TLS, the files
// it reads for the audit, log and verify summary, previews, and the subtasks of a task with several sources.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/common/error.h"
#include "engine/control/command_previewer.h"
#include "engine/control/subtask_directory.h"

namespace syncscope::control {

struct ControlServerOptions {
    static constexpr size_t kMinTokenLength = 16;

    std::string host = "127.0.0.1";
    int port = 0;       // 0: any free port (see ControlServer::port())
    std::string token;  // required unless host is loopback; when set, checked on every request
    // A second, read-only token (needs `token`): it may GET (status, metrics, log, audit, history, version,
    // previews), never POST a command; such a request answers 403 naming the control token it lacks.
    std::string readToken;
    // Texts that must never appear in an answer (the task's passwords): replaced by "***" should any
    // engine message ever carry one. Empty strings are ignored.
    std::vector<std::string> secrets;
    // The last verify's summary file (<log-dir>/<task>-verify.json): served as "verify" in the status
    // and as syncscope_verify_* metrics when it exists. Empty: none.
    std::string verifySummaryFile;
    // Serves GET /api/v1/preview/{skip,resume-from} and saves a skip's rows as replayable SQL before the skip
    // (named in its audit entry). Unset: those endpoints answer 404 and a skip saves nothing.
    std::shared_ptr<CommandPreviewer> previewer;
    // HTTPS with this certificate and key (PEM); both empty: plain HTTP.
    std::string tlsCertFile;
    std::string tlsKeyFile;
    // Served as GET /api/v1/audit?tail=N and /api/v1/log?tail=N; empty: those answer with no lines.
    std::string auditLogPath;
    std::string logFilePath;
    // A task with several sources: GET /api/v1/status lists its subtasks, and ?source=ID on the status and on
    // every command addresses one source's subtask. Null: one source (?source= must then be its own id).
    // Must outlive the server.
    const SubtaskDirectory* subtasks = nullptr;
};

// Why the server cannot start: no token for a non-loopback address, or the address cannot be bound.
class ControlServerError : public Error {
public:
    using Error::Error;
};

}  // namespace syncscope::control
