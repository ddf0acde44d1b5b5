#include "engine/multisource/paused_sources.h"

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

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

PausedSources::Pauses PausedSources::merge(const Pauses& inFile, const std::map<std::string, std::string>& inTable,
                                           bool hasTable) {
    Pauses paused;
    for (const auto& [sourceId, pause] : inFile) {
        if (!hasTable || !pause.inDownstream || inTable.count(sourceId)) {
            paused[sourceId] = {pause.since, hasTable && inTable.count(sourceId) > 0};
        }
    }
    for (const auto& [sourceId, since] : inTable) {
        paused.emplace(sourceId, Pause{since, true});  // the file's since is kept when both name it: one pause
    }
    return paused;
}

PausedSources::PausedSources(std::string file, std::shared_ptr<const PausedSourcesTable> table)
    : file_(std::move(file)), table_(std::move(table)) {
    const std::map<std::string, std::string> inTable = table_ ? table_->read() : std::map<std::string, std::string>{};
    takeTable(readFileIfAny(file_), inTable);
}

PausedSources::PausedSources(std::string file, std::shared_ptr<const PausedSourcesTable> table, TableMayBeUnreadable)
    : file_(std::move(file)), table_(std::move(table)) {
    const Pauses inFile = readFileIfAny(file_);  // a file that cannot be read throws: nothing starts on a guess
    std::map<std::string, std::string> inTable;
    try {
        if (table_) {
            inTable = table_->read();
        }
    } catch (const PausedSourcesUnreadable& e) {
        tableProblem_ = e.what();
        tableMayAnswer_ = e.retryable();
        paused_ = inFile;  // as the file has them, whether each reached the table included, until it is read
        return;
    }
    takeTable(inFile, inTable);
}

std::string PausedSources::tableProblem() const {
    std::lock_guard lock(mutex_);
    return tableProblem_;
}

bool PausedSources::tableMayAnswerLater() const {
    std::lock_guard lock(mutex_);
    return !tableProblem_.empty() && tableMayAnswer_;
}

std::string PausedSources::readTable() {
    std::lock_guard writing(writeMutex_);  // no pause or resume is written while the table is taken in
    std::map<std::string, std::string> inTable;
    try {
        inTable = table_ ? table_->read() : std::map<std::string, std::string>{};
    } catch (const PausedSourcesUnreadable& e) {
        std::lock_guard lock(mutex_);
        tableProblem_ = e.what();
        tableMayAnswer_ = e.retryable();
        throw;
    }
    Pauses kept;
    {
        std::lock_guard lock(mutex_);
        kept = paused_;
    }
    std::string told = describeTableRead(kept, inTable);
    takeTable(kept, inTable);
    std::lock_guard lock(mutex_);
    tableProblem_.clear();
    return told;
}

PausedSources::Pauses PausedSources::readFileIfAny(const std::string& file) {
    return file.empty() || !std::filesystem::exists(file) ? Pauses{} : readFile(file);
}

void PausedSources::takeTable(const Pauses& inFile, const std::map<std::string, std::string>& inTable) {
    Pauses paused = merge(inFile, inTable, table_ != nullptr);
    for (const auto& [sourceId, pause] : inFile) {
        if (table_ && pause.inDownstream && !paused.count(sourceId)) {
            spdlog::info("source {}: {} says paused since {}, but {} no longer does: it was resumed from elsewhere",
                         sourceId, file_, pause.since, table_->describe());
        }
    }
    for (auto& [sourceId, pause] : paused) {
        if (table_ && !pause.inDownstream) {
            try {
                table_->remember(sourceId, pause.since);  // a pause the downstream did not get when it was given
                pause.inDownstream = true;
            } catch (const std::exception& e) {
                spdlog::warn("source {} stays paused (named in {}), but: {}", sourceId, file_, e.what());
            }
        }
    }
    bool fileChanged = inFile.size() != paused.size();
    for (const auto& [sourceId, pause] : paused) {
        auto found = inFile.find(sourceId);
        fileChanged = fileChanged || found == inFile.end() || found->second.inDownstream != pause.inDownstream;
    }
    if (fileChanged && (!inFile.empty() || !paused.empty())) {
        try {
            saveFile(paused);
        } catch (const std::exception& e) {
            spdlog::warn("{}", e.what());  // the table holds the truth; the file is its copy
        }
    }
    std::lock_guard lock(mutex_);
    paused_ = std::move(paused);
}

std::string PausedSources::describeTableRead(const Pauses& inFile,
                                             const std::map<std::string, std::string>& inTable) const {
    const std::string table = table_ ? table_->describe() : std::string("the downstream");
    const std::string copy = file_.empty() ? std::string("no copy") : "the copy in " + file_;
    std::vector<std::string> told;
    for (const auto& [sourceId, since] : inTable) {
        told.push_back(
            "source " + sourceId + ": paused since " + since + ", kept in " + table +
            (inFile.count(sourceId) ? " (" + copy + " agrees)" : " (" + copy + " did not name it: the table wins)"));
    }
    for (const auto& [sourceId, pause] : inFile) {
        if (inTable.count(sourceId)) {
            continue;
        }
        told.push_back(pause.inDownstream
                           ? "source " + sourceId + ": not paused: " + copy + " said paused since " + pause.since +
                                 ", but " + table + " no longer does (resumed from elsewhere: the table wins)"
                           : "source " + sourceId + ": paused since " + pause.since + " as " + copy +
                                 " says (given while the downstream could not be written): written to " + table +
                                 " now");
    }
    if (told.empty()) {
        return "no source is paused in " + table + " nor in " + copy;
    }
    std::string text;
    for (const std::string& line : told) {
        text += (text.empty() ? "" : "; ") + line;
    }
    return text;
}

std::map<std::string, std::string> PausedSources::readWithoutWriting(const std::string& file,
                                                                     const PausedSourcesTable* table) {
    const std::map<std::string, std::string> inTable = table ? table->read() : std::map<std::string, std::string>{};
    const Pauses inFile = readFileIfAny(file);
    std::map<std::string, std::string> since;
    for (const auto& [sourceId, pause] : merge(inFile, inTable, table != nullptr)) {
        since[sourceId] = pause.since;
    }
    return since;
}

PausedSources::Pauses PausedSources::readFile(const std::string& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    const nlohmann::json saved = nlohmann::json::parse(text.str(), nullptr, false);
    if (!in || !saved.is_object() || !saved.contains("paused") || !saved["paused"].is_array()) {
        throw MultiSourceError("the paused sources file " + file +
                               " cannot be read as {\"paused\": [{\"source_id\": ..., \"since\": ...}]}: fix or "
                               "remove it (a removed file starts every source the downstream does not name as "
                               "paused); nothing was started");
    }
    Pauses pauses;
    for (const nlohmann::json& entry : saved["paused"]) {
        if (!entry.is_object() || !entry.contains("source_id") || !entry["source_id"].is_string()) {
            throw MultiSourceError("the paused sources file " + file + " has an entry without a source_id: " +
                                   entry.dump() + "; fix or remove it; nothing was started");
        }
        const nlohmann::json inDownstream = entry.value("in_downstream", nlohmann::json(false));
        pauses[entry["source_id"].get<std::string>()] = {entry.value("since", std::string()),
                                                         inDownstream.is_boolean() && inDownstream.get<bool>()};
    }
    return pauses;
}

bool PausedSources::isPaused(const std::string& sourceId) const {
    std::lock_guard lock(mutex_);
    return paused_.count(sourceId) > 0;
}

std::string PausedSources::pausedSince(const std::string& sourceId) const {
    std::lock_guard lock(mutex_);
    auto found = paused_.find(sourceId);
    return found == paused_.end() ? std::string() : found->second.since;
}

void PausedSources::remember(const std::string& sourceId) {
    std::lock_guard writing(writeMutex_);
    Pauses pauses;
    {
        std::lock_guard lock(mutex_);
        if (paused_.count(sourceId)) {
            return;
        }
        paused_[sourceId] = {utcNow(), false};
        pauses = paused_;
    }
    write(sourceId, true, std::move(pauses));
}

void PausedSources::forget(const std::string& sourceId) {
    std::lock_guard writing(writeMutex_);
    Pauses pauses;
    {
        std::lock_guard lock(mutex_);
        if (paused_.erase(sourceId) == 0) {
            return;
        }
        pauses = paused_;
    }
    write(sourceId, false, std::move(pauses));
}

std::string PausedSources::where() const {
    if (table_ && !file_.empty()) {
        return table_->describe() + " and " + file_;
    }
    return table_ ? table_->describe() : file_;
}

void PausedSources::write(const std::string& sourceId, bool paused, Pauses pauses) {
    std::string tableError;
    std::string fileError;
    if (table_) {
        try {
            if (paused) {
                table_->remember(sourceId, pauses.at(sourceId).since);
                pauses[sourceId].inDownstream = true;
                std::lock_guard lock(mutex_);
                if (auto found = paused_.find(sourceId); found != paused_.end()) {
                    found->second.inDownstream = true;
                }
            } else {
                table_->forget(sourceId);
            }
        } catch (const std::exception& e) {
            tableError = e.what();
        }
    }
    try {
        saveFile(pauses);
    } catch (const std::exception& e) {
        fileError = e.what();
    }
    if (tableError.empty() && fileError.empty()) {
        return;
    }
    const bool tableKeepsIt = table_ && tableError.empty();
    const bool fileKeepsIt = !file_.empty() && fileError.empty();
    const std::string problem = tableError.empty()  ? fileError
                                : fileError.empty() ? tableError
                                                    : tableError + "; and " + fileError;
    if (!paused) {
        throw Error(problem + ": a restart " + (tableKeepsIt || fileKeepsIt ? "may" : "would") +
                    " pause this source again");
    }
    if (tableKeepsIt) {
        throw Error(problem + "; the pause is kept in " + table_->describe());
    }
    if (fileKeepsIt) {
        throw Error(problem + "; the pause is kept in " + file_ +
                    " only: a restart with another log folder (or the GUI, or on another machine) would run this "
                    "source");
    }
    throw Error(problem + ": the pause is not remembered, a restart would run this source");
}

void PausedSources::saveFile(const Pauses& pauses) const {
    if (file_.empty()) {
        return;
    }
    nlohmann::json saved{{"paused", nlohmann::json::array()}};
    for (const auto& [sourceId, pause] : pauses) {
        saved["paused"].push_back(
            {{"source_id", sourceId}, {"since", pause.since}, {"in_downstream", pause.inDownstream}});
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
