#include "tests/engine/control/prometheus_text_parser.h"

#include <cmath>
#include <regex>
#include <set>
#include <sstream>

namespace syncscope::test {

namespace {

const std::regex kMetricName("[a-zA-Z_:][a-zA-Z0-9_:]*");
const std::regex kLabelName("[a-zA-Z_][a-zA-Z0-9_]*");
const std::set<std::string> kTypes{"counter", "gauge", "histogram", "summary", "untyped"};

struct LineError {
    std::string message;
};

// The family a sample belongs to (histogram and summary suffixes are not used by SyncScope).
std::string familyOf(const std::string& name) {
    return name;
}

bool parseFloat(const std::string& text, double& value) {
    if (text == "NaN") {
        value = std::nan("");
        return true;
    }
    if (text == "+Inf" || text == "Inf") {
        value = HUGE_VAL;
        return true;
    }
    if (text == "-Inf") {
        value = -HUGE_VAL;
        return true;
    }
    static const std::regex kFloat("[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?");
    if (!std::regex_match(text, kFloat)) {
        return false;
    }
    value = std::stod(text);
    return true;
}

// Parses `name{a="x",b="y"} value [timestamp]`.
PrometheusSample parseSample(const std::string& line) {
    PrometheusSample sample;
    size_t i = 0;
    while (i < line.size() && line[i] != '{' && line[i] != ' ') {
        ++i;
    }
    sample.name = line.substr(0, i);
    if (!std::regex_match(sample.name, kMetricName)) {
        throw LineError{"bad metric name '" + sample.name + "'"};
    }
    if (i < line.size() && line[i] == '{') {
        ++i;
        while (true) {
            if (i < line.size() && line[i] == '}') {
                ++i;
                break;
            }
            size_t eq = line.find('=', i);
            if (eq == std::string::npos) {
                throw LineError{"label without '='"};
            }
            std::string labelName = line.substr(i, eq - i);
            if (!std::regex_match(labelName, kLabelName) || labelName.starts_with("__")) {
                throw LineError{"bad label name '" + labelName + "'"};
            }
            i = eq + 1;
            if (i >= line.size() || line[i] != '"') {
                throw LineError{"label value of '" + labelName + "' is not quoted"};
            }
            ++i;
            std::string value;
            bool closed = false;
            while (i < line.size()) {
                char c = line[i++];
                if (c == '\\') {
                    if (i >= line.size()) {
                        throw LineError{"dangling backslash in a label value"};
                    }
                    char escaped = line[i++];
                    if (escaped == 'n') {
                        value += '\n';
                    } else if (escaped == '\\' || escaped == '"') {
                        value += escaped;
                    } else {
                        throw LineError{std::string("bad escape \\") + escaped + " in a label value"};
                    }
                } else if (c == '"') {
                    closed = true;
                    break;
                } else {
                    value += c;
                }
            }
            if (!closed) {
                throw LineError{"unterminated label value of '" + labelName + "'"};
            }
            if (!sample.labels.emplace(labelName, value).second) {
                throw LineError{"label '" + labelName + "' given twice"};
            }
            if (i < line.size() && line[i] == ',') {
                ++i;
            } else if (i >= line.size() || line[i] != '}') {
                throw LineError{"expected ',' or '}' after a label"};
            }
        }
    }
    if (i >= line.size() || line[i] != ' ') {
        throw LineError{"expected one space before the value"};
    }
    std::string rest = line.substr(i + 1);
    std::istringstream fields(rest);
    std::string valueText;
    std::string timestamp;
    std::string extra;
    fields >> valueText >> timestamp >> extra;
    if (!extra.empty()) {
        throw LineError{"more than a value and a timestamp"};
    }
    if (!parseFloat(valueText, sample.value)) {
        throw LineError{"value '" + valueText + "' is not a float"};
    }
    if (!timestamp.empty() && !std::regex_match(timestamp, std::regex("-?[0-9]+"))) {
        throw LineError{"timestamp '" + timestamp + "' is not an integer"};
    }
    return sample;
}

}  // namespace

std::optional<double> PrometheusPage::value(const std::string& name,
                                            const std::map<std::string, std::string>& labels) const {
    std::optional<double> found;
    for (const auto& sample : samples) {
        if (sample.name != name) {
            continue;
        }
        bool matches = true;
        for (const auto& [key, wanted] : labels) {
            auto it = sample.labels.find(key);
            matches = matches && it != sample.labels.end() && it->second == wanted;
        }
        if (matches) {
            if (found) {
                return std::nullopt;  // ambiguous
            }
            found = sample.value;
        }
    }
    return found;
}

size_t PrometheusPage::count(const std::string& name) const {
    size_t n = 0;
    for (const auto& sample : samples) {
        n += sample.name == name ? 1 : 0;
    }
    return n;
}

PrometheusPage parsePrometheusText(const std::string& text) {
    PrometheusPage page;
    if (!text.empty() && text.back() != '\n') {
        page.error = "the page does not end with a line feed";
        return page;
    }
    std::set<std::string> helpSeen;
    std::set<std::string> typeSeen;
    std::set<std::string> familiesWithSamples;
    std::set<std::string> series;
    std::string currentFamily;
    std::istringstream lines(text);
    std::string line;
    int number = 0;
    try {
        while (std::getline(lines, line)) {
            ++number;
            if (line.empty()) {
                throw LineError{"empty line"};
            }
            if (line.starts_with("# HELP ") || line.starts_with("# TYPE ")) {
                bool isHelp = line[2] == 'H';
                std::string rest = line.substr(std::string("# HELP ").size());
                size_t space = rest.find(' ');
                std::string name = rest.substr(0, space);
                std::string payload = space == std::string::npos ? std::string() : rest.substr(space + 1);
                if (!std::regex_match(name, kMetricName)) {
                    throw LineError{"bad metric name '" + name + "' in a comment"};
                }
                if (familiesWithSamples.count(name) != 0) {
                    throw LineError{std::string(isHelp ? "HELP" : "TYPE") + " of " + name + " after its samples"};
                }
                auto& seen = isHelp ? helpSeen : typeSeen;
                if (!seen.insert(name).second) {
                    throw LineError{std::string(isHelp ? "HELP" : "TYPE") + " of " + name + " given twice"};
                }
                if (isHelp) {
                    if (payload.empty()) {
                        throw LineError{"HELP of " + name + " is empty"};
                    }
                    page.families[name].help = payload;
                } else {
                    if (kTypes.count(payload) == 0) {
                        throw LineError{"unknown TYPE '" + payload + "' of " + name};
                    }
                    page.families[name].type = payload;
                }
                currentFamily = name;
                continue;
            }
            if (line[0] == '#') {
                continue;  // a plain comment
            }
            PrometheusSample sample = parseSample(line);
            std::string family = familyOf(sample.name);
            if (helpSeen.count(family) == 0 || typeSeen.count(family) == 0) {
                throw LineError{"sample of " + family + " without HELP and TYPE before it"};
            }
            if (family != currentFamily) {
                throw LineError{"samples of " + family + " are not contiguous"};
            }
            if (page.families[family].type == "counter" && (sample.value < 0 || std::isnan(sample.value))) {
                throw LineError{"counter " + family + " is negative or NaN"};
            }
            std::string key = sample.name;
            for (const auto& [labelName, value] : sample.labels) {
                key += "\x1f" + labelName + "=" + value;
            }
            if (!series.insert(key).second) {
                throw LineError{"series repeated: " + line};
            }
            familiesWithSamples.insert(family);
            page.samples.push_back(std::move(sample));
        }
    } catch (const LineError& e) {
        page.error = "line " + std::to_string(number) + ": " + e.message + ": " + line;
    }
    return page;
}

}  // namespace syncscope::test
