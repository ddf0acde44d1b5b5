// syncscope-cli check: the precheck of a task before its first start (DM's check-task, with the fix
// for every finding). Exit 0 when nothing is worse than a note, 1 with warnings, 2 with errors (and
// on bad usage, with the usage on stderr).
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "app/cli/cli_commands.h"
#include "app/cli/option_reader.h"
#include "engine/config/config_duration.h"
#include "engine/config/source_config.h"
#include "engine/config/task_config.h"
#include "engine/precheck/precheck.h"
#include "engine/task/task_setup_builder.h"

namespace syncscope::cli {
namespace {

constexpr int kJsonIndent = 2;

const char* const kCheckUsage =
    "Usage: syncscope-cli check TASK.yaml --source SOURCE.yaml [--json] [--expected-lag DURATION]\n"
    "Checks what the task needs before its first start, read-only, and prints every finding with what is\n"
    "wrong, why it matters for this task and the exact statement or setting that fixes it:\n"
    "  upstream    binary log on, binlog_format=ROW, binlog_row_image=FULL, binlog_row_metadata=FULL, a\n"
    "              server_id, GTID settings that agree with enable-gtid, REPLICATION SLAVE and BINLOG\n"
    "              MONITOR (REPLICATION CLIENT) and SELECT grants, the start position still on the server,\n"
    "              binlog retention of at least twice the expected lag\n"
    "  tables      no primary or unique key, unique keys on nullable columns, case-insensitive (_ci) keys,\n"
    "              sequences and types the engine does not replicate, tables that routes merge\n"
    "  downstream  privileges on the target schemas and the meta schema, max_allowed_packet, character\n"
    "              sets and collations that differ, missing tables and columns that differ, generated\n"
    "              columns, triggers, cascading foreign keys, non-transactional engines\n"
    "Options:\n"
    "  --json                   one JSON object for scripts (findings with check, severity, subject,\n"
    "                           problem, impact, fix, fix_target, fix_statements)\n"
    "  --expected-lag DURATION  the longest the task may fall behind or stay stopped (default 24h)\n"
    "Exit 0 when nothing is worse than a note, 1 with warnings, 2 with errors or bad usage.\n";

struct CheckOptions {
    std::string taskFile;
    std::string sourceFile;
    bool json = false;
    precheck::PrecheckOptions precheck;
};

CheckOptions parseOptions(std::span<char*> args) {
    CheckOptions options;
    OptionReader()
        .value("--source", options.sourceFile)
        .flag("--json", options.json)
        .value("--expected-lag",
               [&options](const std::string& text) {
                   try {
                       auto lag = std::chrono::duration_cast<std::chrono::seconds>(config::parseGoDuration(text));
                       if (lag.count() <= 0) {
                           throw std::invalid_argument("must be positive");
                       }
                       options.precheck.expectedLag = lag;
                   } catch (const std::invalid_argument& e) {
                       throw UsageError("--expected-lag '" + text + "': " + e.what());
                   }
               })
        .argument(options.taskFile, "more than one task file given")
        .read(args);
    if (options.taskFile.empty() || options.sourceFile.empty()) {
        throw UsageError("check needs TASK.yaml and --source SOURCE.yaml");
    }
    return options;
}

int runCheck(std::span<char*> args) {
    if (asksForHelp(args)) {
        std::cout << kCheckUsage;
        return kExitOk;
    }
    CheckOptions options;
    try {
        options = parseOptions(args);
    } catch (const UsageError& e) {
        std::cerr << "syncscope-cli check: " << e.what() << "\n" << kCheckUsage;
        return precheck::PrecheckReport::kExitErrors;
    }
    try {
        config::TaskConfig taskConfig = config::loadTaskConfig(options.taskFile);
        config::SourceConfig sourceConfig = config::loadSourceConfig(options.sourceFile);
        std::vector<std::string> warnings;
        task::TaskSetup setup = task::makeTaskSetup(taskConfig, sourceConfig, warnings);
        for (const auto& warning : warnings) {
            std::cerr << "syncscope-cli check: " << warning << '\n';
        }
        precheck::PrecheckReport report = precheck::runPrecheck(setup, options.precheck);
        if (options.json) {
            std::cout << precheck::toJson(report).dump(kJsonIndent) << '\n';
        } else {
            std::cout << precheck::toText(report);
        }
        return report.exitCode();
    } catch (const std::exception& e) {
        std::cerr << "syncscope-cli check: " << e.what() << '\n';
        return precheck::PrecheckReport::kExitErrors;
    }
}

const CommandRegistration kCheckCommand({"check", "precheck a task before its start: findings with their fixes",
                                         runCheck});

}  // namespace
}  // namespace syncscope::cli
