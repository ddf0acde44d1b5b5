// What the New Task dialog asks for, as plain values, and turning it into a DM task file and source
// file written with the engine's writer and proven by loading them back with the engine's loader.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/common/server_settings.h"
#include "engine/config/source_config.h"
#include "engine/config/task_config.h"

namespace syncscope::ui {

// One server of the task: the password typed in (written into the file) or a password file (only its
// path is written; relative paths are relative to the folder the files are saved in, as the loader reads them).
struct ServerEntry {
    ServerSettings server;
    std::string passwordFile;  // non-empty: use the file, not server.password

    // The password to connect with; throws Error naming the file when it cannot be read.
    std::string resolvePassword(const std::string& directory) const;
};

// A further source of a task with several sources: a source file that exists already (its source-id read
// from it), and the databases it replicates (its own block-allow list; sources writing one downstream table
// are refused when the task opens).
struct MoreSource {
    std::string sourceFile;
    std::string sourceId;
    std::vector<std::string> doDbs;
};

struct NewTaskSpec {
    std::string name;
    std::string metaSchema = config::TaskConfig::kDefaultMetaSchema;
    ServerEntry target;
    std::string sourceId;
    ServerEntry source;
    std::string flavor;  // "mysql", "mariadb", or "" to ask the server
    bool enableGtid = false;
    // Where to start when the task has no checkpoint yet; all empty: DM's default.
    std::string startBinlogName;
    uint32_t startBinlogPos = config::BinlogStart::kFirstEventPosition;
    std::string startGtid;
    std::vector<std::string> doDbs;
    int workerCount = config::SyncerSettings::kDefaultWorkerCount;
    int batch = config::SyncerSettings::kDefaultBatch;
    int checkpointFlushIntervalSeconds = config::SyncerSettings::kDefaultCheckpointFlushIntervalSeconds;
    // One more mysql-instances entry each (same syncer settings; the start fields are the first source's).
    std::vector<MoreSource> moreSources;

    config::TaskConfig taskConfig() const;
    config::SourceConfig sourceConfig() const;
};

struct NewTaskFiles {
    std::string taskPath;
    std::string sourcePath;
    std::vector<std::string> moreSourcePaths;  // the spec's more sources' files, as they are
};

// "<directory>/<name>-task.yaml" and "<directory>/<source-id>-source.yaml".
NewTaskFiles newTaskFilePaths(const NewTaskSpec& spec, const std::string& directory);

// Writes both files (a typed password makes them readable by their owner only), then loads them back
// with the engine's loader; every more source's file must load with the source-id it was given, each source-id
// once. Throws config::ConfigError ("FILE:LINE: key ...: what") or Error (a file that
// exists and overwrite is false, a file that cannot be written); nothing is left half-written.
NewTaskFiles writeNewTaskFiles(const NewTaskSpec& spec, const std::string& directory, bool overwrite);

}  // namespace syncscope::ui
