#include "engine/config/config_reader.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <stdexcept>

#include "engine/config/config_duration.h"
#include "engine/config/config_error.h"

namespace syncscope::config {

namespace {

// Deeper than any real task file; only a self-referencing alias gets there.
constexpr int kMaxNesting = 64;
constexpr std::string_view kMergeKey = "<<";

// How far apart two spellings may be for "did you mean" (catches a typo or a swapped dash).
constexpr size_t kSuggestionDistance = 2;

size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::string nodeKind(const YAML::Node& node) {
    switch (node.Type()) {
        case YAML::NodeType::Map:
            return "a mapping";
        case YAML::NodeType::Sequence:
            return "a list";
        case YAML::NodeType::Null:
            return "nothing";
        case YAML::NodeType::Scalar:
            return "'" + node.Scalar() + "'";
        default:
            return "nothing";
    }
}

bool isQuoted(const YAML::Node& node) {
    return node.Tag() == "!";
}

}  // namespace

ConfigReader::ConfigReader(std::string file, std::vector<std::string>& warnings, std::string text)
    : file_(std::move(file)), warnings_(warnings) {
    size_t start = 0;
    while (start < text.size()) {
        const size_t end = text.find('\n', start);
        lines_.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
}

int ConfigReader::lineForKey(const YAML::Node& node, const std::string& key) const {
    const int marked = lineOf(node);
    if (!node.IsDefined() || !node.IsNull() || marked == 0 || lines_.empty())
        return marked;
    // An empty value is marked where the next token starts: walk back to the line that has its key.
    const std::string name = key.substr(key.find_last_of('.') + 1);
    for (int line = std::min<int>(marked, static_cast<int>(lines_.size())); line >= 1; --line) {
        const std::string& text = lines_[line - 1];
        for (const std::string& spelling : {name + ":", "\"" + name + "\":", "'" + name + "':"}) {
            if (text.find(spelling) != std::string::npos)
                return line;
        }
    }
    return marked;
}

int ConfigReader::lineOf(const YAML::Node& node) {
    if (!node.IsDefined())
        return 0;
    const YAML::Mark mark = node.Mark();
    return mark.line < 0 ? 0 : mark.line + 1;
}

YAML::Node ConfigReader::loadRootMap(const std::string& yamlText, const std::string& kind,
                                     const std::string& example) const {
    YAML::Node root;
    try {
        root = YAML::Load(yamlText);
    } catch (const YAML::ParserException& error) {
        fail(error.mark.line + 1, "", "not valid YAML: " + error.msg);
    }
    expandMergeKeys(root);
    if (!root.IsDefined() || root.IsNull()) {
        fail(1, "", "the " + kind + " file is empty");
    }
    if (!root.IsMap()) {
        fail(root, "", "a " + kind + " file is a mapping of keys (" + example + ", ...)");
    }
    return root;
}

void ConfigReader::expandMergeKeys(YAML::Node node, int depth) const {
    if (depth > kMaxNesting)
        fail(node, "", "nested too deeply (an alias that refers to itself?)");
    if (node.IsSequence()) {
        for (auto item : node)
            expandMergeKeys(item, depth + 1);
        return;
    }
    if (!node.IsMap())
        return;
    for (auto item : node)
        expandMergeKeys(item.second, depth + 1);
    YAML::Node merged = child(node, kMergeKey);
    if (!merged.IsDefined())
        return;
    std::vector<YAML::Node> sources;
    if (merged.IsMap())
        sources.push_back(merged);
    if (merged.IsSequence()) {
        for (auto source : merged)
            sources.push_back(source);
    }
    if (sources.empty() || !std::all_of(sources.begin(), sources.end(), [](auto& n) { return n.IsMap(); })) {
        fail(merged, "<<", "a merge key needs a mapping (or a list of mappings), as in <<: *defaults");
    }
    node.remove(std::string(kMergeKey));
    for (const auto& source : sources) {
        for (auto item : source) {
            if (!item.first.IsScalar() || child(node, item.first.Scalar()).IsDefined())
                continue;
            node.force_insert(item.first, item.second);
        }
    }
}

void ConfigReader::fail(const YAML::Node& at, const std::string& key, const std::string& problem) const {
    fail(lineForKey(at, key), key, problem);
}

void ConfigReader::fail(int line, const std::string& key, const std::string& problem) const {
    throw ConfigError(file_, line, key, problem);
}

void ConfigReader::warn(const YAML::Node& at, const std::string& key, const std::string& message) {
    warn(lineForKey(at, key), key, message);
}

void ConfigReader::warn(int line, const std::string& key, const std::string& message) {
    warnings_.push_back(ConfigError::render(file_, line, key, message));
}

std::string ConfigReader::join(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string ConfigReader::indexed(const std::string& path, size_t index) {
    return path + "[" + std::to_string(index) + "]";
}

std::vector<ConfigReader::Entry> ConfigReader::entries(const YAML::Node& map, const std::string& path) const {
    if (!map.IsMap()) {
        fail(map, path, "needs a mapping of keys to values, not " + nodeKind(map));
    }
    std::vector<Entry> list;
    std::set<std::string> seen;
    for (const auto& item : map) {
        if (!item.first.IsScalar())
            fail(item.first, path, "a key must be a plain name");
        const std::string key = item.first.Scalar();
        if (!seen.insert(key).second)
            fail(item.first, join(path, key), "given twice");
        list.push_back({key, item.second, lineOf(item.first)});
    }
    return list;
}

void ConfigReader::checkKeys(const YAML::Node& map, const std::string& path, const std::vector<std::string_view>& used,
                             const std::vector<std::string_view>& unused, const std::string& unusedWhy) {
    for (const auto& entry : entries(map, path)) {
        const std::string key = join(path, entry.key);
        if (std::find(used.begin(), used.end(), entry.key) != used.end())
            continue;
        if (std::find(unused.begin(), unused.end(), entry.key) != unused.end()) {
            warnings_.push_back(ConfigError::render(file_, entry.line, key, unusedWhy));
            continue;
        }
        std::string problem = "unknown key";
        std::string_view best;
        size_t bestDistance = kSuggestionDistance + 1;
        for (const auto* list : {&used, &unused}) {
            for (auto known : *list) {
                const size_t distance = editDistance(entry.key, known);
                if (distance < bestDistance) {
                    bestDistance = distance;
                    best = known;
                }
            }
        }
        if (!best.empty())
            problem += "; did you mean '" + std::string(best) + "'?";
        fail(entry.line, key, problem);
    }
}

YAML::Node ConfigReader::child(const YAML::Node& map, std::string_view key) {
    if (!map.IsMap())
        return YAML::Node(YAML::NodeType::Undefined);
    for (const auto& item : map) {
        if (item.first.IsScalar() && item.first.Scalar() == key)
            return item.second;
    }
    return YAML::Node(YAML::NodeType::Undefined);
}

std::string ConfigReader::scalarText(const YAML::Node& node, const std::string& key, const char* expected) const {
    if (!node.IsScalar())
        fail(node, key, std::string("needs ") + expected + ", not " + nodeKind(node));
    return node.Scalar();
}

std::string ConfigReader::readString(const YAML::Node& node, const std::string& key) const {
    if (node.IsNull())
        return {};
    return scalarText(node, key, "a text value");
}

std::string ConfigReader::readNonEmptyString(const YAML::Node& node, const std::string& key) const {
    std::string text = readString(node, key);
    if (text.empty())
        fail(node, key, "must not be empty");
    return text;
}

int64_t ConfigReader::readInteger(const YAML::Node& node, const std::string& key, int64_t min, int64_t max) const {
    const std::string text = scalarText(node, key, "a whole number");
    int64_t value = 0;
    const char* begin = text.data();
    const char* end = text.data() + text.size();
    if (!text.empty() && text.front() == '+')
        ++begin;
    const auto [stop, error] = std::from_chars(begin, end, value);
    if (isQuoted(node) || error != std::errc() || stop != end || begin == end) {
        fail(node, key, "needs a whole number, not " + nodeKind(node));
    }
    if (value < min || value > max) {
        fail(node, key,
             std::to_string(value) + " is out of range: it must be from " + std::to_string(min) + " to " +
                 std::to_string(max));
    }
    return value;
}

bool ConfigReader::readBool(const YAML::Node& node, const std::string& key) const {
    std::string text = scalarText(node, key, "true or false");
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    if (!isQuoted(node)) {
        // YAML 1.1 spellings, which DM's Go YAML library also accepts.
        if (text == "true" || text == "yes" || text == "on" || text == "y")
            return true;
        if (text == "false" || text == "no" || text == "off" || text == "n")
            return false;
    }
    fail(node, key, "needs true or false, not " + nodeKind(node));
}

std::vector<std::string> ConfigReader::readStringList(const YAML::Node& node, const std::string& key) const {
    std::vector<std::string> list;
    if (node.IsNull())
        return list;
    if (!node.IsSequence())
        fail(node, key, "needs a list, as in [\"a\", \"b\"], not " + nodeKind(node));
    size_t index = 0;
    for (const auto& item : node) {
        list.push_back(scalarText(item, indexed(key, index), "a text value"));
        ++index;
    }
    return list;
}

std::chrono::nanoseconds ConfigReader::readDuration(const YAML::Node& node, const std::string& key) const {
    const std::string text = scalarText(node, key, "a duration such as \"60s\"");
    try {
        return parseGoDuration(text);
    } catch (const std::invalid_argument& error) {
        fail(node, key, error.what());
    }
}

std::map<std::string, std::string> ConfigReader::readStringMap(const YAML::Node& node, const std::string& key) const {
    std::map<std::string, std::string> values;
    if (node.IsNull())
        return values;
    for (const auto& entry : entries(node, key)) {
        values[entry.key] = scalarText(entry.value, join(key, entry.key), "a text value");
    }
    return values;
}

}  // namespace syncscope::config
