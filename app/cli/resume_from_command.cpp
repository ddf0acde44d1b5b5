// syncscope-cli resume-from: moves a running task's persisted global point (`run --listen`'s
// POST /api/v1/resume-from). Going forward, the API first saves the rows the move skips as replayable SQL and
// the resume-from's own audit entry names the file; this prints where it went.
#include <nlohmann/json.hpp>

#include <iostream>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "app/cli/cli_commands.h"
#include "app/cli/option_reader.h"
#include "engine/binlog/binlog_position.h"
#include "engine/remote/control_api_client.h"

namespace syncscope::cli {
namespace {

constexpr int kHttpOk = 200;
constexpr int kConnectTimeoutSeconds = 5;
// Going forward the API reads and checks the skipped window row by row before it answers.
constexpr int kResumeTimeoutSeconds = 600;

const char* const kResumeFromUsage =
    "Usage: syncscope-cli resume-from FILE:POS|GTID --control [https://]HOST:PORT [--ca FILE] [--token-file F]\n"
    "                                 [--no-save-sql]\n"
    "Asks the task's control API (`syncscope-cli run --listen HOST:PORT`) to resume from FILE:POS or a GTID\n"
    "position: the persisted global point moves there (audited, with the point it replaced as the undo).\n"
    "The task must be paused or stopped. Going forward, the rows between the persisted global point and\n"
    "the target are skipped: the API first saves those not equal downstream as replayable SQL\n"
    "(<log-dir>/<task>-skipped-<time>.sql), names the file in the resume-from's audit entry and here, and\n"
    "refuses the resume-from if it cannot save them; --no-save-sql resumes without saving. See first what\n"
    "it skips with `syncscope-cli preview resume-from FILE:POS`.\n"
    "Exit 0 when the task took it, 1 when it was refused or the API could not be reached, 2 on bad usage.\n";

struct ResumeFromOptions {
    std::string target;
    std::string control;
    std::string caFile;
    std::string tokenFile;
    bool saveSql = true;
};

ResumeFromOptions parseOptions(std::span<char*> args) {
    ResumeFromOptions options;
    OptionReader()
        .value("--control", options.control)
        .value("--ca", options.caFile)
        .value("--token-file", options.tokenFile)
        .flag("--no-save-sql", options.saveSql, false)
        .argument(options.target, "say one point to resume from, not several")
        .read(args);
    if (options.target.empty()) {
        throw UsageError("say where to resume from: FILE:POS or a GTID position");
    }
    if (options.control.empty()) {
        throw UsageError("--control [https://]HOST:PORT (the task's `run --listen` address) is needed");
    }
    return options;
}

// FILE:POS when the text is one (a binlog file name before the colon), else a GTID position for the API to check.
nlohmann::json bodyFor(const ResumeFromOptions& options) {
    nlohmann::json body = nlohmann::json::object();
    const auto colon = options.target.rfind(':');
    if (colon != std::string::npos &&
        binlog::BinlogPosition::isBinlogFileName(std::string_view(options.target).substr(0, colon))) {
        try {
            binlog::BinlogPosition position = binlog::BinlogPosition::parse(options.target);
            body["binlog_name"] = position.file();
            body["binlog_pos"] = position.offset();
        } catch (const std::exception& e) {
            throw UsageError("'" + options.target + "' is no FILE:POS: " + e.what());
        }
    } else {
        body["gtid"] = options.target;
    }
    if (!options.saveSql) {
        body["save_sql"] = false;
    }
    return body;
}

int runResumeFrom(std::span<char*> args) {
    if (asksForHelp(args)) {
        std::cout << kResumeFromUsage;
        return kExitOk;
    }
    ResumeFromOptions options;
    nlohmann::json body;
    remote::RemoteEngineOptions endpoint;
    try {
        options = parseOptions(args);
        body = bodyFor(options);
        endpoint = remote::controlEndpoint(options.control, options.caFile, options.tokenFile);
        endpoint.connectTimeoutSeconds = kConnectTimeoutSeconds;
        endpoint.timeoutSeconds = kResumeTimeoutSeconds;
    } catch (const std::exception& e) {
        std::cerr << "syncscope-cli resume-from: " << e.what() << "\n" << kResumeFromUsage;
        return kExitUsage;
    }
    try {
        remote::ControlApiClient::Answer response =
            remote::ControlApiClient(endpoint).post("/api/v1/resume-from", body.dump());
        if (!response.ok()) {
            std::cerr << "syncscope-cli resume-from: " << response.error << '\n';
            return kExitFailure;
        }
        auto answer = nlohmann::json::parse(response.body, nullptr, false);
        if (response.status != kHttpOk || !answer.is_object() || !answer.value("accepted", false)) {
            std::string reason = answer.is_object() ? answer.value("error", response.body) : response.body;
            std::cerr << "syncscope-cli resume-from: HTTP " << response.status << ": " << reason << '\n';
            return kExitFailure;
        }
        std::cout << "resume-from: " << answer.value("result", "") << '\n';
        if (answer.contains("replay_sql_file")) {
            const nlohmann::json& counts = answer["preview"];
            std::cout << "  skipped going forward: " << counts.value("transactions", 0) << " transaction(s), "
                      << counts.value("rows", 0) << " row(s) (" << counts.value("rows_equal", 0)
                      << " already equal downstream)\n"
                      << "  replay SQL (in the audit entry too): " << answer["replay_sql_file"].get<std::string>()
                      << '\n';
        }
        return kExitOk;
    } catch (const std::exception& e) {
        std::cerr << "syncscope-cli resume-from: " << e.what() << '\n';
        return kExitFailure;
    }
}

const CommandRegistration kResumeFromCommand(
    {"resume-from", "move a running task's global point (forward: the skipped rows saved as SQL first)",
     runResumeFrom});

}  // namespace
}  // namespace syncscope::cli
