#include "tests/integration/differential/engine_driver.h"

#include <filesystem>
#include <fstream>

#include "tests/integration/differential/shard_group.h"

namespace syncscope::differential {

namespace {

constexpr int kFlushIntervalSeconds = 1;
constexpr size_t kStderrTailBytes = 2000;

std::string taskPath(const std::string& dir) {
    return dir + "/fuzz.yaml";
}
std::string sourcePath(const std::string& dir) {
    return dir + "/fuzz-source.yaml";
}

}  // namespace

EngineDriver::EngineDriver(std::string workDir, EngineSettings settings, BinlogPoint start, std::string database)
    : workDir_(std::move(workDir)), settings_(settings), start_(std::move(start)), database_(std::move(database)) {
    std::filesystem::create_directories(workDir_);
}

EngineDriver::~EngineDriver() {
    if (running()) {
        process_->terminate();
    }
}

void EngineDriver::writeFiles() const {
    test::ServerSettings up = test::upstreamReplication();
    test::ServerSettings down = test::downstreamRoot();
    std::ofstream task(taskPath(workDir_));
    task << "name: " << kTaskName << "\n"
         << "task-mode: incremental\n"
         << "meta-schema: dm_meta\n"
         << (settings_.onlineDdl ? "online-ddl: true\n" : "")
         << (!settings_.shardMerge       ? ""
             : settings_.shardOptimistic ? "shard-mode: \"optimistic\"\n"
                                         : "shard-mode: \"pessimistic\"\n")
         << "target-database: {host: \"127.0.0.1\", port: " << down.port << ", user: \"" << down.user
         << "\", password: \"" << down.password << "\"}\n"
         << "mysql-instances:\n"
         << "  - source-id: \"fuzz-upstream\"\n"
         << "    block-allow-list: \"case-only\"\n"
         << "    meta: {binlog-name: \"" << start_.file << "\", binlog-pos: " << start_.pos << ", binlog-gtid: \""
         << start_.gtid << "\"}\n"
         << (settings_.shardMerge ? "    route-rules: [\"shard-merge\"]\n" : "")
         << "    syncer: {worker-count: " << settings_.workerCount << ", batch: " << settings_.batch
         << ", checkpoint-flush-interval: " << kFlushIntervalSeconds
         << ", multiple-rows: " << (settings_.multipleRows ? "true" : "false")
         << ", safe-mode: " << (settings_.safeMode ? "true" : "false") << "}\n"
         << "block-allow-list:\n"
         << "  case-only: {do-dbs: [\"" << database_ << "\"]}\n";
    if (settings_.shardMerge) {
        task << "routes:\n"
             << "  shard-merge: {schema-pattern: \"" << database_ << "\", table-pattern: \"" << kShardTablePattern
             << "\", target-schema: \"" << database_ << "\", target-table: \"" << kShardTarget << "\"}\n";
    }
    std::ofstream source(sourcePath(workDir_));
    source << "source-id: \"fuzz-upstream\"\nflavor: mariadb\nenable-gtid: " << (settings_.gtidMode ? "true" : "false")
           << "\nfrom: {host: \"127.0.0.1\", port: " << up.port << ", user: \"" << up.user << "\", password: \""
           << up.password << "\"}\n";
}

bool EngineDriver::start() {
    if (running()) {
        process_->terminate();
    }
    writeFiles();
    process_ = std::make_unique<test::EngineProcess>(taskPath(workDir_), sourcePath(workDir_), logDir());
    return process_->start();
}

void EngineDriver::kill() {
    if (process_) {
        process_->kill();
    }
}

int EngineDriver::terminate() {
    return process_ ? process_->terminate() : 0;
}

std::string EngineDriver::stderrTail() const {
    if (!process_) {
        return {};
    }
    std::string text = process_->stderrText();
    return text.size() > kStderrTailBytes ? text.substr(text.size() - kStderrTailBytes) : text;
}

}  // namespace syncscope::differential
