// The event a replica's SQL thread failed on, read from the master's own binlog and decoded by our
// decoder: the transaction that starts at the channel's executed position (Relay_Master_Log_File,
// Exec_Master_Log_Pos), and in it the rows event the error names by its end_log_pos (else the first
// one), with its table, operation and row images, so that a DBA sees what a skip would drop.
#pragma once

#include <string>

#include "engine/common/server_settings.h"
#include "engine/replica/replica_channel_status.h"
#include "engine/task/status_snapshot.h"

namespace syncscope::replica {

// Reads at most a few hundred events of the master's binlog from the executed position. `master` is how
// to reach the channel's master (host and port from the channel, credentials from the DBA). Throws
// syncscope::Error naming the master and position when it cannot be read.
task::FailedEvent readFailingEvent(const ServerSettings& master, const ReplicaChannelStatus& channel);

}  // namespace syncscope::replica
