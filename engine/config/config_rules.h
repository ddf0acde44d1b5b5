// Readers and writers for the named rules of a task file (block-allow lists, event filters, routes,
// syncer settings), shared by the task and the source loaders. Every pattern and regex is checked
// here, so that a bad one is reported with its line rather than when the task starts.
#pragma once

#include <string>

#include <yaml-cpp/yaml.h>

#include "engine/config/binlog_start.h"
#include "engine/config/config_reader.h"
#include "engine/config/syncer_settings.h"
#include "engine/filter/block_allow_rules.h"
#include "engine/filter/event_filter_rule.h"
#include "engine/filter/route_rule.h"

namespace syncscope::config {

filter::BlockAllowRules readBlockAllowRules(ConfigReader& reader, const YAML::Node& node, const std::string& path);
filter::EventFilterRule readFilterRule(ConfigReader& reader, const YAML::Node& node, const std::string& path,
                                       const std::string& name);
filter::RouteRule readRouteRule(ConfigReader& reader, const YAML::Node& node, const std::string& path,
                                const std::string& name);
// DM's defaults under every key the mapping does not give.
SyncerSettings readSyncerSettings(ConfigReader& reader, const YAML::Node& node, const std::string& path);
BinlogStart readBinlogStart(ConfigReader& reader, const YAML::Node& node, const std::string& path);

// Writers: the rule's keys inside an open map.
void writeBlockAllowRules(YAML::Emitter& out, const filter::BlockAllowRules& rules);
void writeFilterRule(YAML::Emitter& out, const filter::EventFilterRule& rule);
void writeRouteRule(YAML::Emitter& out, const filter::RouteRule& rule);
void writeSyncerSettings(YAML::Emitter& out, const SyncerSettings& syncer);
void writeBinlogStart(YAML::Emitter& out, const BinlogStart& start);

}  // namespace syncscope::config
