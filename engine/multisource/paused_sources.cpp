#include "engine/multisource/paused_sources.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/multisource/multi_source_plan.h"

namespace syncscope::multisource {

namespace {

constexpr int kJsonIndent = 2;

std::string utcNow() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &utc);
    return text;
}

}  // namespace

PausedSources::PausedSources(std::string file) : file_(std::move(file)) {
    if (file_.empty() || !std::filesystem::exists(file_)) {
        return;
    }
    std::ifstream in(file_);
    std::stringstream text;
    text << in.rdbuf();
    const nlohmann::json saved = nlohmann::json::parse(text.str(), nullptr, false);
    if (!in || !saved.is_object() || !saved.contains("paused") || !saved["paused"].is_array()) {
        throw MultiSourceError("the paused sources file " + file_ +
                               " cannot be read as {\"paused\": [{\"source_id\": ..., \"since\": ...}]}: fix or "
                               "remove it (a removed file starts every source); nothing was started");
    }
    for (const nlohmann::json& entry : saved["paused"]) {
        if (!entry.is_object() || !entry.contains("source_id") || !entry["source_id"].is_string()) {
            throw MultiSourceError("the paused sources file " + file_ + " has an entry without a source_id: " +
                                   entry.dump() + "; fix or remove it; nothing was started");
        }
        since_[entry["source_id"].get<std::string>()] = entry.value("since", std::string());
    }
}

bool PausedSources::isPaused(const std::string& sourceId) const {
    std::lock_guard lock(mutex_);
    return since_.count(sourceId) > 0;
}

std::string PausedSources::pausedSince(const std::string& sourceId) const {
    std::lock_guard lock(mutex_);
    auto found = since_.find(sourceId);
    return found == since_.end() ? std::string() : found->second;
}

void PausedSources::remember(const std::string& sourceId) {
    std::lock_guard lock(mutex_);
    if (since_.count(sourceId)) {
        return;
    }
    since_[sourceId] = utcNow();
    save();
}

void PausedSources::forget(const std::string& sourceId) {
    std::lock_guard lock(mutex_);
    if (since_.erase(sourceId) > 0) {
        save();
    }
}

void PausedSources::save() const {
    if (file_.empty()) {
        return;
    }
    nlohmann::json saved{{"paused", nlohmann::json::array()}};
    for (const auto& [sourceId, since] : since_) {
        saved["paused"].push_back({{"source_id", sourceId}, {"since", since}});
    }
    const std::string temporary = file_ + ".new";
    std::error_code error;
    std::filesystem::create_directories(std::filesystem::path(file_).parent_path(), error);
    {
        std::ofstream out(temporary, std::ios::trunc);
        out << saved.dump(kJsonIndent) << '\n';
        out.flush();
        if (!out) {
            throw Error("cannot write the paused sources file " + temporary);
        }
    }
    std::filesystem::rename(temporary, file_, error);
    if (error) {
        throw Error("cannot replace the paused sources file " + file_ + ": " + error.message());
    }
}

std::string pausedSourcesFileBeside(const std::string& auditLogPath, const std::string& taskName) {
    if (auditLogPath.empty()) {
        return {};
    }
    const std::filesystem::path folder = std::filesystem::path(auditLogPath).parent_path();
    return (folder / (taskName + "-paused-sources.json")).string();
}

}  // namespace syncscope::multisource
