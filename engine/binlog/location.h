// Where the engine stands in the upstream's history: the binlog position at the END of an event plus
// the GTID state after that event, in either flavor (MariaDB GTID position or MySQL GTID set).
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "engine/binlog/binlog_position.h"
#include "engine/binlog/mariadb_gtid_position.h"
#include "engine/binlog/mysql_gtid_set.h"
#include "engine/binlog/position_order.h"

namespace syncscope::binlog {

enum class GtidFlavor { None, MariaDB, MySQL };

// "none", "mariadb", "mysql".
const char* toString(GtidFlavor flavor);

// Which flavor a GTID text is written in: "" -> None, "0-1-5,..." -> MariaDB, "uuid:1-5,..." -> MySQL.
// Throws PositionError when the text is neither.
GtidFlavor detectGtidFlavor(std::string_view text);

using GtidState = std::variant<std::monostate, GtidPosition, GtidSet>;

class Location {
public:
    Location() = default;
    explicit Location(BinlogPosition position) : position_(std::move(position)) {}
    Location(BinlogPosition position, GtidPosition gtids) : position_(std::move(position)), gtids_(std::move(gtids)) {}
    Location(BinlogPosition position, GtidSet gtids) : position_(std::move(position)), gtids_(std::move(gtids)) {}

    // From the three values a checkpoint row or a task's `meta` holds: file, offset and GTID text of
    // either flavor (detected; "" for none). An empty file with offset 0 gives an empty position.
    // Throws PositionError naming the bad part.
    static Location fromParts(std::string_view file, uint64_t offset, std::string_view gtidText);

    const BinlogPosition& position() const { return position_; }
    const GtidState& gtids() const { return gtids_; }
    GtidFlavor flavor() const;
    bool hasGtids() const { return flavor() != GtidFlavor::None; }
    // Neither a binlog position nor GTIDs: nothing is known.
    bool isEmpty() const { return position_.isEmpty() && !hasGtids(); }
    // The GTID text as a checkpoint row stores it ("" when none).
    std::string gtidText() const;

    void setPosition(BinlogPosition position) { position_ = std::move(position); }
    void setGtids(GtidState gtids) { gtids_ = std::move(gtids); }

    // "mysql-bin.000003:1234" or "mysql-bin.000003:1234 gtid 0-1-5"; "(none)" when empty.
    std::string toString() const;

    // Where this location stands relative to `other`:
    // - both carry GTIDs of one flavor: the GTIDs decide (they survive failovers and file renames);
    //   when they are Same, the binlog positions break the tie (events inside one transaction).
    //   Incomparable GTIDs give Incomparable, never a guess from the positions (DM falls back to
    //   the positions silently; that hides diverged histories).
    // - GTIDs of different flavors: Incomparable.
    // - otherwise (one side or both without GTIDs): the binlog positions decide.
    // - an empty location is Same as another empty one and Incomparable with anything else; so is a
    //   location whose position is empty when the positions must decide.
    // What callers do with Incomparable:
    // - skipping an event already covered by a table point: skip only on Before or Same, so an
    //   Incomparable event is applied (safe mode makes a replay harmless) and a warning is logged;
    // - flagging a table point against the global point: After is "ahead of the global point",
    //   Incomparable is flagged on its own as "cannot be ordered", both shown to the DBA;
    // - moving a point forward: only on After; Incomparable keeps the old point and reports it.
    PositionOrder compare(const Location& other) const;

    bool operator==(const Location& other) const = default;

private:
    BinlogPosition position_;
    GtidState gtids_;
};

}  // namespace syncscope::binlog
