#include "tests/support/multi_source_files.h"

#include <fstream>
#include <set>

namespace syncscope::test {

std::string writeSourceFile(const std::string& dir, const std::string& sourceId, const ServerSettings& upstream) {
    const std::string path = dir + "/" + sourceId + ".yaml";
    std::ofstream source(path);
    source << "source-id: \"" << sourceId << "\"\nflavor: mariadb\nenable-gtid: false\n"
           << "from: {host: \"" << upstream.host << "\", port: " << upstream.port << ", user: \"" << upstream.user
           << "\", password: \"" << upstream.password << "\"}\n";
    return path;
}

std::string writeMultiSourceTaskFile(const std::string& dir, const std::string& name, const ServerSettings& target,
                                     const std::vector<InstanceOfTask>& instances, const std::string& instanceExtra,
                                     const std::string& topLevel) {
    const std::string path = dir + "/" + name + ".yaml";
    std::ofstream task(path);
    task << "name: " << name << "\ntask-mode: incremental\n"
         << "target-database: {host: \"" << target.host << "\", port: " << target.port << ", user: \"" << target.user
         << "\", password: \"" << target.password << "\"}\nmysql-instances:\n";
    for (const InstanceOfTask& instance : instances) {
        task << "  - source-id: \"" << instance.sourceId << "\"\n"
             << "    meta: {binlog-name: \"" << instance.binlogName << "\", binlog-pos: " << instance.binlogPos << "}\n"
             << "    block-allow-list: \"only-" << instance.database << "\"\n"
             << "    syncer: {checkpoint-flush-interval: 1, worker-count: 2}\n"
             << instanceExtra;
    }
    task << "block-allow-list:\n";
    std::set<std::string> databases;
    for (const InstanceOfTask& instance : instances) {
        if (databases.insert(instance.database).second) {
            task << "  only-" << instance.database << ": {do-dbs: [\"" << instance.database << "\"]}\n";
        }
    }
    task << topLevel;
    return path;
}

}  // namespace syncscope::test
