// A realistic StatusSnapshot for rendering tests: a task stopped on a failed row, one table point
// ahead of the global point, two workers, a flush, names that need escaping.
#pragma once

#include <chrono>

#include "engine/task/status_snapshot.h"

namespace syncscope::test {

inline task::PointView samplePoint(const std::string& file, uint64_t pos, const std::string& gtid,
                                   std::optional<uint64_t> axis) {
    task::PointView point;
    point.file = file;
    point.pos = pos;
    point.gtid = gtid;
    point.axis = axis;
    return point;
}

// 2026-11-29T21:00:00.250Z
inline task::Clock::time_point sampleTime() {
    constexpr int64_t kMillis = 1'795'986'000'250;
    return task::Clock::time_point(std::chrono::milliseconds(kMillis));
}

inline task::StatusSnapshot sampleStatus() {
    task::StatusSnapshot status;
    status.sequence = 42;
    status.takenAt = sampleTime();
    status.taskName = "foo-task";
    status.sourceId = "mysql-3306";
    status.stage = task::Stage::Error;
    status.stageReason = "downstream error 1054 (needs the DBA): Unknown column 'c4'";
    status.upstreamFiles = {{"mysql-bin.000001", 1000}, {"mysql-bin.000002", 5000}};
    status.upstream = samplePoint("mysql-bin.000002", 4200, "0-1-17", 5200);
    status.read = samplePoint("mysql-bin.000002", 4100, "0-1-16", 5100);
    status.applied = samplePoint("mysql-bin.000002", 3000, "0-1-12", 4000);
    status.globalInMemory = samplePoint("mysql-bin.000002", 3000, "0-1-12", 4000);
    status.globalPersisted = samplePoint("mysql-bin.000002", 2500, "0-1-10", 3500);
    status.exitSafe = samplePoint("mysql-bin.000002", 9000, "", std::nullopt);

    task::TablePointView test1;
    test1.schema = "test";
    test1.table = "test1";
    test1.inMemory = samplePoint("mysql-bin.000002", 2400, "0-1-9", 3400);
    test1.persisted = samplePoint("mysql-bin.000002", 2400, "0-1-9", 3400);
    test1.bytesFromGlobal = -100;
    test1.rowsApplied = 7;
    task::TablePointView odd;
    odd.schema = "we\"ird";
    odd.table = "back\\slash\nnew line";
    odd.persisted = samplePoint("mysql-bin.000002", 2900, "0-1-11", 3900);
    odd.aheadOfGlobal = true;
    odd.bytesFromGlobal = 400;
    odd.eventsFromGlobal = 2;
    odd.rowsApplied = 3;
    odd.rowsUnmatched = 2;
    odd.lastChange = sampleTime();
    status.tables = {test1, odd};

    status.eventsRead = 1234;
    status.rowsApplied = 10;
    status.recentRowsPerSecond = 2.5;
    status.totalRowsPerSecond = 0.125;
    status.lagSeconds = 3.6;
    status.readQueueDepth = 5;
    status.workerQueueDepths = {1, 0};
    status.workerQueueBytes = 4096;
    status.catchUp = task::CatchUpView{1 << 20, 4096.0, 1024.0, 341.3};
    status.applyConcurrency = apply::ConcurrencyView{3, 4, 16, true, "4 at once gave +12% rows/s over 3", 5};
    status.safeMode = true;
    task::OnlineChangeView change;
    change.real = {"test", "orders"};
    change.shadow = {"test", "_orders_new"};
    change.tool = "pt-online-schema-change";
    change.ddls = {"ALTER TABLE `test`.`_orders_new` ADD COLUMN c INT"};
    change.rowsCopied = 4200;
    change.since = "mysql-bin.000001:900";
    status.onlineChanges = {change};
    status.lastFlush = sampleTime();
    status.lastFlushMilliseconds = 12.5;

    task::FailedEvent failed;
    failed.position = samplePoint("mysql-bin.000002", 3100, "0-1-13", 4100);
    failed.schema = "test";
    failed.table = "test1";
    failed.operation = "insert";
    failed.columns = {"c", "c2", "c3", "c4"};
    failed.after = {task::RowImageView{{"2", "2", std::nullopt, "2"}}};
    failed.sql = "INSERT INTO `test`.`test1` (`c`,`c2`,`c3`,`c4`) VALUES (2,2,NULL,2)";
    failed.errorCode = 1054;
    failed.errorMessage = "Unknown column 'c4' in 'field list'";
    failed.errorClass = "needs the DBA";
    failed.hint = "ALTER TABLE `test`.`test1` ADD `c4` INT";
    status.failedEvent = failed;
    status.lastError = "downstream error 1054 (needs the DBA): Unknown column 'c4' in 'field list'";
    return status;
}

}  // namespace syncscope::test
