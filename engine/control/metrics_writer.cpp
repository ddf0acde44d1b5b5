#include "engine/control/metrics_writer.h"

#include <charconv>
#include <cmath>
#include <stdexcept>

namespace syncscope::control {

namespace {

bool isMetricName(const std::string& name) {
    if (name.empty()) {
        return false;
    }
    for (size_t i = 0; i < name.size(); ++i) {
        char c = name[i];
        bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
        bool digit = c >= '0' && c <= '9';
        if (!letter && !(digit && i > 0)) {
            return false;
        }
    }
    return true;
}

// HELP text escapes only backslash and line feed.
std::string escapeHelp(const std::string& help) {
    std::string out;
    for (char c : help) {
        if (c == '\\') {
            out += "\\\\";
        } else if (c == '\n') {
            out += "\\n";
        } else {
            out += c;
        }
    }
    return out;
}

}  // namespace

void MetricsWriter::family(const std::string& name, const char* type, const std::string& help) {
    if (!isMetricName(name)) {
        throw std::invalid_argument("not a Prometheus metric name: '" + name + "'");
    }
    family_ = name;
    text_ += "# HELP " + name + " " + escapeHelp(help) + "\n# TYPE " + name + " " + type + "\n";
}

void MetricsWriter::sample(double value, const MetricLabels& labels) {
    writeSample(formatValue(value), labels);
}

void MetricsWriter::sample(uint64_t value, const MetricLabels& labels) {
    writeSample(std::to_string(value), labels);
}

void MetricsWriter::writeSample(const std::string& value, const MetricLabels& labels) {
    text_ += family_;
    if (!labels.empty()) {
        text_ += '{';
        for (size_t i = 0; i < labels.size(); ++i) {
            text_ += (i == 0 ? "" : ",") + labels[i].first + "=\"" + escapeLabelValue(labels[i].second) + "\"";
        }
        text_ += '}';
    }
    text_ += ' ' + value + '\n';
}

std::string MetricsWriter::escapeLabelValue(const std::string& value) {
    std::string out;
    for (char c : value) {
        if (c == '\\') {
            out += "\\\\";
        } else if (c == '"') {
            out += "\\\"";
        } else if (c == '\n') {
            out += "\\n";
        } else {
            out += c;
        }
    }
    return out;
}

std::string MetricsWriter::formatValue(double value) {
    if (std::isnan(value)) {
        return "NaN";
    }
    if (std::isinf(value)) {
        return value > 0 ? "+Inf" : "-Inf";
    }
    constexpr size_t kShortestDoubleChars = 32;
    char buffer[kShortestDoubleChars];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return ec == std::errc() ? std::string(buffer, end) : std::string("NaN");
}

}  // namespace syncscope::control
