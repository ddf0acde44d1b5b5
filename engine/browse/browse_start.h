// Opens a history at the point a DBA named, after checking it: a position must be a transaction
// boundary, a GTID must be in the upstream's history, a time becomes its first transaction.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>

#include "engine/browse/binlog_history.h"
#include "engine/browse/point_resolver.h"
#include "engine/browse/start_point.h"

namespace syncscope::browse {

struct OpenedStart {
    std::unique_ptr<EventStream> stream;
    std::string skipUpToGtid;  // for BrowseRange: a GTID start on a history that reads from its oldest file
    BrowsePoint at;            // where the stream starts (the oldest file's start for a GTID start on files)
    std::optional<FoundTransaction> resolvedTime;  // what a time start resolved to
};

// Throws BrowseError (or source::UpstreamError) saying what is wrong with the point; opens nothing then.
OpenedStart openFrom(BinlogHistory& history, const StartPoint& start, const std::atomic<bool>* cancel = nullptr);

}  // namespace syncscope::browse
