// One consistent snapshot seen by several upstream connections: a global read lock is held for the
// instant it takes each connection to open its REPEATABLE READ snapshot (as mydumper does), so every
// connection sees the same committed transactions, and the binlog point (file:pos and GTID) of that
// instant is where incremental replication continues. Needs RELOAD (for the lock) and SELECT.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <vector>

#include "engine/binlog/location.h"
#include "engine/common/server_settings.h"
#include "engine/source/upstream_connection.h"

namespace syncscope::load {

struct ConsistentSnapshot {
    std::vector<std::unique_ptr<source::UpstreamConnection>> connections;  // each inside the snapshot
    binlog::Location point;                                                // binlog point of the snapshot
    std::chrono::microseconds writersBlocked{0};  // how long the upstream's commits waited on the lock
};

// How long FLUSH TABLES WITH READ LOCK may wait for running statements before it gives up (it waits
// for them to finish, and writers queue behind it meanwhile).
inline constexpr int kSnapshotLockWaitSeconds = 10;

// Runs while the lock is held, after the snapshot is open: no DDL can commit meanwhile, so what it reads
// from the data dictionary (table definitions) is what the snapshot sees. Every millisecond here is
// one the upstream's writers wait.
using UnderSnapshotLock = std::function<void(source::UpstreamConnection& lockConnection)>;

// Opens `count` connections inside one snapshot. Throws LoadError naming the missing privilege
// (RELOAD for the lock, SELECT for the rows) with the GRANT to run; nothing is left locked on failure.
ConsistentSnapshot openConsistentSnapshot(const ServerSettings& upstream, size_t count, bool withGtid,
                                          const UnderSnapshotLock& underLock = {});

}  // namespace syncscope::load
