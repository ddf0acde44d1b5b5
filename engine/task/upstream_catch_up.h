// One consistent view of the upstream for a status snapshot: the upstream has at least every event the
// stream has read from it. Its position is polled once a second while the read point moves with every
// event, so a polled position can trail the read point (and a freshly rotated file can be missing from
// the polled file list); left alone, every live table point looked "beyond the upstream".
#pragma once

#include <optional>

#include "engine/binlog/binlog_position.h"
#include "engine/task/upstream_watch.h"

namespace syncscope::task {

// `polled` brought up to `read` (the furthest point read from this upstream): the position becomes the
// later of the two; the read point's file is listed with at least the read offset as its size, and the
// axis is rebuilt over that list. Unchanged when nothing was read or the upstream was never polled. A
// file the stream passed through between two polls without reading past it is not listed (its size is
// not known); a point in it is then simply not placed on the axis.
UpstreamState catchUpWithRead(UpstreamState polled, const binlog::BinlogPosition& read);

}  // namespace syncscope::task
