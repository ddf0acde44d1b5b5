// DM's `mydumpers` and `loaders` sections of a task file and each mysql-instance's references to them,
// as the snapshot load of task-mode all/full uses them. SyncScope runs no mydumper and writes no dump
// files: each load worker reads a chunk inside its own upstream snapshot connection and writes it on
// its own target connection. So a key either maps onto that (threads and pool-size: the workers;
// rows and chunk-filesize: the chunk size; statement-size; on-duplicate-logical) or is refused or
// warned about by name with the reason (load_config.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

#include <yaml-cpp/yaml.h>

#include "engine/config/config_reader.h"

namespace syncscope::config {

// One `mydumpers` entry; a key not written stays empty (DM's default applies).
struct MydumperSettings {
    static constexpr int kDefaultThreads = 4;  // DM's default

    std::optional<int> threads;               // upstream snapshot connections that read chunks
    std::optional<uint64_t> rows;             // rows per chunk (0: off, DM's default)
    std::optional<uint64_t> chunkFilesizeMb;  // megabytes per chunk, when rows is off
    std::optional<uint64_t> statementSize;    // bytes of one multi-row INSERT at most

    int effectiveThreads() const { return threads.value_or(kDefaultThreads); }

    bool operator==(const MydumperSettings&) const = default;
};

// One `loaders` entry.
struct LoaderSettings {
    static constexpr int kDefaultPoolSize = 16;  // DM's default

    std::optional<int> poolSize;  // target connections that write chunks
    std::string importMode;       // "logical" (or DM's older "sql", "loader"); "" when not written
    std::string onDuplicate;      // "error", "replace" or "ignore"; "" when not written (replace, DM)

    int effectivePoolSize() const { return poolSize.value_or(kDefaultPoolSize); }

    bool operator==(const LoaderSettings&) const = default;
};

// What one source's load runs with, both sections resolved (the instance's inline section or the one
// it names, then its mydumper-thread / loader-thread).
struct LoadSections {
    MydumperSettings mydumper;
    LoaderSettings loader;

    // Each worker holds one upstream and one target connection, so the smaller count decides.
    int workers() const;
    // Rows per chunk when `rows` is written (and not 0); nullopt otherwise.
    std::optional<uint64_t> chunkRows() const;
    // Bytes per chunk when `chunk-filesize` decides (written, and rows off); nullopt otherwise.
    std::optional<uint64_t> chunkBytes() const;

    bool operator==(const LoadSections&) const = default;
};

// A mysql-instance's load keys as written: a section inline or by name, and DM's thread aliases, which
// win over the section's threads / pool-size.
struct InstanceLoadRefs {
    std::string mydumperConfigName;
    std::optional<MydumperSettings> mydumper;
    std::optional<int> mydumperThread;
    std::string loaderConfigName;
    std::optional<LoaderSettings> loader;
    std::optional<int> loaderThread;

    bool empty() const { return *this == InstanceLoadRefs{}; }
    // Throws std::out_of_range for a name that is not defined (the reader has checked them).
    LoadSections resolve(const std::map<std::string, MydumperSettings>& mydumpers,
                         const std::map<std::string, LoaderSettings>& loaders) const;

    bool operator==(const InstanceLoadRefs&) const = default;
};

// Readers: every key of the mapping is used, refused (an error naming the key and why) or accepted
// with a warning that says why it changes nothing here.
MydumperSettings readMydumperSettings(ConfigReader& reader, const YAML::Node& node, const std::string& path);
LoaderSettings readLoaderSettings(ConfigReader& reader, const YAML::Node& node, const std::string& path);

// The load keys of the mysql-instance at `path`; names are checked against the sections and recorded
// in `usedMydumpers` / `usedLoaders`. `loads`: the task-mode has a load (all, full); otherwise the keys
// are accepted with a warning that nothing uses them.
InstanceLoadRefs readInstanceLoadRefs(ConfigReader& reader, const YAML::Node& node, const std::string& path,
                                      const std::map<std::string, MydumperSettings>& mydumpers,
                                      const std::map<std::string, LoaderSettings>& loaders, bool loads,
                                      std::set<std::string>& usedMydumpers, std::set<std::string>& usedLoaders);

// Writers: the section's written keys inside an open map; an instance's load keys inside its map.
void writeMydumperSettings(YAML::Emitter& out, const MydumperSettings& settings);
void writeLoaderSettings(YAML::Emitter& out, const LoaderSettings& settings);
void writeInstanceLoadRefs(YAML::Emitter& out, const InstanceLoadRefs& refs);

}  // namespace syncscope::config
