// The real engine for the GUI suites and the GUI benchmark: a DM task and source file opened as the
// engine's Task (what app/gui/task_opener does for the application), and SQL on the private MariaDB pair.
#pragma once

#include <memory>
#include <string>

#include "engine/common/server_settings.h"
#include "engine/source/upstream_connection.h"
#include "engine/task/task.h"
#include "tests/support/test_env.h"

namespace syncscope::test {

// The upstream and the downstream of the pair, as root.
std::unique_ptr<source::UpstreamConnection> connectUpstream();
std::unique_ptr<source::UpstreamConnection> connectDownstream();

// The single value of a query; "ERROR: ..." when it fails (a table that does not exist yet).
std::string valueOf(source::UpstreamConnection& connection, const std::string& sql);

// The upstream's current binlog file and position (SHOW MASTER STATUS).
std::pair<std::string, uint64_t> masterPosition(source::UpstreamConnection& upstream);

// Loads the files as the GUI does and builds the engine's Task; throws with the file and key on bad input.
std::shared_ptr<task::Task> openRealTask(const std::string& taskPath, const std::string& sourcePath,
                                         const std::string& auditPath);

}  // namespace syncscope::test
