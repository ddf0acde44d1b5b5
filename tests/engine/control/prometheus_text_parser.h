// A strict reader of the Prometheus text exposition format (0.0.4) for tests: every line is a HELP, a
// TYPE or a sample; names and labels follow the format's grammar; HELP and TYPE come once per family,
// before its samples; a family's samples are contiguous; values are floats; no series is repeated.
// Any deviation is an error naming the line.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace syncscope::test {

struct PrometheusSample {
    std::string name;
    std::map<std::string, std::string> labels;
    double value = 0;
};

struct PrometheusFamily {
    std::string help;
    std::string type;
};

struct PrometheusPage {
    std::map<std::string, PrometheusFamily> families;
    std::vector<PrometheusSample> samples;
    std::string error;  // empty when the page is valid

    // The value of the one sample with this name whose labels include `labels`; nullopt if none.
    std::optional<double> value(const std::string& name, const std::map<std::string, std::string>& labels = {}) const;
    size_t count(const std::string& name) const;
};

PrometheusPage parsePrometheusText(const std::string& text);

}  // namespace syncscope::test
