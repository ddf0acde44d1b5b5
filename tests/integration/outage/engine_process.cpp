#include "tests/integration/outage/engine_process.h"

#include <QProcessEnvironment>

#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace syncscope::test {

namespace {

constexpr int kPollMs = 100;
constexpr int kKillWaitMs = 10000;
constexpr int kStartWaitMs = 30000;
constexpr auto kHttpConnectTimeout = std::chrono::seconds(5);
constexpr auto kHttpReadTimeout = std::chrono::seconds(10);
constexpr int kGetAttempts = 3;
const char* const kCliPath = SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli";

// The engine run: the build's, or SYNCSCOPE_ENGINE_CLI (a soak runs its own copy, so that a rebuild while it
// runs never starts half a binary).
QString cliPath() {
    const char* chosen = std::getenv("SYNCSCOPE_ENGINE_CLI");
    return QString::fromLocal8Bit(chosen != nullptr && *chosen != '\0' ? chosen : kCliPath);
}

QProcessEnvironment environmentWith(const QStringList& env) {
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const QString& entry : env) {
        qsizetype equals = entry.indexOf(QLatin1Char('='));
        environment.insert(entry.left(equals), entry.mid(equals + 1));
    }
    return environment;
}

}  // namespace

std::string readWholeFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

CliResult runCli(const QStringList& args, int timeoutMs, const QStringList& env) {
    QProcess process;
    process.setProcessEnvironment(environmentWith(env));
    process.start(cliPath(), args);
    CliResult result;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(kKillWaitMs);
        result.exitCode = -2;
    } else {
        result.exitCode = process.exitCode();
    }
    result.out = process.readAllStandardOutput().toStdString();
    result.err = process.readAllStandardError().toStdString();
    return result;
}

EngineProcess::EngineProcess(std::string taskFile, std::string sourceFile, std::string logDir)
    : taskFile_(std::move(taskFile)), sourceFile_(std::move(sourceFile)), logDir_(std::move(logDir)) {}

EngineProcess::~EngineProcess() {
    if (running()) {
        terminate();
    }
}

bool EngineProcess::start(const QStringList& extraArgs, const QStringList& env) {
    std::filesystem::create_directories(logDir_);
    port_ = freeLoopbackPort();
    process_.setProcessEnvironment(environmentWith(env));
    process_.setStandardOutputFile(QString::fromStdString(logDir_ + "/run-stdout.txt"), QIODevice::Append);
    process_.setStandardErrorFile(QString::fromStdString(logDir_ + "/run-stderr.txt"), QIODevice::Append);
    QStringList args{QStringLiteral("run"),       QString::fromStdString(taskFile_),
                     QStringLiteral("--source"),  QString::fromStdString(sourceFile_),
                     QStringLiteral("--log-dir"), QString::fromStdString(logDir_),
                     QStringLiteral("--listen"),  QStringLiteral("127.0.0.1:%1").arg(port_)};
    // The engine dies with the process that started it: a test or soak killed by ctest's timeout or by
    // hand must not leave an orphaned engine writing to servers that the next case uses.
    process_.setChildProcessModifier([parent = ::getpid()] {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) {
            ::_exit(1);
        }
    });
    process_.start(cliPath(), args + extraArgs);
    if (!process_.waitForStarted()) {
        return false;
    }
    // The API answers once the task object exists.
    return waitFor([&] { return !running() || !stage().empty(); }, kStartWaitMs) && running();
}

int EngineProcess::terminate(int timeoutMs) {
    process_.terminate();
    if (!process_.waitForFinished(timeoutMs)) {
        process_.kill();
        process_.waitForFinished(kKillWaitMs);
        return -1;
    }
    return process_.exitStatus() == QProcess::NormalExit ? process_.exitCode() : -1;
}

void EngineProcess::kill() {
    process_.kill();
    process_.waitForFinished(kKillWaitMs);
}

std::string EngineProcess::get(const std::string& path, int* httpStatus) {
    httplib::Client client("127.0.0.1", port_);
    client.set_connection_timeout(kHttpConnectTimeout);
    client.set_read_timeout(kHttpReadTimeout);
    auto res = client.Get(path.c_str());
    // A GET changes nothing: on a machine busy enough to miss a connect, ask again before giving up.
    for (int attempt = 1; !res && attempt < kGetAttempts && running(); ++attempt) {
        res = client.Get(path.c_str());
    }
    if (httpStatus != nullptr) {
        *httpStatus = res ? res->status : 0;
    }
    if (!res) {
        return {};
    }
    answers_.push_back(res->body);
    return res->body;
}

std::string EngineProcess::post(const std::string& path, const std::string& body, int* httpStatus) {
    httplib::Client client("127.0.0.1", port_);
    client.set_connection_timeout(kHttpConnectTimeout);
    client.set_read_timeout(kHttpReadTimeout);
    auto res = client.Post(path.c_str(), body, "application/json");
    if (httpStatus != nullptr) {
        *httpStatus = res ? res->status : 0;
    }
    if (!res) {
        return {};
    }
    answers_.push_back(res->body);
    return res->body;
}

nlohmann::json EngineProcess::status() {
    std::string body = get("/api/v1/status");
    return body.empty() ? nlohmann::json() : nlohmann::json::parse(body, nullptr, false);
}

std::string EngineProcess::stage() {
    nlohmann::json s = status();
    return s.is_object() ? s.value("stage", std::string()) : std::string();
}

std::string EngineProcess::stderrText() const {
    return readWholeFile(logDir_ + "/run-stderr.txt");
}

}  // namespace syncscope::test
