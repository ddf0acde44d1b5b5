// syncscope-cli checkpoints: inspects the checkpoint tables of a downstream read-only (ours or a DM
// deployment's), lists every source's global and table points and flags what a resume would get
// wrong: table points ahead of the global point, points beyond the upstream or in purged files, and
// missing global rows.
#include <nlohmann/json.hpp>

#include <charconv>
#include <fstream>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "app/cli/cli_commands.h"
#include "app/cli/window_verify.h"
#include "engine/common/state_directory.h"
#include "engine/inspect/checkpoint_inspector.h"

namespace syncscope::cli {
namespace {

constexpr int kJsonIndent = 2;

const char* const kCheckpointsUsage =
    "Usage: syncscope-cli checkpoints --target HOST:PORT --user U --password-file F\n"
    "         [--meta-schema dm_meta] [--task NAME]\n"
    "         [--upstream HOST:PORT --upstream-user U --upstream-password-file F [--source-id ID]]\n"
    "         [--json] [--verify [--repair] [--log-dir DIR]]\n"
    "Reads <meta-schema>.<task>_syncer_checkpoint (every such table without --task) read-only and lists\n"
    "every source's global and table points. Flags table points ahead of the global point (with the\n"
    "window a resume would skip), a missing global row, and with --upstream points beyond the\n"
    "upstream's position or in binlog files it no longer has (--source-id: only that source is the\n"
    "upstream's). Exit 0 when the tables were read (anomalies or not), 1 on an error, 2 on bad usage.\n"
    "--verify (needs --upstream; its user needs REPLICATION SLAVE): for every table point ahead of the\n"
    "global point, decodes the upstream's binlog between the two points, keeps the final image of every\n"
    "row of that table changed there and checks each against the downstream (equal, missing, different,\n"
    "not deleted). --repair then writes the final images of the wrong rows (audited in\n"
    "DIR/<task>-audit.jsonl; DIR defaults to $XDG_STATE_HOME/syncscope/logs, the folder `run` uses)\n"
    "and checks again. With --verify: exit 0 when every window's rows are right, 1 when some are\n"
    "wrong, 2 on an error.\n";

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct CheckpointsOptions {
    inspect::InspectionRequest request;
    std::string targetAddress;
    std::string passwordFile;
    std::string upstreamAddress;
    std::string upstreamUser;
    std::string upstreamPasswordFile;
    bool json = false;
    bool verify = false;
    bool repair = false;
    std::string logDir = defaultLogDirectory();
};

void parseAddress(const std::string& text, const char* option, ServerSettings& settings) {
    size_t colon = text.rfind(':');
    if (colon == std::string::npos || colon == 0) {
        throw UsageError(std::string(option) + " '" + text + "' is not HOST:PORT");
    }
    int port = 0;
    std::string_view portText = std::string_view(text).substr(colon + 1);
    auto [end, ec] = std::from_chars(portText.data(), portText.data() + portText.size(), port);
    constexpr int kMaxPort = 65535;
    if (ec != std::errc() || end != portText.data() + portText.size() || port <= 0 || port > kMaxPort) {
        throw UsageError(std::string(option) + " '" + text + "': port '" + std::string(portText) +
                         "' is not a number from 1 to 65535");
    }
    settings.host = text.substr(0, colon);
    settings.port = port;
}

// The first line of the file, without its line end; an unreadable file is an error (exit 1).
std::string readPassword(const std::string& file) {
    std::ifstream in(file);
    if (!in) {
        throw Error("cannot read password file '" + file + "'");
    }
    std::string password;
    std::getline(in, password);
    if (!password.empty() && password.back() == '\r') {
        password.pop_back();
    }
    return password;
}

CheckpointsOptions parseOptions(std::span<char*> args) {
    CheckpointsOptions options;
    for (size_t i = 0; i < args.size(); ++i) {
        std::string_view arg = args[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= args.size()) {
                throw UsageError(std::string(arg) + " needs a value");
            }
            return args[++i];
        };
        if (arg == "--target") {
            options.targetAddress = value();
        } else if (arg == "--user") {
            options.request.target.user = value();
        } else if (arg == "--password-file") {
            options.passwordFile = value();
        } else if (arg == "--meta-schema") {
            options.request.metaSchema = value();
        } else if (arg == "--task") {
            options.request.task = value();
        } else if (arg == "--upstream") {
            options.upstreamAddress = value();
        } else if (arg == "--upstream-user") {
            options.upstreamUser = value();
        } else if (arg == "--upstream-password-file") {
            options.upstreamPasswordFile = value();
        } else if (arg == "--source-id") {
            options.request.upstreamSourceId = value();
        } else if (arg == "--json") {
            options.json = true;
        } else if (arg == "--verify") {
            options.verify = true;
        } else if (arg == "--repair") {
            options.repair = true;
        } else if (arg == "--log-dir") {
            options.logDir = value();
        } else {
            throw UsageError("unknown option '" + std::string(arg) + "'");
        }
    }
    if (options.targetAddress.empty() || options.request.target.user.empty() || options.passwordFile.empty()) {
        throw UsageError("--target, --user and --password-file are required");
    }
    if (options.request.metaSchema.empty()) {
        throw UsageError("--meta-schema must not be empty");
    }
    if (options.verify && options.upstreamAddress.empty()) {
        throw UsageError("--verify needs --upstream: the window is decoded from the upstream's binlog");
    }
    if (options.repair && !options.verify) {
        throw UsageError("--repair needs --verify");
    }
    parseAddress(options.targetAddress, "--target", options.request.target);
    bool anyUpstream =
        !options.upstreamAddress.empty() || !options.upstreamUser.empty() || !options.upstreamPasswordFile.empty();
    if (anyUpstream) {
        if (options.upstreamAddress.empty() || options.upstreamUser.empty() || options.upstreamPasswordFile.empty()) {
            throw UsageError("--upstream, --upstream-user and --upstream-password-file go together");
        }
        ServerSettings upstream;
        parseAddress(options.upstreamAddress, "--upstream", upstream);
        upstream.user = options.upstreamUser;
        options.request.upstream = upstream;
    } else if (!options.request.upstreamSourceId.empty()) {
        throw UsageError("--source-id needs --upstream");
    }
    return options;
}

nlohmann::json toJson(const binlog::Location& location) {
    if (location.isEmpty()) {
        return nullptr;
    }
    return {{"binlog_name", location.position().file()},
            {"binlog_pos", location.position().offset()},
            {"binlog_gtid", location.gtidText()},
            {"text", location.toString()}};
}

nlohmann::json toJson(const std::vector<inspect::CheckpointAnomaly>& anomalies) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& anomaly : anomalies) {
        nlohmann::json item{{"kind", inspect::anomalyName(anomaly.kind)}, {"message", anomaly.message}};
        if (anomaly.skipWindow) {
            const auto& window = *anomaly.skipWindow;
            item["skip_window"] = {
                {"from", toJson(window.from)},
                {"to", toJson(window.to)},
                {"bytes", window.bytes ? nlohmann::json(*window.bytes) : nlohmann::json(nullptr)},
                {"transactions", window.transactions ? nlohmann::json(*window.transactions) : nlohmann::json(nullptr)},
                {"events", window.events ? nlohmann::json(*window.events) : nlohmann::json(nullptr)},
                {"table_rows_events",
                 window.tableRowsEvents ? nlohmann::json(*window.tableRowsEvents) : nlohmann::json(nullptr)},
                {"events_capped", window.eventsCapped}};
        }
        out.push_back(std::move(item));
    }
    return out;
}

nlohmann::json toJson(const inspect::InspectedPoint& point) {
    // The stored values as they are (DM's too), beside the parsed point.
    nlohmann::json out{{"schema", point.row.schema},
                       {"table", point.row.table},
                       {"binlog_name", point.row.binlogName},
                       {"binlog_pos", point.row.binlogPos ? nlohmann::json(*point.row.binlogPos) : nullptr},
                       {"binlog_gtid", point.row.binlogGtid},
                       {"point", toJson(point.location)},
                       {"update_time", point.row.updateTime},
                       {"axis_bytes", point.axisBytes ? nlohmann::json(*point.axisBytes) : nullptr},
                       {"placement", point.placement ? nlohmann::json(binlog::toString(*point.placement)) : nullptr},
                       {"anomalies", toJson(point.anomalies)}};
    if (point.row.isGlobal) {
        out["exit_safe_point"] = toJson(point.exitSafePoint);
    }
    return out;
}

nlohmann::json toJson(const inspect::InspectionReport& report) {
    nlohmann::json out{{"target", report.target}, {"anomalies", report.anomalyCount()}};
    if (report.upstream) {
        nlohmann::json files = nlohmann::json::array();
        for (const auto& file : report.upstream->files) {
            files.push_back({{"file", file.file}, {"size", file.size}});
        }
        out["upstream"] = {
            {"server", report.upstream->server}, {"current", toJson(report.upstream->current)}, {"files", files}};
    } else {
        out["upstream"] = nullptr;
    }
    nlohmann::json tables = nlohmann::json::array();
    for (const auto& table : report.tables) {
        nlohmann::json sources = nlohmann::json::array();
        for (const auto& source : table.sources) {
            nlohmann::json points = nlohmann::json::array();
            for (const auto& point : source.tables) {
                points.push_back(toJson(point));
            }
            sources.push_back({{"source_id", source.sourceId},
                               {"checked_against_upstream", source.checkedAgainstUpstream},
                               {"global", source.global ? toJson(*source.global) : nlohmann::json(nullptr)},
                               {"tables", points},
                               {"anomalies", toJson(source.anomalies)}});
        }
        tables.push_back({{"meta_schema", table.metaSchema},
                          {"table", table.tableName},
                          {"task", table.taskName},
                          {"problem", table.problem},
                          {"sources", sources}});
    }
    out["tables"] = tables;
    return out;
}

void printAnomalies(const std::vector<inspect::CheckpointAnomaly>& anomalies, std::ostream& out) {
    for (const auto& anomaly : anomalies) {
        out << "      ! " << inspect::anomalyName(anomaly.kind) << ": " << anomaly.message << '\n';
    }
}

void printText(const inspect::InspectionReport& report, std::ostream& out) {
    out << "target " << report.target << '\n';
    if (report.upstream) {
        const auto& upstream = *report.upstream;
        out << "upstream " << upstream.server << " at " << upstream.current.toString() << ", " << upstream.files.size()
            << " binlog files";
        if (!upstream.files.empty()) {
            out << " (" << upstream.files.front().file << " .. " << upstream.files.back().file << ")";
        }
        out << '\n';
    }
    if (report.tables.empty()) {
        out << "no checkpoint tables found\n";
    }
    for (const auto& table : report.tables) {
        out << "\ncheckpoint table `" << table.metaSchema << "`.`" << table.tableName << "` (task " << table.taskName
            << ")\n";
        if (!table.problem.empty()) {
            out << "  ! " << table.problem << '\n';
        }
        for (const auto& source : table.sources) {
            out << "  source " << source.sourceId << '\n';
            printAnomalies(source.anomalies, out);
            if (source.global) {
                out << "    global     " << source.global->location.toString();
                if (!source.global->exitSafePoint.isEmpty()) {
                    out << "  exit-safe " << source.global->exitSafePoint.toString();
                }
                out << '\n';
                printAnomalies(source.global->anomalies, out);
            }
            for (const auto& point : source.tables) {
                out << "    table      " << point.row.schema << "." << point.row.table << "  "
                    << point.location.toString() << '\n';
                printAnomalies(point.anomalies, out);
            }
        }
    }
    out << '\n' << report.anomalyCount() << (report.anomalyCount() == 1 ? " anomaly" : " anomalies") << '\n';
}

int runCheckpoints(std::span<char*> args) {
    if (asksForHelp(args)) {
        std::cout << kCheckpointsUsage;
        return kExitOk;
    }
    CheckpointsOptions options;
    try {
        options = parseOptions(args);
    } catch (const UsageError& e) {
        std::cerr << "syncscope-cli checkpoints: " << e.what() << "\n" << kCheckpointsUsage;
        return kExitUsage;
    }
    try {
        options.request.target.password = readPassword(options.passwordFile);
        if (options.request.upstream) {
            options.request.upstream->password = readPassword(options.upstreamPasswordFile);
        }
        inspect::InspectionReport report = inspect::inspectCheckpoints(options.request);
        if (!options.verify) {
            if (options.json) {
                std::cout << toJson(report).dump(kJsonIndent) << '\n';
            } else {
                printText(report, std::cout);
            }
            return kExitOk;
        }
        if (!options.json) {
            printText(report, std::cout);
            std::cout << "\nskip windows verified row by row:\n";
        }
        WindowVerifyOptions verifyOptions{options.request.target, *options.request.upstream, options.repair,
                                          options.logDir};
        WindowVerifyOutcome outcome = verifySkipWindows(report, verifyOptions, options.json ? nullptr : &std::cout);
        if (options.json) {
            nlohmann::json out = toJson(report);
            out["window_verifications"] = outcome.json;
            std::cout << out.dump(kJsonIndent, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
        } else {
            std::cout << outcome.windows << " windows, " << outcome.wrongRows << " wrong rows, " << outcome.failed
                      << " not verifiable\n";
        }
        constexpr int kExitWrongRows = 1;
        constexpr int kExitVerifyError = 2;
        if (outcome.failed > 0) {
            return kExitVerifyError;
        }
        return outcome.wrongRows > 0 ? kExitWrongRows : kExitOk;
    } catch (const std::exception& e) {
        std::cerr << "syncscope-cli checkpoints: " << e.what() << '\n';
        return kExitFailure;
    }
}

const CommandRegistration kCheckpointsCommand({"checkpoints",
                                               "inspect checkpoint tables (ours or DM's) and flag unsafe points",
                                               runCheckpoints});

}  // namespace
}  // namespace syncscope::cli
