// Reads typed values out of a parsed YAML task or source file, so that every problem becomes one
// ConfigError naming the file, the line and the key path ("mysql-instances[0].syncer.batch"), and
// every accepted-but-unused DM key becomes one warning in the same form.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace syncscope::config {

class ConfigReader {
public:
    // text: the file's YAML, used to find the line of a key whose value is empty (yaml-cpp marks an
    // empty value at the next token, which may be lines further down).
    ConfigReader(std::string file, std::vector<std::string>& warnings, std::string text = {});

    const std::string& file() const { return file_; }

    // Applies YAML merge keys (`<<: *anchor`), which DM's YAML library honours and yaml-cpp does not:
    // keys written in the mapping win over merged ones. Fails on aliases nested past any sane depth.
    void expandMergeKeys(YAML::Node node, int depth = 0) const;

    // The file's top-level mapping: parsed, merge keys expanded; an empty file or one that is not a
    // mapping fails with `kind` ("task", "source") and `example` keys in the message.
    YAML::Node loadRootMap(const std::string& yamlText, const std::string& kind, const std::string& example) const;

    // 1-based line of a node (0 when yaml-cpp has no mark for it).
    static int lineOf(const YAML::Node& node);

    [[noreturn]] void fail(const YAML::Node& at, const std::string& key, const std::string& problem) const;
    [[noreturn]] void fail(int line, const std::string& key, const std::string& problem) const;
    void warn(const YAML::Node& at, const std::string& key, const std::string& message);
    void warn(int line, const std::string& key, const std::string& message);

    // The entries of a mapping, in file order, with the line of each key. Fails on a node that is not a
    // mapping and on a key given twice.
    struct Entry {
        std::string key;
        YAML::Node value;
        int line;
    };
    std::vector<Entry> entries(const YAML::Node& map, const std::string& path) const;

    // Checks the keys of a mapping: `used` keys pass, `unused` keys (DM keys this version does not
    // act on) pass with a warning, anything else fails as unknown (suggesting a near spelling).
    void checkKeys(const YAML::Node& map, const std::string& path, const std::vector<std::string_view>& used,
                   const std::vector<std::string_view>& unused, const std::string& unusedWhy);

    // A child of a mapping, or an undefined node when absent.
    static YAML::Node child(const YAML::Node& map, std::string_view key);

    std::string readString(const YAML::Node& node, const std::string& key) const;
    std::string readNonEmptyString(const YAML::Node& node, const std::string& key) const;
    int64_t readInteger(const YAML::Node& node, const std::string& key, int64_t min, int64_t max) const;
    bool readBool(const YAML::Node& node, const std::string& key) const;
    std::vector<std::string> readStringList(const YAML::Node& node, const std::string& key) const;
    std::chrono::nanoseconds readDuration(const YAML::Node& node, const std::string& key) const;
    std::map<std::string, std::string> readStringMap(const YAML::Node& node, const std::string& key) const;

    static std::string join(const std::string& path, std::string_view key);
    static std::string indexed(const std::string& path, size_t index);

private:
    int lineForKey(const YAML::Node& node, const std::string& key) const;
    std::string scalarText(const YAML::Node& node, const std::string& key, const char* expected) const;

    std::string file_;
    std::vector<std::string>& warnings_;
    std::vector<std::string> lines_;
};

}  // namespace syncscope::config
