#include "engine/config/config_rules.h"

#include <limits>

#include "engine/binlog/mariadb_gtid_position.h"
#include "engine/binlog/mysql_gtid_set.h"
#include "engine/config/config_duration.h"
#include "engine/filter/dm_regex.h"
#include "engine/filter/event_type.h"
#include "engine/filter/name_matcher.h"
#include "engine/filter/name_pattern.h"

namespace syncscope::config {

namespace {

constexpr int64_t kMaxWorkerCount = 1024;
constexpr int64_t kMaxBatch = 100000;
constexpr int64_t kMaxQueueSize = 1 << 20;
constexpr int64_t kMaxFlushIntervalSeconds = 24 * 60 * 60;
constexpr int64_t kMaxBinlogPos = std::numeric_limits<uint32_t>::max();

std::string readPattern(ConfigReader& reader, const YAML::Node& node, const std::string& key, bool required) {
    const std::string pattern = required ? reader.readNonEmptyString(node, key) : reader.readString(node, key);
    if (const std::string problem = filter::NamePattern::problemWith(pattern); !problem.empty()) {
        reader.fail(node, key, problem);
    }
    return pattern;
}

std::string readNameEntry(ConfigReader& reader, const YAML::Node& node, const std::string& key) {
    const std::string entry = reader.readNonEmptyString(node, key);
    if (const std::string problem = filter::NameMatcher::problemWith(entry); !problem.empty()) {
        reader.fail(node, key, problem);
    }
    return entry;
}

std::vector<std::string> readNameList(ConfigReader& reader, const YAML::Node& node, const std::string& key) {
    if (!node.IsNull() && !node.IsSequence())
        reader.fail(node, key, "needs a list of names, as in [\"db1\", \"~^db\"]");
    std::vector<std::string> names;
    if (node.IsNull())
        return names;
    for (size_t i = 0; i < node.size(); ++i)
        names.push_back(readNameEntry(reader, node[i], ConfigReader::indexed(key, i)));
    return names;
}

std::vector<filter::TableName> readTableList(ConfigReader& reader, const YAML::Node& node, const std::string& key) {
    std::vector<filter::TableName> tables;
    if (node.IsNull())
        return tables;
    if (!node.IsSequence()) {
        reader.fail(node, key, "needs a list of {db-name: ..., tbl-name: ...} entries");
    }
    for (size_t i = 0; i < node.size(); ++i) {
        const std::string itemKey = ConfigReader::indexed(key, i);
        const YAML::Node item = node[i];
        reader.checkKeys(item, itemKey, {"db-name", "tbl-name"}, {}, "");
        const YAML::Node db = ConfigReader::child(item, "db-name");
        const YAML::Node table = ConfigReader::child(item, "tbl-name");
        if (!db.IsDefined())
            reader.fail(item, ConfigReader::join(itemKey, "db-name"), "is required");
        if (!table.IsDefined())
            reader.fail(item, ConfigReader::join(itemKey, "tbl-name"), "is required");
        tables.push_back({readNameEntry(reader, db, ConfigReader::join(itemKey, "db-name")),
                          readNameEntry(reader, table, ConfigReader::join(itemKey, "tbl-name"))});
    }
    return tables;
}

void writeStringList(YAML::Emitter& out, const char* key, const std::vector<std::string>& values) {
    if (values.empty())
        return;
    out << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const auto& value : values)
        out << YAML::DoubleQuoted << value;
    out << YAML::EndSeq;
}

void writeTableList(YAML::Emitter& out, const char* key, const std::vector<filter::TableName>& tables) {
    if (tables.empty())
        return;
    out << YAML::Key << key << YAML::Value << YAML::BeginSeq;
    for (const auto& table : tables) {
        out << YAML::Flow << YAML::BeginMap;
        out << YAML::Key << "db-name" << YAML::Value << YAML::DoubleQuoted << table.schema;
        out << YAML::Key << "tbl-name" << YAML::Value << YAML::DoubleQuoted << table.table;
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
}

}  // namespace

filter::BlockAllowRules readBlockAllowRules(ConfigReader& reader, const YAML::Node& node, const std::string& path) {
    reader.checkKeys(node, path, {"do-dbs", "ignore-dbs", "do-tables", "ignore-tables"}, {}, "");
    filter::BlockAllowRules rules;
    const auto key = [&](std::string_view name) { return ConfigReader::join(path, name); };
    if (auto n = ConfigReader::child(node, "do-dbs"); n.IsDefined())
        rules.doDbs = readNameList(reader, n, key("do-dbs"));
    if (auto n = ConfigReader::child(node, "ignore-dbs"); n.IsDefined()) {
        rules.ignoreDbs = readNameList(reader, n, key("ignore-dbs"));
    }
    if (auto n = ConfigReader::child(node, "do-tables"); n.IsDefined()) {
        rules.doTables = readTableList(reader, n, key("do-tables"));
    }
    if (auto n = ConfigReader::child(node, "ignore-tables"); n.IsDefined()) {
        rules.ignoreTables = readTableList(reader, n, key("ignore-tables"));
    }
    return rules;
}

namespace {

// A filter's or route's schema-pattern (required) and table-pattern.
template <typename Rule>
void readTablePatterns(ConfigReader& reader, const YAML::Node& node, const std::string& path, Rule& rule) {
    const auto key = [&](std::string_view k) { return ConfigReader::join(path, k); };
    const YAML::Node schema = ConfigReader::child(node, "schema-pattern");
    if (!schema.IsDefined())
        reader.fail(node, key("schema-pattern"), "is required");
    rule.schemaPattern = readPattern(reader, schema, key("schema-pattern"), true);
    if (auto table = ConfigReader::child(node, "table-pattern"); table.IsDefined()) {
        rule.tablePattern = readPattern(reader, table, key("table-pattern"), false);
    }
}

}  // namespace

filter::EventFilterRule readFilterRule(ConfigReader& reader, const YAML::Node& node, const std::string& path,
                                       const std::string& name) {
    reader.checkKeys(node, path, {"schema-pattern", "table-pattern", "events", "sql-pattern", "action"}, {}, "");
    const auto key = [&](std::string_view k) { return ConfigReader::join(path, k); };
    filter::EventFilterRule rule;
    rule.name = name;
    readTablePatterns(reader, node, path, rule);
    if (auto events = ConfigReader::child(node, "events"); events.IsDefined()) {
        const auto names = reader.readStringList(events, key("events"));
        for (size_t i = 0; i < names.size(); ++i) {
            auto canonical = filter::canonicalEventName(names[i]);
            if (!canonical) {
                reader.fail(events[i], ConfigReader::indexed(key("events"), i),
                            "unknown event '" + names[i] + "'; DM's names are like \"all ddl\", \"all dml\", " +
                                "\"insert\", \"create table\", \"drop table\", \"alter table\"");
            }
            rule.events.push_back(*canonical);
        }
    }
    if (auto patterns = ConfigReader::child(node, "sql-pattern"); patterns.IsDefined()) {
        rule.sqlPatterns = reader.readStringList(patterns, key("sql-pattern"));
        for (size_t i = 0; i < rule.sqlPatterns.size(); ++i) {
            if (const std::string problem = filter::DmRegex::problemWith(rule.sqlPatterns[i]); !problem.empty()) {
                reader.fail(patterns[i], ConfigReader::indexed(key("sql-pattern"), i), problem);
            }
        }
    }
    const YAML::Node action = ConfigReader::child(node, "action");
    if (!action.IsDefined())
        reader.fail(node, key("action"), "is required: Do, Ignore or Error");
    const std::string actionText = reader.readString(action, key("action"));
    const auto parsed = filter::parseFilterAction(actionText);
    if (!parsed)
        reader.fail(action, key("action"), "unknown action '" + actionText + "'; use Do, Ignore or Error");
    rule.action = *parsed;
    return rule;
}

filter::RouteRule readRouteRule(ConfigReader& reader, const YAML::Node& node, const std::string& path,
                                const std::string& name) {
    for (std::string_view extract : {"extract-table", "extract-schema", "extract-source"}) {
        if (auto value = ConfigReader::child(node, extract); value.IsDefined()) {
            reader.fail(value, ConfigReader::join(path, extract),
                        "DM's column extraction changes the rows written; this version does not support it");
        }
    }
    reader.checkKeys(node, path, {"schema-pattern", "table-pattern", "target-schema", "target-table"}, {}, "");
    const auto key = [&](std::string_view k) { return ConfigReader::join(path, k); };
    filter::RouteRule rule;
    rule.name = name;
    readTablePatterns(reader, node, path, rule);
    const YAML::Node targetSchema = ConfigReader::child(node, "target-schema");
    if (!targetSchema.IsDefined())
        reader.fail(node, key("target-schema"), "is required");
    rule.targetSchema = reader.readNonEmptyString(targetSchema, key("target-schema"));
    if (auto table = ConfigReader::child(node, "target-table"); table.IsDefined()) {
        rule.targetTable = reader.readString(table, key("target-table"));
    }
    return rule;
}

SyncerSettings readSyncerSettings(ConfigReader& reader, const YAML::Node& node, const std::string& path) {
    SyncerSettings syncer;
    if (node.IsNull())
        return syncer;
    reader.checkKeys(node, path,
                     {"worker-count", "batch", "queue-size", "checkpoint-flush-interval", "safe-mode",
                      "safe-mode-duration", "multiple-rows", "compact", "enable-gtid"},
                     {"meta-file", "max-retry", "auto-fix-gtid", "disable-detect", "enable-ansi-quotes"},
                     "a DM key that this version accepts and ignores");
    const auto key = [&](std::string_view k) { return ConfigReader::join(path, k); };
    const auto integer = [&](std::string_view k, int64_t min, int64_t max, int& target) {
        if (auto value = ConfigReader::child(node, k); value.IsDefined()) {
            target = static_cast<int>(reader.readInteger(value, key(k), min, max));
        }
    };
    integer("worker-count", 1, kMaxWorkerCount, syncer.workerCount);
    integer("batch", 1, kMaxBatch, syncer.batch);
    // DM reads 0 as "the default" for these two.
    integer("queue-size", 0, kMaxQueueSize, syncer.queueSize);
    if (syncer.queueSize == 0)
        syncer.queueSize = SyncerSettings::kDefaultQueueSize;
    integer("checkpoint-flush-interval", 0, kMaxFlushIntervalSeconds, syncer.checkpointFlushIntervalSeconds);
    if (syncer.checkpointFlushIntervalSeconds == 0) {
        syncer.checkpointFlushIntervalSeconds = SyncerSettings::kDefaultCheckpointFlushIntervalSeconds;
    }
    const auto flag = [&](std::string_view k, bool& target) {
        if (auto value = ConfigReader::child(node, k); value.IsDefined())
            target = reader.readBool(value, key(k));
    };
    flag("safe-mode", syncer.safeMode);
    flag("multiple-rows", syncer.multipleRows);
    flag("compact", syncer.compact);
    if (syncer.compact && !syncer.multipleRows) {
        reader.warn(ConfigReader::child(node, "compact"), key("compact"),
                    "has no effect with multiple-rows: false (one statement per row change)");
    }
    if (auto value = ConfigReader::child(node, "enable-gtid"); value.IsDefined()) {
        syncer.enableGtid = reader.readBool(value, key("enable-gtid"));
        reader.warn(value, key("enable-gtid"),
                    "ignored, as in DM: the source file's enable-gtid decides between GTID and position mode");
    }
    if (auto value = ConfigReader::child(node, "safe-mode-duration"); value.IsDefined()) {
        syncer.safeModeDuration = reader.readDuration(value, key("safe-mode-duration"));
        if (syncer.safeModeDuration.count() < 0)
            reader.fail(value, key("safe-mode-duration"), "must not be negative");
        if (syncer.safeMode && syncer.safeModeDuration.count() == 0) {
            reader.fail(value, key("safe-mode-duration"),
                        "0 contradicts safe-mode: true (DM refuses this too); drop one of them");
        }
    }
    return syncer;
}

BinlogStart readBinlogStart(ConfigReader& reader, const YAML::Node& node, const std::string& path) {
    reader.checkKeys(node, path, {"binlog-name", "binlog-pos", "binlog-gtid"}, {}, "");
    const auto key = [&](std::string_view k) { return ConfigReader::join(path, k); };
    BinlogStart start;
    if (auto value = ConfigReader::child(node, "binlog-name"); value.IsDefined()) {
        start.binlogName = reader.readString(value, key("binlog-name"));
        if (start.binlogName.find('/') != std::string::npos) {
            reader.fail(value, key("binlog-name"), "is a file name like mysql-bin.000003, not a path");
        }
    }
    if (auto value = ConfigReader::child(node, "binlog-pos"); value.IsDefined()) {
        start.binlogPos = static_cast<uint32_t>(
            reader.readInteger(value, key("binlog-pos"), BinlogStart::kFirstEventPosition, kMaxBinlogPos));
    }
    if (auto value = ConfigReader::child(node, "binlog-gtid"); value.IsDefined()) {
        start.binlogGtid = reader.readString(value, key("binlog-gtid"));
        // The flavor is known only with the source file, so either GTID form is accepted here;
        // a MySQL set has "uuid:interval", a MariaDB position "domain-server-sequence".
        try {
            if (start.binlogGtid.find(':') != std::string::npos) {
                (void)binlog::GtidSet::parse(start.binlogGtid);
            } else {
                (void)binlog::GtidPosition::parse(start.binlogGtid);
            }
        } catch (const std::exception& error) {
            reader.fail(value, key("binlog-gtid"), std::string("not a GTID set: ") + error.what());
        }
    }
    if (start.binlogName.empty() && start.binlogGtid.empty()) {
        reader.fail(node, path, "needs binlog-name (with binlog-pos) or binlog-gtid");
    }
    return start;
}

void writeBlockAllowRules(YAML::Emitter& out, const filter::BlockAllowRules& rules) {
    writeStringList(out, "do-dbs", rules.doDbs);
    writeStringList(out, "ignore-dbs", rules.ignoreDbs);
    writeTableList(out, "do-tables", rules.doTables);
    writeTableList(out, "ignore-tables", rules.ignoreTables);
}

void writeFilterRule(YAML::Emitter& out, const filter::EventFilterRule& rule) {
    out << YAML::Key << "schema-pattern" << YAML::Value << YAML::DoubleQuoted << rule.schemaPattern;
    if (!rule.tablePattern.empty()) {
        out << YAML::Key << "table-pattern" << YAML::Value << YAML::DoubleQuoted << rule.tablePattern;
    }
    writeStringList(out, "events", rule.events);
    writeStringList(out, "sql-pattern", rule.sqlPatterns);
    out << YAML::Key << "action" << YAML::Value << std::string(filter::actionName(rule.action));
}

void writeRouteRule(YAML::Emitter& out, const filter::RouteRule& rule) {
    out << YAML::Key << "schema-pattern" << YAML::Value << YAML::DoubleQuoted << rule.schemaPattern;
    if (!rule.tablePattern.empty()) {
        out << YAML::Key << "table-pattern" << YAML::Value << YAML::DoubleQuoted << rule.tablePattern;
    }
    out << YAML::Key << "target-schema" << YAML::Value << YAML::DoubleQuoted << rule.targetSchema;
    if (!rule.targetTable.empty()) {
        out << YAML::Key << "target-table" << YAML::Value << YAML::DoubleQuoted << rule.targetTable;
    }
}

void writeSyncerSettings(YAML::Emitter& out, const SyncerSettings& syncer) {
    out << YAML::Key << "worker-count" << YAML::Value << syncer.workerCount;
    out << YAML::Key << "batch" << YAML::Value << syncer.batch;
    out << YAML::Key << "queue-size" << YAML::Value << syncer.queueSize;
    out << YAML::Key << "checkpoint-flush-interval" << YAML::Value << syncer.checkpointFlushIntervalSeconds;
    out << YAML::Key << "safe-mode" << YAML::Value << syncer.safeMode;
    out << YAML::Key << "safe-mode-duration" << YAML::Value << YAML::DoubleQuoted
        << formatGoDuration(syncer.safeModeDuration);
    out << YAML::Key << "multiple-rows" << YAML::Value << syncer.multipleRows;
    out << YAML::Key << "compact" << YAML::Value << syncer.compact;
    if (syncer.enableGtid)
        out << YAML::Key << "enable-gtid" << YAML::Value << *syncer.enableGtid;
}

void writeBinlogStart(YAML::Emitter& out, const BinlogStart& start) {
    if (!start.binlogName.empty()) {
        out << YAML::Key << "binlog-name" << YAML::Value << YAML::DoubleQuoted << start.binlogName;
        out << YAML::Key << "binlog-pos" << YAML::Value << start.binlogPos;
    }
    if (!start.binlogGtid.empty()) {
        out << YAML::Key << "binlog-gtid" << YAML::Value << YAML::DoubleQuoted << start.binlogGtid;
    }
}

}  // namespace syncscope::config
