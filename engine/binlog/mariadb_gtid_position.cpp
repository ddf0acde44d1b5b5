#include "engine/binlog/mariadb_gtid_position.h"

#include "engine/binlog/binlog_position.h"
#include "engine/binlog/position_text.h"

namespace syncscope::binlog {

GtidPosition GtidPosition::parse(std::string_view input) {
    GtidPosition position;
    std::string_view rest = text::trim(input);
    if (rest.empty()) {
        return position;
    }
    while (true) {
        size_t comma = rest.find(',');
        std::string_view item = text::trim(rest.substr(0, comma));
        if (item.empty()) {
            throw PositionError("MariaDB GTID position " + text::quoted(input) + " has an empty item between commas");
        }
        Gtid gtid;
        try {
            gtid = Gtid::parse(item);
        } catch (const PositionError& e) {
            throw PositionError("MariaDB GTID position " + text::quoted(input) + ": " + e.what());
        }
        if (position.byDomain_.count(gtid.domainId) != 0) {
            throw PositionError("MariaDB GTID position " + text::quoted(input) + " has two GTIDs for domain " +
                                std::to_string(gtid.domainId) + " (a position holds at most one per domain)");
        }
        position.byDomain_[gtid.domainId] = gtid;
        if (comma == std::string_view::npos) {
            break;
        }
        rest = rest.substr(comma + 1);
    }
    return position;
}

void GtidPosition::update(const Gtid& gtid) {
    byDomain_[gtid.domainId] = gtid;
}

std::optional<Gtid> GtidPosition::forDomain(uint32_t domainId) const {
    auto it = byDomain_.find(domainId);
    if (it == byDomain_.end()) {
        return std::nullopt;
    }
    return it->second;
}

std::string GtidPosition::toString() const {
    std::string out;
    for (const auto& [domain, gtid] : byDomain_) {
        if (!out.empty()) {
            out += ',';
        }
        out += gtid.toString();
    }
    return out;
}

PositionOrder GtidPosition::compare(const GtidPosition& other) const {
    bool someAhead = false;   // a domain where this side is further
    bool someBehind = false;  // a domain where the other side is further
    auto mine = byDomain_.begin();
    auto theirs = other.byDomain_.begin();
    while (mine != byDomain_.end() || theirs != other.byDomain_.end()) {
        if (theirs == other.byDomain_.end() || (mine != byDomain_.end() && mine->first < theirs->first)) {
            someAhead = true;  // only this side has seen the domain
            ++mine;
        } else if (mine == byDomain_.end() || theirs->first < mine->first) {
            someBehind = true;
            ++theirs;
        } else {
            const Gtid& a = mine->second;
            const Gtid& b = theirs->second;
            if (a.sequence > b.sequence) {
                someAhead = true;
            } else if (a.sequence < b.sequence) {
                someBehind = true;
            } else if (a.serverId != b.serverId) {
                // One sequence number from two servers: the histories diverged.
                return PositionOrder::Incomparable;
            }
            ++mine;
            ++theirs;
        }
    }
    if (someAhead && someBehind) {
        return PositionOrder::Incomparable;
    }
    if (someAhead) {
        return PositionOrder::After;
    }
    return someBehind ? PositionOrder::Before : PositionOrder::Same;
}

bool GtidPosition::contains(const GtidPosition& other) const {
    PositionOrder order = compare(other);
    return order == PositionOrder::Same || order == PositionOrder::After;
}

}  // namespace syncscope::binlog
