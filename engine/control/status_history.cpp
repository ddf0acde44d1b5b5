#include "engine/control/status_history.h"

#include <nlohmann/json.hpp>

#include "engine/common/error.h"
#include "engine/control/status_json.h"
#include "engine/control/status_json_reader.h"

namespace syncscope::control {

namespace {

nlohmann::json axisJson(const std::optional<uint64_t>& axis) {
    return axis ? nlohmann::json(*axis) : nlohmann::json(nullptr);
}

std::optional<uint64_t> axisFrom(const nlohmann::json& sample, const char* key, size_t index) {
    if (!sample.contains(key) || sample[key].is_null()) {
        return std::nullopt;
    }
    if (!sample[key].is_number_unsigned()) {
        throw Error("history sample " + std::to_string(index) + ": \"" + key +
                    "\" is not a byte count: " + sample[key].dump());
    }
    return sample[key].get<uint64_t>();
}

double numberFrom(const nlohmann::json& sample, const char* key, size_t index) {
    if (!sample.contains(key) || !sample[key].is_number()) {
        throw Error("history sample " + std::to_string(index) + ": \"" + key + "\" is missing or not a number");
    }
    return sample[key].get<double>();
}

}  // namespace

StatusHistory::StatusHistory(std::chrono::milliseconds window, std::chrono::milliseconds interval)
    : window_(window), interval_(interval) {}

void StatusHistory::record(const std::string& channel, const task::StatusSnapshot& snapshot) {
    std::lock_guard lock(mutex_);
    std::deque<HistoryPoint>& points = channels_[channel];
    if (!points.empty() && snapshot.takenAt - points.back().at < interval_) {
        return;  // also a clock that went back: the next sample comes when it has passed the last one again
    }
    points.push_back({snapshot.takenAt, snapshot.lagSeconds, snapshot.recentRowsPerSecond, snapshot.upstream.axis,
                      snapshot.globalPersisted.axis});
    while (snapshot.takenAt - points.front().at > window_) {
        points.pop_front();
    }
}

std::vector<HistoryPoint> StatusHistory::since(const std::string& channel, task::Clock::time_point since) const {
    std::lock_guard lock(mutex_);
    std::vector<HistoryPoint> found;
    auto points = channels_.find(channel);
    if (points == channels_.end()) {
        return found;
    }
    for (const HistoryPoint& point : points->second) {
        // In milliseconds, as the answer writes `at`: a client that asks since a sample's `at` gets the later ones.
        if (std::chrono::time_point_cast<std::chrono::milliseconds>(point.at) > since) {
            found.push_back(point);
        }
    }
    return found;
}

nlohmann::json historyJson(const std::vector<HistoryPoint>& points) {
    nlohmann::json samples = nlohmann::json::array();
    for (const HistoryPoint& point : points) {
        samples.push_back({{"at", isoTime(point.at)},
                           {"lag_seconds", point.lagSeconds},
                           {"rows_per_second", point.rowsPerSecond},
                           {"upstream_axis_bytes", axisJson(point.upstreamAxis)},
                           {"global_persisted_axis_bytes", axisJson(point.persistedGlobalAxis)}});
    }
    return {{"samples", samples}};
}

std::vector<HistoryPoint> historyFromJson(const nlohmann::json& json) {
    if (!json.is_object() || !json.contains("samples") || !json["samples"].is_array()) {
        throw Error("the history answer has no \"samples\" list");
    }
    std::vector<HistoryPoint> points;
    size_t index = 0;
    for (const nlohmann::json& sample : json["samples"]) {
        if (!sample.is_object() || !sample.contains("at") || !sample["at"].is_string()) {
            throw Error("history sample " + std::to_string(index) + " has no \"at\" time");
        }
        std::optional<task::Clock::time_point> at = parseIsoTime(sample["at"].get<std::string>());
        if (!at) {
            throw Error("history sample " + std::to_string(index) +
                        ": \"at\" is not an ISO time: " + sample["at"].dump());
        }
        points.push_back({*at, numberFrom(sample, "lag_seconds", index), numberFrom(sample, "rows_per_second", index),
                          axisFrom(sample, "upstream_axis_bytes", index),
                          axisFrom(sample, "global_persisted_axis_bytes", index)});
        ++index;
    }
    return points;
}

}  // namespace syncscope::control
