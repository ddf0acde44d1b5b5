#include "engine/task/apply_pool_settings.h"

#include <cctype>

namespace syncscope::task {

bool foreignKeyChecksOn(const std::map<std::string, std::string>& session) {
    bool on = false;  // the workers' default (as in DM)
    for (const auto& [name, value] : session) {
        std::string lower;
        for (char c : name + "=" + value) {
            lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
        }
        if (lower.rfind("foreign_key_checks=", 0) == 0) {
            std::string setting = lower.substr(lower.find('=') + 1);
            on = setting == "1" || setting == "on" || setting == "true";
        }
    }
    return on;
}

apply::WorkerPoolSettings applyPoolSettings(const TaskSetup& setup) {
    apply::WorkerPoolSettings pool;
    pool.downstream = setup.downstream;
    pool.workerCount = static_cast<size_t>(setup.syncer.workerCount);
    pool.worker.batch = static_cast<size_t>(setup.syncer.batch);
    // DM's queue-size: the changes each worker's queue holds (the pool's byte budget bounds them too).
    pool.worker.queueCapacity = static_cast<size_t>(setup.syncer.queueSize);
    pool.adaptiveConcurrency = setup.adaptiveConcurrency;
    pool.worker.multipleRows = setup.syncer.multipleRows && !foreignKeyChecksOn(setup.downstreamSession);
    pool.worker.compact = setup.syncer.compact;
    for (const auto& [name, value] : setup.downstreamSession) {
        pool.sessionVariables.emplace_back(name, value);
    }
    pool.worker.appliedMarks = {setup.metaSchema, setup.taskName};
    pool.worker.sourceId = setup.sourceId;
    return pool;
}

}  // namespace syncscope::task
