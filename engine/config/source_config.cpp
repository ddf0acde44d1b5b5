#include "engine/config/source_config.h"

#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "engine/config/config_rules.h"
#include "engine/filter/event_filter.h"
#include "engine/filter/filter_error.h"

namespace syncscope::config {

namespace {

constexpr size_t kMaxSourceIdLength = 32;  // DM's limit

const std::vector<std::string_view> kSourceKeys = {"source-id",      "flavor",    "enable-gtid", "from",
                                                   "case-sensitive", "server-id", "filters"};
const std::vector<std::string_view> kUnusedSourceKeys = {
    "enable",  "enable-relay", "relay-binlog-name", "relay-binlog-gtid", "relay-dir", "meta-dir", "charset", "purge",
    "checker", "tracer",       "auto-fix-gtid"};

}  // namespace

SourceConfig parseSourceConfig(const std::string& yamlText, const std::string& fileName) {
    SourceConfig source;
    source.file = fileName;
    ConfigReader reader(fileName, source.warnings, yamlText);
    YAML::Node root = reader.loadRootMap(yamlText, "source", "source-id, from");
    reader.checkKeys(root, "", kSourceKeys, kUnusedSourceKeys,
                     "a DM key this version accepts and ignores: it reads the binlog from the server and keeps "
                     "no relay log");

    const YAML::Node sourceId = ConfigReader::child(root, "source-id");
    if (!sourceId.IsDefined())
        reader.fail(root, "source-id", "is required");
    source.sourceId = reader.readNonEmptyString(sourceId, "source-id");
    if (source.sourceId.size() > kMaxSourceIdLength) {
        reader.fail(sourceId, "source-id", "is longer than DM's limit of 32 characters");
    }
    if (auto flavor = ConfigReader::child(root, "flavor"); flavor.IsDefined()) {
        source.flavor = reader.readString(flavor, "flavor");
        if (!source.flavor.empty() && source.flavor != SourceConfig::kMysqlFlavor &&
            source.flavor != SourceConfig::kMariadbFlavor) {
            reader.fail(flavor, "flavor", "unknown flavor '" + source.flavor + "'; use mysql or mariadb");
        }
    }
    if (auto value = ConfigReader::child(root, "enable-gtid"); value.IsDefined()) {
        source.enableGtid = reader.readBool(value, "enable-gtid");
    }
    if (auto value = ConfigReader::child(root, "case-sensitive"); value.IsDefined()) {
        source.caseSensitive = reader.readBool(value, "case-sensitive");
    }
    if (auto value = ConfigReader::child(root, "server-id"); value.IsDefined()) {
        source.serverId =
            static_cast<uint32_t>(reader.readInteger(value, "server-id", 1, std::numeric_limits<uint32_t>::max()));
    }
    const YAML::Node from = ConfigReader::child(root, "from");
    if (!from.IsDefined())
        reader.fail(root, "from", "is required: how to reach the upstream server");
    source.from = readDatabaseConfig(reader, from, "from", std::filesystem::path(fileName).parent_path().string());
    if (!source.from.sessionVariables.empty()) {
        reader.warn(ConfigReader::child(from, "session"), "from.session", "ignored for the upstream connection");
    }

    if (auto filters = ConfigReader::child(root, "filters"); filters.IsDefined() && !filters.IsNull()) {
        if (!filters.IsSequence())
            reader.fail(filters, "filters", "needs a list of filter rules");
        for (size_t i = 0; i < filters.size(); ++i) {
            const std::string path = ConfigReader::indexed("filters", i);
            source.filters.push_back(
                readFilterRule(reader, filters[i], path, "source " + source.sourceId + " filter " + std::to_string(i)));
        }
        try {
            filter::EventFilter check(source.filters, source.caseSensitive);
        } catch (const filter::FilterError& error) {
            reader.fail(filters, "filters", error.what());
        }
    }
    return source;
}

SourceConfig loadSourceConfig(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw ConfigError(path, 0, "", "cannot open the source file");
    std::ostringstream text;
    text << in.rdbuf();
    return parseSourceConfig(text.str(), path);
}

std::string SourceConfig::describe() const {
    return "source " + sourceId + " (" + (flavor.empty() ? "flavor from the server" : flavor) + ", " +
           (enableGtid ? "GTID mode" : "position mode") + ") at " + from.describe() +
           (from.server.password.empty() ? " (no password)" : " (password set)");
}

bool SourceConfig::sameSettings(const SourceConfig& other) const {
    return sourceId == other.sourceId && flavor == other.flavor && enableGtid == other.enableGtid &&
           caseSensitive == other.caseSensitive && serverId == other.serverId && from == other.from &&
           filters == other.filters;
}

std::string toYaml(const SourceConfig& source) {
    YAML::Emitter out;
    out << YAML::BeginMap;
    out << YAML::Key << "source-id" << YAML::Value << YAML::DoubleQuoted << source.sourceId;
    if (!source.flavor.empty())
        out << YAML::Key << "flavor" << YAML::Value << source.flavor;
    out << YAML::Key << "enable-gtid" << YAML::Value << source.enableGtid;
    if (source.caseSensitive)
        out << YAML::Key << "case-sensitive" << YAML::Value << true;
    if (source.serverId)
        out << YAML::Key << "server-id" << YAML::Value << *source.serverId;
    out << YAML::Key << "from" << YAML::Value << YAML::BeginMap;
    writeDatabaseConfig(out, source.from);
    out << YAML::EndMap;
    if (!source.filters.empty()) {
        out << YAML::Key << "filters" << YAML::Value << YAML::BeginSeq;
        for (const auto& rule : source.filters) {
            out << YAML::BeginMap;
            writeFilterRule(out, rule);
            out << YAML::EndMap;
        }
        out << YAML::EndSeq;
    }
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

}  // namespace syncscope::config
