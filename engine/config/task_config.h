// A replication task in DM's task-file format (the subset the sync unit needs), loaded with every
// problem reported as "FILE:LINE: key 'a.b.c': what", and resolved per source into the settings the
// engine runs with. Keys DM knows but this version does not act on load with a warning; unknown keys,
// wrong types, dangling rule names and impossible values are errors.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/config/binlog_start.h"
#include "engine/config/config_database.h"
#include "engine/config/config_error.h"
#include "engine/config/load_config.h"
#include "engine/config/syncer_settings.h"
#include "engine/filter/block_allow_list.h"
#include "engine/filter/block_allow_rules.h"
#include "engine/filter/event_filter.h"
#include "engine/filter/event_filter_rule.h"
#include "engine/filter/route_rule.h"
#include "engine/filter/table_router.h"

namespace syncscope::config {

struct SourceConfig;

// One `mysql-instances` entry as written (rule names unresolved).
struct MysqlInstanceConfig {
    std::string sourceId;
    std::optional<BinlogStart> meta;
    std::string blockAllowList;  // rule name; "" for none
    std::vector<std::string> filterRules;
    std::vector<std::string> routeRules;
    std::string syncerConfigName;
    std::optional<SyncerSettings> syncer;  // inline `syncer`, DM's defaults under the keys it gives
    std::optional<int> syncerThread;       // DM's alias that overrides worker-count
    InstanceLoadRefs load;                 // mydumper / loader keys (load_config.h)

    bool operator==(const MysqlInstanceConfig&) const = default;
};

// What the engine runs one source with: the instance's named rules resolved.
struct InstanceSettings {
    std::string taskName;
    std::string sourceId;
    std::optional<BinlogStart> meta;
    filter::BlockAllowRules blockAllow;
    std::vector<filter::EventFilterRule> filters;  // source-level rules first, then the task's, in order
    std::vector<filter::RouteRule> routes;
    SyncerSettings syncer;
    LoadSections load;  // the snapshot load's settings from DM's mydumpers / loaders
    bool caseSensitive = false;

    // The filters built from these rules (the loader has already checked that they build).
    filter::BlockAllowList blockAllowList() const { return {blockAllow, caseSensitive}; }
    filter::EventFilter eventFilter() const { return {filters, caseSensitive}; }
    filter::TableRouter tableRouter() const { return {routes, caseSensitive}; }
};

struct TaskConfig {
    static constexpr const char* kIncrementalMode = "incremental";
    static constexpr const char* kDefaultMetaSchema = "dm_meta";
    static constexpr const char* kPessimisticShardMode = "pessimistic";
    static constexpr const char* kOptimisticShardMode = "optimistic";

    std::string file;  // where it was loaded from, for messages
    std::string name;
    std::string taskMode = kIncrementalMode;
    std::string metaSchema = kDefaultMetaSchema;
    bool caseSensitive = false;
    // online-ddl (or the older online-ddl-scheme "pt"/"gh-ost"): pt-osc and gh-ost changes are followed as
    // DM does (engine/filter/online_ddl_rules.h); the rules as written, anchored; empty: DM's defaults.
    bool onlineDdl = false;
    std::vector<std::string> shadowTableRules;
    std::vector<std::string> trashTableRules;
    // shard-mode: how DDLs of shard tables merged into one downstream table are coordinated
    // (engine/task/shard_ddl_locks.h); "" when tables are not merged.
    std::string shardMode;
    bool strictOptimisticShardMode = false;
    DatabaseConfig targetDatabase;
    std::vector<MysqlInstanceConfig> mysqlInstances;
    std::map<std::string, filter::BlockAllowRules> blockAllowLists;
    std::map<std::string, filter::EventFilterRule> filters;
    std::map<std::string, filter::RouteRule> routes;
    std::map<std::string, SyncerSettings> syncers;
    std::map<std::string, MydumperSettings> mydumpers;
    std::map<std::string, LoaderSettings> loaders;
    // Each "FILE:LINE: key 'x': ..." for a key accepted but not acted on, or a setting that is ignored.
    std::vector<std::string> warnings;

    // Throws ConfigError when the task has no instance with that source-id.
    InstanceSettings instanceFor(const std::string& sourceId) const;
    // The same, for the source a source file describes: its own filters come first, and its
    // enable-gtid is compared with the task's (a mismatch is added to the result's warnings).
    InstanceSettings instanceFor(const SourceConfig& source, std::vector<std::string>* warnings = nullptr) const;

    // A multi-line summary for logs and the GUI; never contains a password.
    std::string describe() const;

    // Equal settings (file and warnings are not compared): what a write-and-reload must preserve.
    bool sameSettings(const TaskConfig& other) const;
};

// Reads and checks a task file. Throws ConfigError; nothing is half-loaded.
TaskConfig loadTaskConfig(const std::string& path);
// The same for text already in memory; fileName is used in messages and to resolve password-file.
TaskConfig parseTaskConfig(const std::string& yamlText, const std::string& fileName);

// A task file in DM's format that loadTaskConfig reads back to the same settings.
std::string toYaml(const TaskConfig& task);

}  // namespace syncscope::config
