// Stop at a point (like START SLAVE UNTIL): the task pauses by itself at a transaction end once it has
// applied the transaction ending at or after a binlog position, the transaction that completes a GTID
// position, or, for a time, everything before the first transaction at or after that time. One-shot:
// the point is cleared when reached. The holder is shared by the Task (which sets it, from the CLI,
// the API or the GUI) and the pipeline (which checks it at every transaction boundary).
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "engine/binlog/location.h"

namespace syncscope::task {

struct StopPoint {
    enum class Kind { Position, Gtid, Time };
    Kind kind = Kind::Position;
    binlog::BinlogPosition position;
    binlog::GtidState gtids;
    uint32_t time = 0;  // seconds since the epoch
    std::string text;   // as given

    // "FILE:POS", a GTID position or set, or 'YYYY-MM-DD HH:MM:SS' (local time). Throws Error naming
    // the accepted forms.
    static StopPoint parse(const std::string& text);

    // At the end of a transaction: `end` is the location after it (position and GTID state).
    bool reachedAfter(const binlog::Location& end) const;
    // Before a transaction that starts at `start` at `timestamp`: a time point stops the task in front of
    // the first transaction at or after it; a position point in front of a transaction starting at or
    // after it (the position lay between transactions, in events that apply nothing).
    bool reachedBefore(const binlog::BinlogPosition& start, uint32_t timestamp) const;
    // Already behind `global` (the task's point): a position at or before it, a GTID it contains. A time
    // cannot be told from a point and is never behind.
    bool behind(const binlog::Location& global) const;
    // "the stop point mariadb-bin.000003:1234", for status and messages.
    std::string describe() const;
};

class StopPointHolder {
public:
    void set(std::optional<StopPoint> point);
    std::optional<StopPoint> get() const;

private:
    mutable std::mutex mutex_;
    std::optional<StopPoint> point_;
};

}  // namespace syncscope::task
