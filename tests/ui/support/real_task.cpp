#include "tests/ui/support/real_task.h"

#include <spdlog/spdlog.h>

#include "engine/task/task_setup_builder.h"
#include "tests/support/test_env.h"

namespace syncscope::test {

namespace {

syncscope::ServerSettings settingsOf(const ServerSettings& server) {
    syncscope::ServerSettings settings;
    settings.host = server.host;
    settings.port = server.port;
    settings.user = server.user;
    settings.password = server.password;
    return settings;
}

}  // namespace

std::unique_ptr<source::UpstreamConnection> connectUpstream() {
    return std::make_unique<source::UpstreamConnection>(settingsOf(upstreamRoot()));
}

std::unique_ptr<source::UpstreamConnection> connectDownstream() {
    return std::make_unique<source::UpstreamConnection>(settingsOf(downstreamRoot()));
}

std::string valueOf(source::UpstreamConnection& connection, const std::string& sql) {
    try {
        return connection.queryValue(sql).value_or("NULL");
    } catch (const std::exception& e) {
        return std::string("ERROR: ") + e.what();
    }
}

std::pair<std::string, uint64_t> masterPosition(source::UpstreamConnection& upstream) {
    auto rows = upstream.query("SHOW MASTER STATUS");
    if (rows.empty() || !rows.front()[0] || !rows.front()[1]) {
        throw std::runtime_error("SHOW MASTER STATUS on the test upstream returned no row: is log-bin on?");
    }
    return {*rows.front()[0], std::stoull(*rows.front()[1])};
}

std::shared_ptr<task::Task> openRealTask(const std::string& taskPath, const std::string& sourcePath,
                                         const std::string& auditPath) {
    config::TaskConfig taskConfig = config::loadTaskConfig(taskPath);
    config::SourceConfig sourceConfig = config::loadSourceConfig(sourcePath);
    std::vector<std::string> warnings;
    task::TaskSetup setup = task::makeTaskSetup(taskConfig, sourceConfig, warnings);
    for (const std::string& warning : warnings) {
        spdlog::warn("{}", warning);
    }
    setup.auditLogPath = auditPath;
    return std::make_shared<task::Task>(std::move(setup));
}

}  // namespace syncscope::test
