#include "engine/binlog/position_order.h"

namespace syncscope::binlog {

const char* toString(PositionOrder order) {
    switch (order) {
        case PositionOrder::Before:
            return "before";
        case PositionOrder::Same:
            return "same";
        case PositionOrder::After:
            return "after";
        case PositionOrder::Incomparable:
            return "incomparable";
    }
    return "incomparable";
}

PositionOrder reversed(PositionOrder order) {
    switch (order) {
        case PositionOrder::Before:
            return PositionOrder::After;
        case PositionOrder::After:
            return PositionOrder::Before;
        default:
            return order;
    }
}

}  // namespace syncscope::binlog
