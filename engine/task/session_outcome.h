// How one run of the syncer ends, how long a stop waits for it to end, and the DBA's skip it may be given
// (SyncSession::run).
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "engine/binlog/binlog_position.h"
#include "engine/task/status_snapshot.h"

namespace syncscope::task {

// How long a pause or stop waits for the transaction being read to end before it stops inside it (the
// next start then reads that transaction again from the persisted global point, in safe mode). A pause
// during a large transaction can take this long to reach Paused.
inline constexpr auto kFinishTransactionGrace = std::chrono::seconds(30);

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
    std::string resync;                             // Interrupted to read again for a shard DDL lock: why
};

}  // namespace syncscope::task
