#include "engine/task/stop_point.h"

#include "engine/common/local_time.h"

namespace syncscope::task {

StopPoint StopPoint::parse(const std::string& text) {
    StopPoint point;
    point.text = text;
    if (auto time = parseLocalTime(text)) {
        point.kind = Kind::Time;
        point.time = *time;
        return point;
    }
    try {
        switch (binlog::detectGtidFlavor(text)) {
            case binlog::GtidFlavor::MariaDB:
                point.kind = Kind::Gtid;
                point.gtids = binlog::GtidPosition::parse(text);
                return point;
            case binlog::GtidFlavor::MySQL:
                point.kind = Kind::Gtid;
                point.gtids = binlog::GtidSet::parse(text);
                return point;
            case binlog::GtidFlavor::None:
                break;
        }
    } catch (const binlog::PositionError&) {
        // a FILE:POS is tried next
    }
    try {
        point.position = binlog::BinlogPosition::parse(text);
        point.kind = Kind::Position;
        return point;
    } catch (const binlog::PositionError&) {
        throw Error("stop point '" + text +
                    "' is not FILE:POS, a GTID position (0-1-5) or set (uuid:1-5), or a time 'YYYY-MM-DD HH:MM:SS'");
    }
}

bool StopPoint::reachedAfter(const binlog::Location& end) const {
    switch (kind) {
        case Kind::Position:
            return !end.position().isEmpty() && end.position().baseName() == position.baseName() &&
                   end.position() >= position;
        case Kind::Gtid:
            if (const auto* wanted = std::get_if<binlog::GtidPosition>(&gtids)) {
                const auto* have = std::get_if<binlog::GtidPosition>(&end.gtids());
                return have != nullptr && have->contains(*wanted);
            }
            if (const auto* wanted = std::get_if<binlog::GtidSet>(&gtids)) {
                const auto* have = std::get_if<binlog::GtidSet>(&end.gtids());
                return have != nullptr && have->contains(*wanted);
            }
            return false;
        case Kind::Time:
            return false;
    }
    return false;
}

bool StopPoint::reachedBefore(const binlog::BinlogPosition& start, uint32_t timestamp) const {
    switch (kind) {
        case Kind::Position:
            return !start.isEmpty() && start.baseName() == position.baseName() && start >= position;
        case Kind::Time:
            return timestamp != 0 && timestamp >= time;
        case Kind::Gtid:
            return false;
    }
    return false;
}

bool StopPoint::behind(const binlog::Location& global) const {
    return kind != Kind::Time && reachedAfter(global);
}

std::string StopPoint::describe() const {
    switch (kind) {
        case Kind::Position:
            return "the stop point " + position.toString();
        case Kind::Gtid:
            return "the stop point GTID " + text;
        case Kind::Time:
            return "the stop point " + formatLocalTime(time);
    }
    return "the stop point " + text;
}

void StopPointHolder::set(std::optional<StopPoint> point) {
    std::lock_guard lock(mutex_);
    point_ = std::move(point);
}

std::optional<StopPoint> StopPointHolder::get() const {
    std::lock_guard lock(mutex_);
    return point_;
}

}  // namespace syncscope::task
