// Shared by the load suites: an upstream data set of awkward values (keyed by an integer, by a
// composite text key, and without a key), the DM task files that load it with a filter and routes,
// running `syncscope-cli run`, and the upstream/downstream comparison by CHECKSUM TABLE and row count.
#pragma once

#include <QProcess>
#include <QStringList>

#include <string>
#include <utility>
#include <vector>

#include "engine/source/upstream_connection.h"
#include "tests/support/task_files.h"

namespace syncscope::test {

// Upstream tables (loadsrc.*) and where the task's routes put them downstream.
inline const std::vector<std::pair<std::string, std::string>> kLoadedTables = {
    {"loadsrc.items", "loaddst.items_copy"}, {"loadsrc.pairs", "loaddst.pairs"}, {"loadsrc.nokey", "loaddst.nokey"}};

// Drops loadsrc/loaddst on both sides and the task's meta rows; fills loadsrc with `rowsPerTable` rows
// per table and the filtered-out table loadsrc.ignored.
void createLoadSource(source::UpstreamConnection& up, source::UpstreamConnection& down, int rowsPerTable);

// Task options for the data set: block-allow (loadsrc without loadsrc.ignored) and the routes.
TaskFileOptions loadTaskOptions(const std::string& name, const std::string& mode);

// "rows/checksum;" per table, of the upstream names (`upstream` true) or the routed ones.
std::string tableChecksums(source::UpstreamConnection& server, bool upstream);

// syncscope-cli run TASK --source SOURCE --log-dir DIR [extra] with the load tuned by the environment.
void startRun(QProcess& process, const TaskFiles& files, const QString& logDir, int chunkRows, int threads,
              const QString& loadMethod = {}, const QStringList& extraArguments = {});

}  // namespace syncscope::test
