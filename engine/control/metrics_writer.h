// Writes the Prometheus text exposition format (version 0.0.4): one HELP and one TYPE line per
// family, then its samples; label values escaped, numbers in a form Prometheus parses.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace syncscope::control {

using MetricLabels = std::vector<std::pair<std::string, std::string>>;

class MetricsWriter {
public:
    // Starts a family; type is "gauge" or "counter". Names must match [a-zA-Z_:][a-zA-Z0-9_:]*.
    void family(const std::string& name, const char* type, const std::string& help);
    // A sample of the current family.
    void sample(double value, const MetricLabels& labels = {});
    void sample(uint64_t value, const MetricLabels& labels = {});

    const std::string& text() const { return text_; }

    // Prometheus label-value escaping: backslash, double quote and line feed.
    static std::string escapeLabelValue(const std::string& value);
    // Shortest text that parses back to the same double; NaN and +Inf/-Inf as Prometheus spells them.
    static std::string formatValue(double value);

private:
    void writeSample(const std::string& value, const MetricLabels& labels);

    std::string text_;
    std::string family_;
};

}  // namespace syncscope::control
