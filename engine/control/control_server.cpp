#include "engine/control/control_server.h"

#include <httplib.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include "engine/common/thread_priority.h"
#include "engine/control/control_access.h"
#include "engine/control/control_router.h"
#include "engine/control/error_tally.h"
#include "engine/control/status_history.h"

namespace syncscope::control {

namespace {

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
constexpr time_t kKeepAliveSeconds = 1;  // short, so that stop() does not wait on idle clients
constexpr std::chrono::milliseconds kErrorWatchInterval{100};

// An SSLServer when a certificate and key are given, else a plain one.
std::unique_ptr<httplib::Server> makeServer(const ControlServerOptions& options) {
    if (options.tlsCertFile.empty() != options.tlsKeyFile.empty()) {
        throw ControlServerError("TLS for the control API needs both a certificate and a key file");
    }
    if (options.tlsCertFile.empty()) {
        return std::make_unique<httplib::Server>();
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
    return tls;
}

}  // namespace

// The server's lifecycle: the routes (control_router.h and each resource's file), the serving thread, and the
// watching thread that counts errors between scrapes and samples the history.
struct ControlServer::Impl {
    task::TaskControl& task;
    ControlServerOptions options;
    std::unique_ptr<httplib::Server> server;
    ControlAccess access;
    ControlRouter router;
    ErrorTally errors;
    StatusHistory history;  // sampled by the watching thread
    int port = 0;
    std::thread serving;
    std::atomic<bool> servingEnded = false;
    std::thread watching;
    std::mutex mutex;
    std::condition_variable wake;
    bool stopping = false;

    Impl(task::TaskControl& t, ControlServerOptions o)
        : task(t),
          options(std::move(o)),
          server(makeServer(options)),
          access(options),
          router(*server, task, options, access) {
        addStatusRoutes(router, errors, history);
        addLogRoutes(router);
        addCommandRoutes(router);
        addSkipRoutes(router);
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
    // httplib's default also sets SO_REUSEPORT, which would let a second process bind the same port and
    // take part of the traffic; only SO_REUSEADDR (restart over TIME_WAIT) is wanted.
    impl_->server->set_socket_options([](socket_t socket) {
        int yes = 1;
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
    impl_->server->new_task_queue = [] { return new EnginePriorityThreadPool(kServerThreads); };
    impl_->server->set_keep_alive_timeout(kKeepAliveSeconds);
    impl_->server->set_payload_max_length(ControlRouter::kMaxBodyBytes);
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
