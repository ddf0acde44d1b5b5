#include "engine/config/load_config.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <sstream>
#include <vector>

namespace syncscope::config {

namespace {

constexpr int64_t kMaxLoadThreads = 256;
constexpr int64_t kMaxChunkRows = 1'000'000'000'000;
constexpr uint64_t kMaxChunkFilesizeMb = 1024 * 1024;  // 1 TiB: a typo past this is not a chunk size
constexpr uint64_t kBytesPerMegabyte = 1024 * 1024;
// A statement can never pass MariaDB's largest max_allowed_packet (1 GiB).
constexpr int64_t kMaxStatementSize = 1024LL * 1024 * 1024;

const std::vector<std::string_view> kMydumperKeys = {"threads", "rows",        "chunk-filesize", "statement-size",
                                                     "where",   "skip-tz-utc", "mydumper-path",  "extra-args"};

// Keys of DM's physical import (TiDB Lightning's local backend, SST files ingested into TiKV).
const std::vector<std::string_view> kPhysicalImportKeys = {"sorting-dir-physical",
                                                           "on-duplicate-physical",
                                                           "disk-quota-physical",
                                                           "checksum-physical",
                                                           "analyze",
                                                           "range-concurrency",
                                                           "compress-kv-pairs",
                                                           "pd-addr"};

// mydumper arguments that choose which tables or rows are dumped: ignoring them would copy rows the
// DBA meant to leave out, so they are refused (block-allow-list chooses the tables here).
const std::vector<std::string_view> kRowChoosingArguments = {
    "-T", "--tables-list", "-B", "--database", "-x", "--regex", "-w", "--where", "-O", "--omit-from-file"};

constexpr const char* kWhyNoMydumper =
    "SyncScope reads the upstream itself (each load worker streams a chunk from its snapshot into the target); "
    "it runs no mydumper";

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

// DM writes chunk-filesize as text ("64") as mydumper's -F takes it: megabytes.
uint64_t readMegabytes(ConfigReader& reader, const YAML::Node& node, const std::string& key) {
    const std::string text = reader.readNonEmptyString(node, key);
    uint64_t value = 0;
    const auto [stop, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || stop != text.data() + text.size() || value > kMaxChunkFilesizeMb) {
        reader.fail(node, key,
                    "needs a whole number of megabytes (mydumper's -F), such as \"64\", at most " +
                        std::to_string(kMaxChunkFilesizeMb) + "; not '" + text + "'");
    }
    return value;
}

void readExtraArgs(ConfigReader& reader, const YAML::Node& node, const std::string& key) {
    const std::string text = reader.readString(node, key);
    if (text.empty()) {
        return;
    }
    std::istringstream words(text);
    std::string word;
    while (words >> word) {
        for (std::string_view argument : kRowChoosingArguments) {
            bool same = word == argument;
            bool withValue = argument.starts_with("--") && word.starts_with(std::string(argument) + "=");
            bool glued = !argument.starts_with("--") && word.size() > argument.size() && word.starts_with(argument);
            if (same || withValue || glued) {
                reader.fail(node, key,
                            "'" + word + "' chooses which tables or rows mydumper dumps, and " + kWhyNoMydumper +
                                ": the load would copy what it leaves out. Choose the tables with block-allow-list "
                                "and remove it");
            }
        }
    }
    reader.warn(node, key,
                std::string("ignored ('") + text + "'): " + kWhyNoMydumper +
                    "; the load's own keys are threads, rows, chunk-filesize and statement-size");
}

}  // namespace

int LoadSections::workers() const {
    return std::min(mydumper.effectiveThreads(), loader.effectivePoolSize());
}

std::optional<uint64_t> LoadSections::chunkRows() const {
    if (mydumper.rows && *mydumper.rows > 0) {
        return mydumper.rows;
    }
    return std::nullopt;
}

std::optional<uint64_t> LoadSections::chunkBytes() const {
    if (chunkRows() || !mydumper.chunkFilesizeMb || *mydumper.chunkFilesizeMb == 0) {
        return std::nullopt;
    }
    return *mydumper.chunkFilesizeMb * kBytesPerMegabyte;
}

LoadSections InstanceLoadRefs::resolve(const std::map<std::string, MydumperSettings>& mydumpers,
                                       const std::map<std::string, LoaderSettings>& loaders) const {
    LoadSections sections;
    if (mydumper) {
        sections.mydumper = *mydumper;
    } else if (!mydumperConfigName.empty()) {
        sections.mydumper = mydumpers.at(mydumperConfigName);
    }
    if (mydumperThread) {
        sections.mydumper.threads = mydumperThread;
    }
    if (loader) {
        sections.loader = *loader;
    } else if (!loaderConfigName.empty()) {
        sections.loader = loaders.at(loaderConfigName);
    }
    if (loaderThread) {
        sections.loader.poolSize = loaderThread;
    }
    return sections;
}

MydumperSettings readMydumperSettings(ConfigReader& reader, const YAML::Node& node, const std::string& path) {
    MydumperSettings settings;
    if (node.IsNull()) {
        return settings;
    }
    reader.checkKeys(node, path, kMydumperKeys, {}, "");
    const auto key = [&](std::string_view k) { return ConfigReader::join(path, k); };
    if (auto value = ConfigReader::child(node, "where"); value.IsDefined()) {
        reader.fail(value, key("where"),
                    "copying only the rows that match is not supported: the binlog then replicates changes of every "
                    "row, and those of rows the target never got would be lost. This version copies whole tables "
                    "(choose them with block-allow-list)");
    }
    if (auto value = ConfigReader::child(node, "threads"); value.IsDefined()) {
        settings.threads = static_cast<int>(reader.readInteger(value, key("threads"), 1, kMaxLoadThreads));
    }
    if (auto value = ConfigReader::child(node, "rows"); value.IsDefined()) {
        settings.rows = static_cast<uint64_t>(reader.readInteger(value, key("rows"), 0, kMaxChunkRows));
    }
    if (auto value = ConfigReader::child(node, "chunk-filesize"); value.IsDefined()) {
        settings.chunkFilesizeMb = readMegabytes(reader, value, key("chunk-filesize"));
        if (settings.rows && *settings.rows > 0) {
            reader.warn(value, key("chunk-filesize"), "ignored: rows is given, and rows wins (DM's rule)");
        } else if (*settings.chunkFilesizeMb == 0) {
            reader.warn(value, key("chunk-filesize"),
                        "0 (no split by size): tables are still cut into chunks of the load's default row count, "
                        "so that several workers copy one table");
        }
    }
    if (auto value = ConfigReader::child(node, "statement-size"); value.IsDefined()) {
        settings.statementSize =
            static_cast<uint64_t>(reader.readInteger(value, key("statement-size"), 1, kMaxStatementSize));
    }
    if (auto value = ConfigReader::child(node, "skip-tz-utc"); value.IsDefined()) {
        (void)reader.readBool(value, key("skip-tz-utc"));
        reader.warn(value, key("skip-tz-utc"),
                    "ignored: the load reads and writes TIMESTAMP values in UTC on both sides, which is exact "
                    "whatever the servers' time zones");
    }
    if (auto value = ConfigReader::child(node, "mydumper-path"); value.IsDefined()) {
        (void)reader.readString(value, key("mydumper-path"));
        reader.warn(value, key("mydumper-path"), std::string("ignored: ") + kWhyNoMydumper);
    }
    if (auto value = ConfigReader::child(node, "extra-args"); value.IsDefined()) {
        readExtraArgs(reader, value, key("extra-args"));
    }
    return settings;
}

LoaderSettings readLoaderSettings(ConfigReader& reader, const YAML::Node& node, const std::string& path) {
    LoaderSettings settings;
    if (node.IsNull()) {
        return settings;
    }
    std::vector<std::string_view> keys = {"pool-size", "dir", "import-mode", "on-duplicate", "on-duplicate-logical"};
    keys.insert(keys.end(), kPhysicalImportKeys.begin(), kPhysicalImportKeys.end());
    reader.checkKeys(node, path, keys, {}, "");
    const auto key = [&](std::string_view k) { return ConfigReader::join(path, k); };
    if (auto value = ConfigReader::child(node, "import-mode"); value.IsDefined()) {
        std::string mode = lower(reader.readNonEmptyString(value, key("import-mode")));
        if (mode == "physical") {
            reader.fail(value, key("import-mode"),
                        "physical import (TiDB Lightning's SST files ingested into TiKV) has no counterpart on a "
                        "MariaDB or MySQL target; use logical (SQL statements, what this load sends)");
        }
        if (mode != "logical" && mode != "sql" && mode != "loader") {
            reader.fail(value, key("import-mode"), "unknown import-mode '" + mode + "'; use logical");
        }
        settings.importMode = mode;
    }
    if (auto value = ConfigReader::child(node, "pool-size"); value.IsDefined()) {
        settings.poolSize = static_cast<int>(reader.readInteger(value, key("pool-size"), 1, kMaxLoadThreads));
    }
    for (const char* name : {"on-duplicate", "on-duplicate-logical"}) {
        const YAML::Node value = ConfigReader::child(node, name);
        if (!value.IsDefined()) {
            continue;
        }
        std::string rule = lower(reader.readNonEmptyString(value, key(name)));
        if (rule != "error" && rule != "replace" && rule != "ignore") {
            reader.fail(value, key(name),
                        "unknown rule '" + rule +
                            "'; use error (a duplicate stops the load), replace (the upstream's row wins) or ignore "
                            "(the target's row stays)");
        }
        if (!settings.onDuplicate.empty() && settings.onDuplicate != rule) {
            reader.fail(value, key(name),
                        "says " + rule + " but on-duplicate says " + settings.onDuplicate +
                            "; give one (on-duplicate is DM's older name)");
        }
        settings.onDuplicate = rule;
    }
    if (auto value = ConfigReader::child(node, "dir"); value.IsDefined()) {
        (void)reader.readString(value, key("dir"));
        reader.warn(value, key("dir"),
                    "ignored: the load streams rows from the upstream snapshot straight into the target and writes "
                    "no dump files");
    }
    for (std::string_view name : kPhysicalImportKeys) {
        if (auto value = ConfigReader::child(node, name); value.IsDefined()) {
            reader.warn(value, key(name),
                        "ignored: a key of DM's physical import (TiDB Lightning), which a MariaDB or MySQL target "
                        "does not have; this load is logical");
        }
    }
    return settings;
}

InstanceLoadRefs readInstanceLoadRefs(ConfigReader& reader, const YAML::Node& node, const std::string& path,
                                      const std::map<std::string, MydumperSettings>& mydumpers,
                                      const std::map<std::string, LoaderSettings>& loaders, bool loads,
                                      std::set<std::string>& usedMydumpers, std::set<std::string>& usedLoaders) {
    const auto key = [&](std::string_view k) { return ConfigReader::join(path, k); };
    InstanceLoadRefs refs;
    // The same shape twice: a section inline or by name (not both, as DM says), then the thread alias.
    const auto readRefs = [&](const char* inlineKey, const char* nameKey, const char* threadKey, const char* section,
                              auto& inlineTarget, std::string& nameTarget, std::optional<int>& threadTarget,
                              const auto& sections, std::set<std::string>& used, auto readSection) {
        const YAML::Node inlineNode = ConfigReader::child(node, inlineKey);
        const YAML::Node nameNode = ConfigReader::child(node, nameKey);
        if (inlineNode.IsDefined() && nameNode.IsDefined()) {
            reader.fail(nameNode, key(nameKey),
                        std::string("give either ") + inlineKey + " or " + nameKey + ", not both (DM's rule)");
        }
        if (inlineNode.IsDefined()) {
            inlineTarget = readSection(reader, inlineNode, key(inlineKey));
        }
        if (nameNode.IsDefined()) {
            nameTarget = reader.readNonEmptyString(nameNode, key(nameKey));
            if (!sections.contains(nameTarget)) {
                reader.fail(nameNode, key(nameKey),
                            "names " + std::string(inlineKey) + " '" + nameTarget + "', which is not defined under '" +
                                section + "'");
            }
            used.insert(nameTarget);
        }
        if (auto thread = ConfigReader::child(node, threadKey); thread.IsDefined()) {
            threadTarget = static_cast<int>(reader.readInteger(thread, key(threadKey), 1, kMaxLoadThreads));
        }
    };
    readRefs("mydumper", "mydumper-config-name", "mydumper-thread", "mydumpers", refs.mydumper, refs.mydumperConfigName,
             refs.mydumperThread, mydumpers, usedMydumpers, readMydumperSettings);
    readRefs("loader", "loader-config-name", "loader-thread", "loaders", refs.loader, refs.loaderConfigName,
             refs.loaderThread, loaders, usedLoaders, readLoaderSettings);
    if (refs.empty()) {
        return refs;
    }
    if (!loads) {
        reader.warn(node, path,
                    "names mydumper or loader settings, which only a load uses; task-mode incremental has none");
        return refs;
    }
    const LoadSections sections = refs.resolve(mydumpers, loaders);
    const int threads = sections.mydumper.effectiveThreads();
    const int poolSize = sections.loader.effectivePoolSize();
    const bool poolSizeWritten = sections.loader.poolSize.has_value();
    const bool threadsWritten = sections.mydumper.threads.has_value();
    if ((poolSize > threads && poolSizeWritten) || (threads > poolSize && threadsWritten)) {
        reader.warn(node, path,
                    "the load runs " + std::to_string(sections.workers()) +
                        " workers, the smaller of mydumper threads (" + std::to_string(threads) +
                        ") and loader pool-size (" + std::to_string(poolSize) +
                        "): each worker reads a chunk on its own upstream snapshot connection and writes it on its own "
                        "target connection");
    }
    return refs;
}

void writeMydumperSettings(YAML::Emitter& out, const MydumperSettings& settings) {
    if (settings.threads) {
        out << YAML::Key << "threads" << YAML::Value << *settings.threads;
    }
    if (settings.rows) {
        out << YAML::Key << "rows" << YAML::Value << *settings.rows;
    }
    if (settings.chunkFilesizeMb) {
        out << YAML::Key << "chunk-filesize" << YAML::Value << YAML::DoubleQuoted
            << std::to_string(*settings.chunkFilesizeMb);
    }
    if (settings.statementSize) {
        out << YAML::Key << "statement-size" << YAML::Value << *settings.statementSize;
    }
}

void writeLoaderSettings(YAML::Emitter& out, const LoaderSettings& settings) {
    if (settings.poolSize) {
        out << YAML::Key << "pool-size" << YAML::Value << *settings.poolSize;
    }
    if (!settings.importMode.empty()) {
        out << YAML::Key << "import-mode" << YAML::Value << YAML::DoubleQuoted << settings.importMode;
    }
    if (!settings.onDuplicate.empty()) {
        out << YAML::Key << "on-duplicate-logical" << YAML::Value << YAML::DoubleQuoted << settings.onDuplicate;
    }
}

void writeInstanceLoadRefs(YAML::Emitter& out, const InstanceLoadRefs& refs) {
    if (!refs.mydumperConfigName.empty()) {
        out << YAML::Key << "mydumper-config-name" << YAML::Value << YAML::DoubleQuoted << refs.mydumperConfigName;
    }
    if (refs.mydumper) {
        out << YAML::Key << "mydumper" << YAML::Value << YAML::BeginMap;
        writeMydumperSettings(out, *refs.mydumper);
        out << YAML::EndMap;
    }
    if (refs.mydumperThread) {
        out << YAML::Key << "mydumper-thread" << YAML::Value << *refs.mydumperThread;
    }
    if (!refs.loaderConfigName.empty()) {
        out << YAML::Key << "loader-config-name" << YAML::Value << YAML::DoubleQuoted << refs.loaderConfigName;
    }
    if (refs.loader) {
        out << YAML::Key << "loader" << YAML::Value << YAML::BeginMap;
        writeLoaderSettings(out, *refs.loader);
        out << YAML::EndMap;
    }
    if (refs.loaderThread) {
        out << YAML::Key << "loader-thread" << YAML::Value << *refs.loaderThread;
    }
}

}  // namespace syncscope::config
