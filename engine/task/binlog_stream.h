// Where the syncer's raw events come from: the upstream's binlog dump (or, for tests and offline
// replays, binlog files). next() blocks at most about a second, so that the syncer can look at its
// interrupt flag and its workers between events.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "engine/binlog/location.h"
#include "engine/binlog/raw_event.h"
#include "engine/common/server_settings.h"
#include "engine/task/stream_connection_view.h"

namespace syncscope::task {

class BinlogStream {
public:
    virtual ~BinlogStream() = default;
    // The next event; nullopt when none arrived within the poll interval (the stream is idle, or a
    // heartbeat came). Throws on a dead or refused stream, with a message naming the position.
    virtual std::optional<binlog::RawEvent> next() = 0;
    // From another thread: next() returns (nullopt or an error) within a second.
    virtual void cancel() = 0;
    // From any thread. After a lost connection is resumed in place (reconnects grew), the stream
    // starts again after the last complete transaction: the events of the transaction being read
    // come again, after a ROTATE and a FORMAT_DESCRIPTION.
    virtual StreamConnectionView connection() const { return {}; }
    // connection().reconnects without the rest: cheap enough to ask after every event.
    virtual uint64_t reconnects() const { return 0; }
};

struct StreamStart {
    binlog::Location from;  // position (file + offset) and, with enable-gtid, the GTID state
    bool useGtid = false;
    int heartbeatSeconds = 1;
};

// The upstream's binlog dump through MariaDB Connector/C (engine/source/binlog_server_source).
std::unique_ptr<BinlogStream> openServerStream(const ServerSettings& upstream, const StreamStart& start);

}  // namespace syncscope::task
