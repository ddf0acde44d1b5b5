// The local HTTP control API of one task (cpp-httplib, on its own threads): GET /api/v1/{status,version,
// audit,log,history}, POST /api/v1/{start,pause,resume,stop,skip,resume-from,until}, GET /api/v1/preview/{skip,
// resume-from}, GET /metrics (docs/api.md); ?source=ID addresses one subtask of a task with several sources. It binds
// to loopback unless told otherwise; any other address needs a bearer token, which every request must then carry. With
// a certificate and key it serves HTTPS, so that a GUI on another machine can verify it against its CA.
#pragma once

#include <memory>
#include <string>

#include "engine/control/control_server_options.h"
#include "engine/task/task_control.h"

namespace syncscope::control {

class ControlServer {
public:
    // Binds and starts serving; throws ControlServerError. The task must outlive the server.
    ControlServer(task::TaskControl& task, ControlServerOptions options);
    ~ControlServer();
    ControlServer(const ControlServer&) = delete;
    ControlServer& operator=(const ControlServer&) = delete;

    int port() const;         // the bound port
    std::string url() const;  // "http://127.0.0.1:8261"
    void stop();              // stops serving; idempotent

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace syncscope::control
