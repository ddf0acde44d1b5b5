// The point a DBA names to start browsing or resuming from: "FILE:POS", a bare offset in the first
// file, a GTID position ("0-1-5,1-2-7" or MySQL "uuid:1-5"), or a time 'YYYY-MM-DD HH:MM:SS'.
#pragma once

#include <cstdint>
#include <string>

#include "engine/browse/binlog_history.h"

namespace syncscope::browse {

struct StartPoint {
    enum class Kind { Beginning, Position, Gtid, Time };
    Kind kind = Kind::Beginning;
    BrowsePoint position;  // Position (file "" for a bare offset: the history's first file)
    std::string gtid;      // Gtid
    uint32_t time = 0;     // Time, seconds since the epoch
    std::string text;      // as given
};

// Throws BrowseError saying which forms are accepted.
StartPoint parseStartPoint(const std::string& text);

}  // namespace syncscope::browse
