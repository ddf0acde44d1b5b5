// `syncscope-cli run` for one differential case: writes the task and source files from the case's
// settings (changed by faults: safe mode forced, multiple-rows toggled on restarts), starts the engine
// with its control API, and restarts it as a new process after a kill or stop.
#pragma once

#include <memory>
#include <string>

#include "tests/integration/differential/checkpoint_check.h"
#include "tests/integration/differential/workload.h"
#include "tests/integration/outage/engine_process.h"

namespace syncscope::differential {

constexpr const char* kTaskName = "fuzz";

class EngineDriver {
public:
    EngineDriver(std::string workDir, EngineSettings settings, BinlogPoint start, std::string database);
    ~EngineDriver();
    EngineDriver(const EngineDriver&) = delete;
    EngineDriver& operator=(const EngineDriver&) = delete;

    EngineSettings& settings() { return settings_; }
    bool start();     // writes the files with the current settings; false when the API never answered
    void kill();      // SIGKILL
    int terminate();  // SIGTERM; the exit code
    bool running() const { return process_ && process_->running(); }
    test::EngineProcess& process() { return *process_; }
    std::string logDir() const { return workDir_ + "/logs"; }
    std::string stderrTail() const;

private:
    void writeFiles() const;

    std::string workDir_;
    EngineSettings settings_;
    BinlogPoint start_;
    std::string database_;
    std::unique_ptr<test::EngineProcess> process_;
};

}  // namespace syncscope::differential
