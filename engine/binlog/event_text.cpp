// Text forms of the GTIDs events carry, as the servers print them.
#include <cstdio>

#include "engine/binlog/event.h"

namespace syncscope::binlog {

std::string uuidText(const Uuid& uuid) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string text;
    text.reserve(36);
    for (size_t i = 0; i < uuid.size(); ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) {
            text.push_back('-');
        }
        text.push_back(kHex[uuid[i] >> 4]);
        text.push_back(kHex[uuid[i] & 0x0F]);
    }
    return text;
}

std::string MariaDbGtidEvent::text() const {
    return std::to_string(domainId) + "-" + std::to_string(serverId) + "-" + std::to_string(sequence);
}

std::string GtidListEvent::text() const {
    std::string out;
    for (const MariaDbGtid& gtid : gtids) {
        if (!out.empty()) {
            out.push_back(',');
        }
        out +=
            std::to_string(gtid.domainId) + "-" + std::to_string(gtid.serverId) + "-" + std::to_string(gtid.sequence);
    }
    return out;
}

std::string MySqlGtidEvent::text() const {
    if (anonymous) {
        return "ANONYMOUS";
    }
    return uuidText(uuid) + ":" + std::to_string(gno);
}

std::string PreviousGtidsEvent::text() const {
    std::string out;
    for (const SourceIntervals& source : sources) {
        if (!out.empty()) {
            out.push_back(',');
        }
        out += uuidText(source.uuid);
        for (const GtidInterval& interval : source.intervals) {
            out += ":" + std::to_string(interval.start);
            if (interval.end - 1 != interval.start) {
                out += "-" + std::to_string(interval.end - 1);
            }
        }
    }
    return out;
}

std::string_view rowsOpName(RowsOp op) {
    switch (op) {
        case RowsOp::Insert:
            return "insert";
        case RowsOp::Update:
            return "update";
        case RowsOp::Delete:
            return "delete";
    }
    return "unknown";
}

}  // namespace syncscope::binlog
