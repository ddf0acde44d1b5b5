// The result of comparing two positions whose order may be partial (GTID sets, locations).
#pragma once

namespace syncscope::binlog {

// Before/After read "the left side is before/after the right side". Incomparable means neither
// contains the other (e.g. GTID sets that each hold transactions the other lacks, or a MariaDB GTID
// position compared with a MySQL GTID set): callers must decide explicitly, never treat it as Same.
enum class PositionOrder { Before, Same, After, Incomparable };

// "before", "same", "after", "incomparable".
const char* toString(PositionOrder order);

// After becomes Before and the other way round; Same and Incomparable stay.
PositionOrder reversed(PositionOrder order);

}  // namespace syncscope::binlog
