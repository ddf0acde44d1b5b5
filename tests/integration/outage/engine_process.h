// `syncscope-cli run` as a child process for the outage, TLS and secrets suites: started with the
// control API on a free loopback port and its logs in a folder of the test's; status and metrics
// read over HTTP, every answer kept so that a suite can search them afterwards.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

#include "tests/support/test_env.h"

namespace syncscope::test {

class EngineProcess {
public:
    // logDir receives the engine's logs, audit log, stdout and stderr.
    EngineProcess(std::string taskFile, std::string sourceFile, std::string logDir);
    ~EngineProcess();  // SIGTERM, then SIGKILL after a minute
    EngineProcess(const EngineProcess&) = delete;
    EngineProcess& operator=(const EngineProcess&) = delete;

    // Starts `run TASK --source SOURCE --log-dir DIR --listen 127.0.0.1:<free port>` plus extraArgs;
    // env adds NAME=VALUE entries to the child's environment.
    bool start(const QStringList& extraArgs = {}, const QStringList& env = {});
    // SIGTERM and wait; the exit code, or -1 when it did not end within timeoutMs.
    int terminate(int timeoutMs = 60000);
    // SIGKILL and wait (the crash the kill-recovery and differential tests inject).
    void kill();
    bool running() const { return process_.state() == QProcess::Running; }
    int port() const { return port_; }

    // GET and POST on the control API: the body (empty on no answer); status in *httpStatus.
    std::string get(const std::string& path, int* httpStatus = nullptr);
    std::string post(const std::string& path, const std::string& body = {}, int* httpStatus = nullptr);
    nlohmann::json status();  // /api/v1/status parsed; null when there was no answer
    std::string stage();      // its "stage", or "" without an answer

    std::string stderrText() const;  // what the process wrote to stderr so far
    const std::vector<std::string>& answers() const { return answers_; }

private:
    std::string taskFile_;
    std::string sourceFile_;
    std::string logDir_;
    int port_ = 0;
    QProcess process_;
    std::vector<std::string> answers_;
};

// freeLoopbackPort(), waitFor(): tests/support/test_env.h.

std::string readWholeFile(const std::string& path);

// Runs `syncscope-cli ARGS` to its end (at most timeoutMs); exit code -2 when it had to be killed.
struct CliResult {
    int exitCode = -1;
    std::string out;
    std::string err;
};
CliResult runCli(const QStringList& args, int timeoutMs, const QStringList& env = {});

}  // namespace syncscope::test
