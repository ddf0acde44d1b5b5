// A task of its own for each precheck case: one schema on both servers of the private pair, DM task
// and source files that replicate only it, and the TaskSetup the precheck runs with.
#pragma once

#include <string>
#include <vector>

#include "engine/task/task_setup.h"
#include "tests/support/test_env.h"

namespace syncscope::test {

struct PrecheckTaskOptions {
    std::string schema;
    ServerSettings upstream = upstreamReplication();
    ServerSettings downstream = downstreamRoot();
    std::string metaBinlogName;  // empty: the upstream's current file
    bool enableGtid = false;
    std::string session;                   // YAML of target-database.session, e.g. "{foreign_key_checks: 1}"
    std::string instanceExtra;             // more keys of the mysql-instances entry, each line indented 4
    std::string topLevelExtra;             // more top-level YAML
    std::string ignoreTable;               // a table of the schema to leave out
    std::vector<std::string> moreSchemas;  // more schemas the task replicates (shard databases)
};

struct PrecheckTaskFiles {
    std::string task;
    std::string source;
};

PrecheckTaskFiles writePrecheckTask(const std::string& dir, const PrecheckTaskOptions& options);
task::TaskSetup loadPrecheckTask(const PrecheckTaskFiles& files);

}  // namespace syncscope::test
