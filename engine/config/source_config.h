// One upstream server in DM's source-file format (source.yaml): source-id, flavor, enable-gtid, from,
// and source-level event filters. Relay-log, purge and checker keys load with a warning: this engine
// reads the binlog straight from the server and keeps no relay log.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/config/config_database.h"
#include "engine/config/config_error.h"
#include "engine/filter/event_filter_rule.h"

namespace syncscope::config {

struct SourceConfig {
    static constexpr const char* kMysqlFlavor = "mysql";
    static constexpr const char* kMariadbFlavor = "mariadb";

    std::string file;
    std::string sourceId;
    std::string flavor;  // "mysql", "mariadb", or "" to ask the server
    bool enableGtid = false;
    bool caseSensitive = false;
    std::optional<uint32_t> serverId;  // the replica server id to register with; chosen at start when absent
    DatabaseConfig from;
    std::vector<filter::EventFilterRule> filters;  // DM's source-level binlog event filters
    std::vector<std::string> warnings;

    std::string describe() const;
    bool sameSettings(const SourceConfig& other) const;
};

// Throws ConfigError ("FILE:LINE: key 'from.port': ...").
SourceConfig loadSourceConfig(const std::string& path);
SourceConfig parseSourceConfig(const std::string& yamlText, const std::string& fileName);

std::string toYaml(const SourceConfig& source);

}  // namespace syncscope::config
