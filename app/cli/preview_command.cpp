// syncscope-cli preview: what a skip or a resume-from of a running task would leave out (or apply again),
// each row checked against the downstream, asked of the task's control API (`run --listen`), which knows
// the failed event and the persisted global point. Reads only; the skip itself is POST /api/v1/skip.
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
// A long resume-from window is read and checked row by row before the answer comes.
constexpr int kPreviewTimeoutSeconds = 600;
constexpr int kJsonIndent = 2;

const char* const kPreviewUsage =
    "Usage: syncscope-cli preview skip --control [https://]HOST:PORT [--ca FILE] [--token-file F] [--json]\n"
    "       syncscope-cli preview resume-from FILE:POS --control [https://]HOST:PORT [--ca FILE] [--token-file F]\n"
    "                                  [--json]\n"
    "Asks the task's control API (`syncscope-cli run --listen HOST:PORT`) what a command would leave out\n"
    "before it is given: `skip` the failed event's whole transaction, `resume-from` the transactions\n"
    "between the persisted global point and FILE:POS (skipped going forward, applied again in safe mode\n"
    "going back). Lists the transactions and, for every replicated table, each row's final image in the\n"
    "window checked against the downstream: equal, missing, different (columns named), not deleted.\n"
    "Changes nothing. A skip through the API (POST /api/v1/skip) then saves the rows not equal\n"
    "downstream as replayable SQL, named in its audit entry.\n"
    "--control https://HOST:PORT (or --ca FILE) talks to an engine run with --tls-cert; --ca names the CA\n"
    "to trust (default: the system's store).\n"
    "Exit 0 when the preview was read, 1 when the API refused it or could not be reached, 2 on bad usage.\n";

struct PreviewOptions {
    std::string command;  // "skip" or "resume-from"
    std::string target;   // FILE:POS of a resume-from
    std::string control;
    std::string caFile;
    std::string tokenFile;
    bool json = false;
};

PreviewOptions parseOptions(std::span<char*> args) {
    PreviewOptions options;
    OptionReader()
        .value("--control", options.control)
        .value("--ca", options.caFile)
        .value("--token-file", options.tokenFile)
        .flag("--json", options.json)
        .arguments([&options](const std::string& arg) {
            if (options.command.empty()) {
                if (arg != "skip" && arg != "resume-from") {
                    throw UsageError("preview skip or preview resume-from, not '" + arg + "'");
                }
                options.command = arg;
            } else if (options.command == "resume-from" && options.target.empty()) {
                options.target = arg;
            } else {
                throw UsageError("unexpected argument '" + arg + "'");
            }
        })
        .read(args);
    if (options.command.empty()) {
        throw UsageError("say what to preview: skip or resume-from FILE:POS");
    }
    if (options.command == "resume-from" && options.target.empty()) {
        throw UsageError("resume-from needs the target FILE:POS");
    }
    if (options.control.empty()) {
        throw UsageError("--control [https://]HOST:PORT (the task's `run --listen` address) is needed");
    }
    return options;
}

std::string pathFor(const PreviewOptions& options) {
    if (options.command == "skip") {
        return "/api/v1/preview/skip";
    }
    binlog::BinlogPosition target;
    try {
        target = binlog::BinlogPosition::parse(options.target);
    } catch (const std::exception& e) {
        throw UsageError("resume-from target '" + options.target + "' is no FILE:POS: " + e.what());
    }
    return "/api/v1/preview/resume-from?binlog_name=" + target.file() +
           "&binlog_pos=" + std::to_string(target.offset());
}

std::string valuesText(const nlohmann::json& values) {
    if (!values.is_array()) {
        return "-";
    }
    std::string text;
    for (const auto& value : values) {
        text += (text.empty() ? "" : ", ") + (value.is_null() ? std::string("NULL") : value.get<std::string>());
    }
    return "(" + text + ")";
}

void printText(const std::string& command, const nlohmann::json& preview, std::ostream& out) {
    const bool skips = preview.value("skips", true);
    out << command << ": binlog window after " << preview.value("from", "") << " up to " << preview.value("to", "")
        << (skips ? " is SKIPPED" : " is APPLIED AGAIN (safe mode)") << '\n';
    if (preview.contains("persisted_global_point")) {
        out << "  persisted global point " << preview["persisted_global_point"].get<std::string>() << '\n';
    }
    out << "  " << preview.value("transactions", 0) << " transaction(s), " << preview.value("rows", 0)
        << " row(s): " << preview.value("rows_equal", 0) << " equal, " << preview.value("rows_missing", 0)
        << " missing, " << preview.value("rows_different", 0) << " different, " << preview.value("rows_not_deleted", 0)
        << " not deleted downstream\n";
    for (const auto& transaction : preview.value("transaction_list", nlohmann::json::array())) {
        out << "  trx " << transaction.value("start", "") << ".." << transaction.value("end", "")
            << (transaction.value("gtid", "").empty() ? "" : "  gtid " + transaction.value("gtid", "")) << "  "
            << transaction.value("row_changes", 0) << " row change(s)";
        for (const auto& table : transaction.value("tables", nlohmann::json::array())) {
            out << "  " << table.get<std::string>();
        }
        out << '\n';
    }
    for (const auto& table : preview.value("tables", nlohmann::json::array())) {
        out << "  " << table.value("table", "") << " -> " << table.value("downstream_table", "") << "  key "
            << table.value("key_columns", nlohmann::json::array()).dump() << '\n';
        for (const auto& row : table.value("rows", nlohmann::json::array())) {
            out << "    key " << valuesText(row["key"]) << "  " << row.value("state", "") << "  "
                << (row.value("deleted", false) ? std::string("deleted in the window") : valuesText(row["image"]));
            for (const auto& column : row.value("differing_columns", nlohmann::json::array())) {
                out << "  [" << column.get<std::string>() << "]";
            }
            out << '\n';
        }
    }
    for (const auto& problem : preview.value("not_checked", nlohmann::json::array())) {
        out << "  NOT CHECKED " << problem.value("table", "") << ": " << problem.value("reason", "") << '\n';
    }
}

int runPreview(std::span<char*> args) {
    if (asksForHelp(args)) {
        std::cout << kPreviewUsage;
        return kExitOk;
    }
    PreviewOptions options;
    std::string path;
    remote::RemoteEngineOptions endpoint;
    try {
        options = parseOptions(args);
        path = pathFor(options);
        endpoint = remote::controlEndpoint(options.control, options.caFile, options.tokenFile);
        endpoint.connectTimeoutSeconds = kConnectTimeoutSeconds;
        endpoint.timeoutSeconds = kPreviewTimeoutSeconds;
    } catch (const std::exception& e) {
        std::cerr << "syncscope-cli preview: " << e.what() << "\n" << kPreviewUsage;
        return kExitUsage;
    }
    try {
        remote::ControlApiClient::Answer response = remote::ControlApiClient(endpoint).get(path);
        if (!response.ok()) {
            std::cerr << "syncscope-cli preview: " << response.error << '\n';
            return kExitFailure;
        }
        auto answer = nlohmann::json::parse(response.body, nullptr, false);
        if (response.status != kHttpOk || !answer.is_object() || !answer.contains("preview")) {
            std::string reason = answer.is_object() ? answer.value("error", response.body) : response.body;
            std::cerr << "syncscope-cli preview: HTTP " << response.status << ": " << reason << '\n';
            return kExitFailure;
        }
        if (options.json) {
            std::cout << answer["preview"].dump(kJsonIndent) << '\n';
        } else {
            printText(options.command, answer["preview"], std::cout);
        }
        return kExitOk;
    } catch (const std::exception& e) {
        std::cerr << "syncscope-cli preview: " << e.what() << '\n';
        return kExitFailure;
    }
}

const CommandRegistration kPreviewCommand({"preview",
                                           "what a running task's skip or resume-from would leave out, row by row",
                                           runPreview});

}  // namespace
}  // namespace syncscope::cli
