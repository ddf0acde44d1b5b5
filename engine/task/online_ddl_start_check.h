// A start inside a running online schema change that this task did not follow (online-ddl): the tool's
// shadow table exists upstream, nothing about it was recorded, and its DDLs lie before the start point, so
// at the swap the real table downstream would keep its old definition (DM's own limitation; DM finds it at
// the swap). Found at start: the upstream's shadow tables with no recorded state are looked up in the
// binary log from the start point; when the first statement on one is not its CREATE, the start is refused
// with the change named and the points to use instead. What cannot be read (grants, a purged file, a
// too-long scan) is a warning: the swap itself is refused when its DDLs were never read.
#pragma once

#include <string>
#include <vector>

#include "engine/binlog/location.h"
#include "engine/checkpoint/online_ddl_store.h"
#include "engine/task/task_setup.h"

namespace syncscope::task {

class OnlineDdlStartCheck {
public:
    // Binary log events read at most, forward from the start point and back before it.
    static constexpr size_t kMaxScannedEvents = 2'000'000;
    static constexpr size_t kMaxFilesBack = 8;

    explicit OnlineDdlStartCheck(const TaskSetup& setup) : setup_(setup) {}

    // Throws Error naming the change and the points to start from instead; changes nothing.
    void check(const binlog::Location& start, const std::vector<checkpoint::OnlineDdlEntry>& followed) const;

private:
    const TaskSetup& setup_;
};

}  // namespace syncscope::task
