#include "engine/load/consistent_snapshot.h"

#include <spdlog/spdlog.h>

#include "engine/load/load_error.h"

namespace syncscope::load {

namespace {

constexpr unsigned kSpecificAccessDenied = 1227;  // ER_SPECIFIC_ACCESS_DENIED_ERROR
constexpr unsigned kLockWaitTimeout = 1205;       // ER_LOCK_WAIT_TIMEOUT
// Seconds the server waits for a client that reads a chunk slowly (it writes to the downstream
// between reads): far above the default 60 so that a slow downstream does not cut the stream.
constexpr int kNetWriteTimeoutSeconds = 3600;

std::string grantFor(const ServerSettings& upstream, const std::string& privilege) {
    return "GRANT " + privilege + " ON *.* TO '" + upstream.user + "'@'<host>'";
}

// Every session setting that makes the rows read equal the rows stored: UTC for TIMESTAMP, a
// snapshot that stays open while chunks are read slowly.
void prepareSession(source::UpstreamConnection& connection) {
    connection.execute("SET SESSION time_zone = '+00:00', SESSION net_write_timeout = " +
                       std::to_string(kNetWriteTimeoutSeconds));
    connection.execute("SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ");
}

}  // namespace

ConsistentSnapshot openConsistentSnapshot(const ServerSettings& upstream, size_t count, bool withGtid,
                                          const UnderSnapshotLock& underLock) {
    ConsistentSnapshot snapshot;
    for (size_t i = 0; i < count; ++i) {
        snapshot.connections.push_back(std::make_unique<source::UpstreamConnection>(upstream));
        prepareSession(*snapshot.connections.back());
    }
    source::UpstreamConnection lock(upstream);
    lock.execute("SET SESSION lock_wait_timeout = " + std::to_string(kSnapshotLockWaitSeconds));
    auto lockedAt = std::chrono::steady_clock::now();
    try {
        lock.execute("FLUSH TABLES WITH READ LOCK");
    } catch (const source::UpstreamError& e) {
        if (e.code() == kSpecificAccessDenied) {
            throw LoadError("snapshot: upstream " + upstream.describe() +
                            ": FLUSH TABLES WITH READ LOCK was refused: the user lacks the RELOAD privilege, which "
                            "the consistent snapshot needs for an instant; run " +
                            grantFor(upstream, "RELOAD") + " (" + e.what() + ")");
        }
        if (e.code() == kLockWaitTimeout) {
            throw LoadError("snapshot: upstream " + upstream.describe() + ": FLUSH TABLES WITH READ LOCK waited " +
                                std::to_string(kSnapshotLockWaitSeconds) +
                                " s for running statements (a long query or an open LOCK TABLES); retrying (" +
                                e.what() + ")",
                            true);
        }
        throw;
    }
    auto locked = std::chrono::steady_clock::now();
    try {
        for (auto& connection : snapshot.connections) {
            connection->execute("START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY");
        }
        // MariaDB gives the binlog point of the snapshot itself; under the lock it is the same for all.
        auto status = snapshot.connections.front()->query(
            "SHOW STATUS WHERE Variable_name IN ('Binlog_snapshot_file', 'Binlog_snapshot_position')");
        std::string file;
        uint64_t position = 0;
        for (const auto& row : status) {
            if (row.size() >= 2 && row[0] && row[1]) {
                if (*row[0] == "Binlog_snapshot_file") {
                    file = *row[1];
                } else {
                    position = std::stoull(*row[1]);
                }
            }
        }
        if (file.empty()) {
            throw LoadError("snapshot: upstream " + upstream.describe() +
                            ": Binlog_snapshot_file is empty: the binary log is off; turn on log_bin");
        }
        std::string gtid;
        if (withGtid) {
            gtid = lock.queryValue("SELECT BINLOG_GTID_POS('" + file + "', " + std::to_string(position) + ")")
                       .value_or("");
        }
        snapshot.point = binlog::Location::fromParts(file, position, gtid);
        if (underLock) {
            underLock(lock);
        }
    } catch (...) {
        lock.execute("UNLOCK TABLES");
        throw;
    }
    lock.execute("UNLOCK TABLES");
    auto unlocked = std::chrono::steady_clock::now();
    snapshot.writersBlocked = std::chrono::duration_cast<std::chrono::microseconds>(unlocked - locked);
    spdlog::info("snapshot at {} for {} connections{}; upstream commits waited {:.1f} ms (lock taken in {:.1f} ms)",
                 snapshot.point.toString(), count, underLock ? ", table definitions read under the lock" : "",
                 static_cast<double>(snapshot.writersBlocked.count()) / 1000.0,
                 std::chrono::duration<double, std::milli>(locked - lockedAt).count());
    return snapshot;
}

}  // namespace syncscope::load
