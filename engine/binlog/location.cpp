#include "engine/binlog/location.h"

#include <cctype>

#include "engine/binlog/position_text.h"

namespace syncscope::binlog {

const char* toString(GtidFlavor flavor) {
    switch (flavor) {
        case GtidFlavor::None:
            return "none";
        case GtidFlavor::MariaDB:
            return "mariadb";
        case GtidFlavor::MySQL:
            return "mysql";
    }
    return "none";
}

GtidFlavor detectGtidFlavor(std::string_view input) {
    std::string_view trimmed = text::trim(input);
    if (trimmed.empty()) {
        return GtidFlavor::None;
    }
    // A MySQL set always names a UUID followed by ':'; a MariaDB position never has ':'.
    if (trimmed.find(':') != std::string_view::npos) {
        return GtidFlavor::MySQL;
    }
    bool onlyMariaDbCharacters = true;
    for (char c : trimmed) {
        if (std::isdigit(static_cast<unsigned char>(c)) == 0 && c != '-' && c != ',' &&
            std::isspace(static_cast<unsigned char>(c)) == 0) {
            onlyMariaDbCharacters = false;
        }
    }
    if (onlyMariaDbCharacters) {
        return GtidFlavor::MariaDB;
    }
    throw PositionError("GTID text " + text::quoted(input) +
                        " is neither a MariaDB GTID position (e.g. '0-1-5,1-2-7') nor a MySQL GTID set (e.g. "
                        "'3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5')");
}

Location Location::fromParts(std::string_view file, uint64_t offset, std::string_view gtidText) {
    Location location;
    if (!file.empty()) {
        location.position_ = BinlogPosition(std::string(file), offset);
    } else if (offset != 0) {
        throw PositionError("binlog offset " + std::to_string(offset) + " is given without a binlog file name");
    }
    switch (detectGtidFlavor(gtidText)) {
        case GtidFlavor::None:
            break;
        case GtidFlavor::MariaDB:
            location.gtids_ = GtidPosition::parse(gtidText);
            break;
        case GtidFlavor::MySQL:
            location.gtids_ = GtidSet::parse(gtidText);
            break;
    }
    return location;
}

GtidFlavor Location::flavor() const {
    if (const auto* mariadb = std::get_if<GtidPosition>(&gtids_)) {
        return mariadb->isEmpty() ? GtidFlavor::None : GtidFlavor::MariaDB;
    }
    if (const auto* mysql = std::get_if<GtidSet>(&gtids_)) {
        return mysql->isEmpty() ? GtidFlavor::None : GtidFlavor::MySQL;
    }
    return GtidFlavor::None;
}

std::string Location::gtidText() const {
    if (const auto* mariadb = std::get_if<GtidPosition>(&gtids_)) {
        return mariadb->toString();
    }
    if (const auto* mysql = std::get_if<GtidSet>(&gtids_)) {
        return mysql->toString();
    }
    return {};
}

std::string Location::toString() const {
    if (isEmpty()) {
        return "(none)";
    }
    std::string out = position_.isEmpty() ? std::string("(no position)") : position_.toString();
    if (hasGtids()) {
        out += " gtid " + gtidText();
    }
    return out;
}

namespace {

PositionOrder comparePositions(const BinlogPosition& a, const BinlogPosition& b) {
    if (a.isEmpty() || b.isEmpty()) {
        return a.isEmpty() && b.isEmpty() ? PositionOrder::Same : PositionOrder::Incomparable;
    }
    auto order = a <=> b;
    if (order < 0) {
        return PositionOrder::Before;
    }
    return order > 0 ? PositionOrder::After : PositionOrder::Same;
}

}  // namespace

PositionOrder Location::compare(const Location& other) const {
    if (isEmpty() || other.isEmpty()) {
        return isEmpty() && other.isEmpty() ? PositionOrder::Same : PositionOrder::Incomparable;
    }
    GtidFlavor mine = flavor();
    GtidFlavor theirs = other.flavor();
    if (mine != GtidFlavor::None && theirs != GtidFlavor::None) {
        if (mine != theirs) {
            return PositionOrder::Incomparable;
        }
        PositionOrder byGtids = mine == GtidFlavor::MariaDB
                                    ? std::get<GtidPosition>(gtids_).compare(std::get<GtidPosition>(other.gtids_))
                                    : std::get<GtidSet>(gtids_).compare(std::get<GtidSet>(other.gtids_));
        if (byGtids != PositionOrder::Same) {
            return byGtids;
        }
        // Same GTIDs: inside one transaction the positions order the events; without positions on
        // either side the GTIDs are all we know.
        if (position_.isEmpty() || other.position_.isEmpty()) {
            return PositionOrder::Same;
        }
        return comparePositions(position_, other.position_);
    }
    return comparePositions(position_, other.position_);
}

}  // namespace syncscope::binlog
