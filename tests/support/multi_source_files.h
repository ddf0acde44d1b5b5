// DM-format files of a task with several sources (one mysql-instances entry per source, each replicating
// its own database through its own block-allow list), for the suites that run such a task.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tests/support/test_env.h"

namespace syncscope::test {

struct InstanceOfTask {
    std::string sourceId;
    std::string database;    // the instance's block-allow list keeps this database only
    std::string binlogName;  // meta: where the source starts when it has no checkpoint
    uint64_t binlogPos = 4;
};

// <dir>/<sourceId>.yaml with the source's upstream (enable-gtid false); returns its path.
std::string writeSourceFile(const std::string& dir, const std::string& sourceId, const ServerSettings& upstream);

// <dir>/<name>.yaml writing into `target`; `instanceExtra` is added to every mysql-instances entry (route-rules),
// `topLevel` at the end (routes). Returns its path.
std::string writeMultiSourceTaskFile(const std::string& dir, const std::string& name, const ServerSettings& target,
                                     const std::vector<InstanceOfTask>& instances,
                                     const std::string& instanceExtra = "", const std::string& topLevel = "");

}  // namespace syncscope::test
