#include "tests/support/task_files.h"

#include <fstream>

#include "tests/support/test_env.h"

namespace syncscope::test {

TaskFiles writeTaskFiles(const std::string& dir, const TaskFileOptions& options) {
    TaskFiles files{dir + "/" + options.name + ".yaml", dir + "/" + options.name + "-source.yaml"};
    ServerSettings up = upstreamReplication();
    ServerSettings down = downstreamRoot();
    std::ofstream task(files.task);
    task << "name: " << options.name << "\n"
         << "task-mode: " << options.taskMode << "\n"
         << "target-database: {host: \"127.0.0.1\", port: " << down.port << ", user: \"" << down.user
         << "\", password: \"" << down.password << "\""
         << (options.targetSession.empty() ? std::string() : ", session: {" + options.targetSession + "}") << "}\n"
         << "mysql-instances:\n"
         << "  - source-id: \"mysql-3306\"\n";
    if (!options.binlogName.empty() || !options.binlogGtid.empty()) {
        task << "    meta: {binlog-name: \"" << options.binlogName << "\", binlog-pos: " << options.binlogPos
             << ", binlog-gtid: \"" << options.binlogGtid << "\"}\n";
    }
    task << "    syncer: {worker-count: " << options.workerCount
         << ", checkpoint-flush-interval: " << options.flushIntervalSeconds
         << ", enable-gtid: " << (options.gtidMode ? "true" : "false")
         << (options.multipleRows ? ", multiple-rows: true" : ", multiple-rows: false") << options.syncerExtra << "}\n"
         << options.instanceExtra << options.topLevelExtra;
    std::ofstream source(files.source);
    source << "source-id: \"mysql-3306\"\nflavor: mariadb\nenable-gtid: " << (options.gtidMode ? "true" : "false")
           << "\nfrom: {host: \"127.0.0.1\", port: " << up.port << ", user: \"" << up.user << "\", password: \""
           << up.password << "\"}\n";
    return files;
}

}  // namespace syncscope::test
