// DM-format task and source files pointed at the private MariaDB pair, for tests that run the engine
// through `syncscope-cli run` or load the files themselves.
#pragma once

#include <cstdint>
#include <string>

namespace syncscope::test {

struct TaskFileOptions {
    std::string name;
    std::string taskMode = "incremental";  // or "all", "full"
    std::string binlogName;                // meta
    uint64_t binlogPos = 4;
    std::string binlogGtid;
    bool gtidMode = false;
    int workerCount = 4;
    int flushIntervalSeconds = 1;
    bool multipleRows = false;  // written as is: false keeps one statement per row (SyncScope's default is true)
    std::string syncerExtra;    // more keys of the syncer map, e.g. ", safe-mode-duration: \"0s\""
    // DM's target-database session variables as a flow map's content, e.g. "foreign_key_checks: 1".
    std::string targetSession;
    // Extra YAML for the mysql-instances entry and the top level (e.g. the DM scenario's rules).
    std::string instanceExtra;
    std::string topLevelExtra;
};

struct TaskFiles {
    std::string task;
    std::string source;
};

// Writes <dir>/<name>.yaml and <dir>/<name>-source.yaml (source-id "mysql-3306").
TaskFiles writeTaskFiles(const std::string& dir, const TaskFileOptions& options);

}  // namespace syncscope::test
