// Counts, on the upstream's own binlog (SHOW BINLOG EVENTS), the events of a skip window and the rows
// events of one table among them: exactly what a resume from the global point would skip.
#pragma once

#include <cstdint>
#include <string>

#include "engine/binlog/position_axis.h"
#include "engine/inspect/inspection_report.h"

namespace syncscope::source {
class UpstreamConnection;
}

namespace syncscope::inspect {

// No window scan reads more events than this; the count then says "at least".
inline constexpr uint64_t kMaxScannedEvents = 200000;

class SkippedEventCounter {
public:
    SkippedEventCounter(source::UpstreamConnection& upstream, const binlog::PositionAxis& axis)
        : upstream_(upstream), axis_(axis) {}

    // Fills window.events, window.tableRowsEvents and window.eventsCapped. Leaves them empty when a
    // point is not on the upstream's axis or the server refuses (privilege, an offset that is not an
    // event boundary); returns why in that case, "" when counted.
    std::string count(SkipWindow& window, const std::string& schema, const std::string& table);

private:
    source::UpstreamConnection& upstream_;
    const binlog::PositionAxis& axis_;
};

}  // namespace syncscope::inspect
