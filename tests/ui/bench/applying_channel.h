// One local channel of the GUI fleet benchmark that applies at full speed: the engine's real Task over the private
// MariaDB pair (SYNCSCOPE_DB_DIR, SYNCSCOPE_UP_PORT, SYNCSCOPE_DOWN_PORT as for the tests; scripts/bench-gui starts
// the pair), started over a backlog written upstream beforehand, so that it applies as fast as it can for the whole
// measurement. The tables and the task are shaped as bench_gui_stall's.
#pragma once

#include <QString>

#include <cstdio>
#include <memory>
#include <string>

#include "engine/task/task.h"
#include "tests/support/task_files.h"
#include "tests/ui/bench/bench_support.h"
#include "tests/ui/support/real_task.h"

namespace syncscope::bench {

class ApplyingChannel {
public:
    static constexpr int kTables = 20;
    static constexpr int kRowsPerInsert = 500;
    static constexpr const char* kSchema = "guifleet";
    static constexpr const char* kTaskName = "gui-fleet-apply";

    // Makes the tables afresh on both servers and opens the task at the upstream's end; "" or why not.
    std::string prepare(const std::string& dir) {
        try {
            task_ = openBenchTask(kSchema, kTables, kTaskName, dir);
            return {};
        } catch (const std::exception& e) {
            return e.what();
        }
    }

    const std::shared_ptr<task::Task>& task() const { return task_; }

    // Writes `rows` upstream before the task starts, in multi-row batches: the backlog the engine then applies at full
    // speed while the bench measures (a writer during the run would be a second load on the bench's machine that a
    // real upstream, on its own server, is not). "" or why not.
    std::string writeBacklog(int rows) {
        try {
            auto up = test::connectUpstream();
            for (int first = 0; first < rows; first += kRowsPerInsert) {
                up->execute(benchInsert(kSchema, kTables, first, kRowsPerInsert));
                written_ += kRowsPerInsert;
            }
            return {};
        } catch (const std::exception& e) {
            return e.what();
        }
    }

    uint64_t rowsWritten() const { return written_; }
    uint64_t rowsApplied() const { return task_ ? task_->status()->rowsApplied : 0; }

private:
    std::shared_ptr<task::Task> task_;
    uint64_t written_ = 0;
};

}  // namespace syncscope::bench
