#include "ui/dialogs/connection_check.h"

#include "engine/apply/downstream_connection.h"
#include "engine/source/upstream_connection.h"
#include "engine/source/upstream_settings_check.h"

namespace syncscope::ui {

namespace {

const char* const kSourceSide = "Source (upstream)";
const char* const kTargetSide = "Target (downstream)";

std::string flavorOf(const std::string& version) {
    return version.find("MariaDB") != std::string::npos ? config::SourceConfig::kMariadbFlavor
                                                        : config::SourceConfig::kMysqlFlavor;
}

SideCheck checkSource(const NewTaskSpec& spec, const std::string& directory) {
    SideCheck check;
    ServerSettings settings = spec.source.server;
    const std::string where = std::string(kSourceSide) + " " + settings.describe();
    try {
        settings.password = spec.source.resolvePassword(directory);
        source::UpstreamConnection upstream(settings);
        const std::string version = upstream.queryValue("SELECT VERSION()").value_or("?");
        const auto problems = source::checkUpstreamSettings(upstream);
        if (!problems.empty()) {
            check.message = where + ": connected (" + version + "), but its binary log will not do: " +
                            source::describeSettingProblems(problems, settings.describe());
            return check;
        }
        const std::string actualFlavor = flavorOf(version);
        if (!spec.flavor.empty() && spec.flavor != actualFlavor) {
            check.message = where + ": connected, but the server is " + version + " (flavor " + actualFlavor +
                            "), not flavor " + spec.flavor;
            return check;
        }
        check.ok = true;
        check.message = where + ": OK, " + version + ", binary log in ROW format";
    } catch (const std::exception& e) {
        // The engine's message names the server already.
        check.message = std::string(kSourceSide) + ": " + e.what();
    }
    return check;
}

SideCheck checkTarget(const NewTaskSpec& spec, const std::string& directory) {
    SideCheck check;
    ServerSettings settings = spec.target.server;
    const std::string where = std::string(kTargetSide) + " " + settings.describe();
    try {
        settings.password = spec.target.resolvePassword(directory);
        const std::string version = apply::downstreamServerVersion(settings);
        check.ok = true;
        check.message = where + ": OK, " + version;
    } catch (const std::exception& e) {
        check.message = std::string(kTargetSide) + ": " + e.what();
    }
    return check;
}

}  // namespace

ConnectionCheck checkConnections(const NewTaskSpec& spec, const std::string& directory) {
    return {checkSource(spec, directory), checkTarget(spec, directory)};
}

}  // namespace syncscope::ui
