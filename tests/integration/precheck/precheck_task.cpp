#include "tests/integration/precheck/precheck_task.h"

#include <fstream>

#include "engine/config/source_config.h"
#include "engine/config/task_config.h"
#include "engine/source/upstream_connection.h"
#include "engine/task/task_setup_builder.h"

namespace syncscope::test {

namespace {

std::string currentBinlogFile() {
    source::UpstreamConnection upstream(engineSettings(upstreamRoot()));
    auto rows = upstream.query("SHOW MASTER STATUS");
    return rows.empty() ? std::string() : rows.front()[0].value_or("");
}

}  // namespace

PrecheckTaskFiles writePrecheckTask(const std::string& dir, const PrecheckTaskOptions& options) {
    PrecheckTaskFiles files{dir + "/" + options.schema + "-task.yaml", dir + "/" + options.schema + "-source.yaml"};
    std::string binlog = options.metaBinlogName.empty() ? currentBinlogFile() : options.metaBinlogName;
    std::ofstream task(files.task);
    task << "name: " << options.schema << "\n"
         << "task-mode: incremental\n"
         << "meta-schema: precheck_meta\n"
         << "target-database: {host: \"127.0.0.1\", port: " << options.downstream.port << ", user: \""
         << options.downstream.user << "\", password: \"" << options.downstream.password << "\""
         << (options.session.empty() ? "" : ", session: " + options.session) << "}\n"
         << "block-allow-list:\n  only-this:\n    do-dbs: [\"" << options.schema << "\"";
    for (const auto& schema : options.moreSchemas) {
        task << ", \"" << schema << "\"";
    }
    task << "]\n";
    if (!options.ignoreTable.empty()) {
        task << "    ignore-tables:\n      - db-name: \"" << options.schema << "\"\n        tbl-name: \""
             << options.ignoreTable << "\"\n";
    }
    task << "mysql-instances:\n"
         << "  - source-id: \"mysql-3306\"\n"
         << "    meta: {binlog-name: \"" << binlog << "\", binlog-pos: 4}\n"
         << "    block-allow-list: only-this\n"
         << options.instanceExtra << options.topLevelExtra;
    std::ofstream source(files.source);
    source << "source-id: \"mysql-3306\"\nflavor: mariadb\nenable-gtid: " << (options.enableGtid ? "true" : "false")
           << "\nfrom: {host: \"127.0.0.1\", port: " << options.upstream.port << ", user: \"" << options.upstream.user
           << "\", password: \"" << options.upstream.password << "\"}\n";
    return files;
}

task::TaskSetup loadPrecheckTask(const PrecheckTaskFiles& files) {
    std::vector<std::string> warnings;
    return task::makeTaskSetup(config::loadTaskConfig(files.task), config::loadSourceConfig(files.source), warnings);
}

}  // namespace syncscope::test
