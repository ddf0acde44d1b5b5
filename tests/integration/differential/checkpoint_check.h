// The checkpoint invariants of docs/design.md, read from the downstream's checkpoint table (DM's shape):
// no table point ahead of the global point (3), the global point not past the upstream's end (6);
// after a graceful stop, the exit-safe point not ahead of the global point (10) and, when the engine
// had caught up, the global point at the upstream's end (the idle-rotation case).
#pragma once

#include <cstdint>
#include <string>

#include "tests/integration/differential/divergence.h"
#include "tests/integration/differential/sql_session.h"

namespace syncscope::differential {

struct BinlogPoint {
    std::string file;
    uint64_t pos = 0;
    std::string gtid;
    bool known() const { return !file.empty(); }
    std::string text() const;
};

// <0, 0, >0 by file number, then position.
int comparePoints(const BinlogPoint& a, const BinlogPoint& b);

// SHOW MASTER STATUS and @@gtid_binlog_pos.
BinlogPoint upstreamEnd(SqlSession& upstream);

// After a rotation MariaDB writes a binlog checkpoint event naming the new file once the older files'
// commits are durable (with innodb_flush_log_at_trx_commit=2, up to a second or more later): until then the
// upstream's end still moves on an idle server. True once the current file's last binlog checkpoint event
// names the current file.
bool upstreamEndSettled(SqlSession& upstream);

struct CheckpointExpectations {
    bool afterGracefulStop = false;  // exit-safe must not be ahead of the global point
    bool caughtUp = false;           // the global point must equal upstreamEnd
    // A shard DDL lock may hold the source's global point (before the DDL, while the lock waits and while the
    // source re-syncs after it ran): every table that went on is then ahead of it, as expected. Only for a
    // check in the middle of a case; at the end every lock has run and the re-sync is over.
    bool shardLockMayHold = false;
};

// `where` names the moment ("after SIGKILL at step 12"). No table yet is not a divergence.
Divergences checkCheckpoints(SqlSession& downstream, const std::string& task, const BinlogPoint& upstreamEnd,
                             const CheckpointExpectations& expect, const std::string& where);

}  // namespace syncscope::differential
