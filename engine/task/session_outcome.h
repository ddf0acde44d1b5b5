// How one run of the syncer ends, and the DBA's skip it may be given (SyncSession::run).
#pragma once

#include <optional>
#include <string>

#include "engine/binlog/binlog_position.h"
#include "engine/task/status_snapshot.h"

namespace syncscope::task {

// Skip exactly one upstream transaction: the one that starts at `transactionStart` (the DBA's skip).
struct SkipRequest {
    binlog::BinlogPosition transactionStart;
};

struct SessionOutcome {
    enum class Kind { Interrupted, Failed };
    Kind kind = Kind::Interrupted;
    bool retryable = false;
    std::string message;
    std::optional<FailedEvent> failedEvent;
    binlog::BinlogPosition failedTransactionStart;  // for a skip
    std::string stopPointReached;                   // Interrupted at the DBA's stop point: which one
};

}  // namespace syncscope::task
