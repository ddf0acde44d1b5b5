#include "engine/binlog/mariadb_gtid.h"

#include "engine/binlog/binlog_position.h"
#include "engine/binlog/position_text.h"

namespace syncscope::binlog {

Gtid Gtid::parse(std::string_view input) {
    std::string_view trimmed = text::trim(input);
    size_t firstDash = trimmed.find('-');
    size_t secondDash = firstDash == std::string_view::npos ? firstDash : trimmed.find('-', firstDash + 1);
    if (secondDash == std::string_view::npos) {
        throw PositionError("MariaDB GTID " + text::quoted(input) +
                            " is not DOMAIN-SERVER-SEQUENCE (expected e.g. '0-1-5')");
    }
    auto domain = text::parseNumber<uint32_t>(trimmed.substr(0, firstDash));
    auto server = text::parseNumber<uint32_t>(trimmed.substr(firstDash + 1, secondDash - firstDash - 1));
    auto sequence = text::parseNumber<uint64_t>(trimmed.substr(secondDash + 1));
    if (!domain) {
        throw PositionError("MariaDB GTID " + text::quoted(input) + ": domain id " +
                            text::quoted(trimmed.substr(0, firstDash)) + " is not a number from 0 to 4294967295");
    }
    if (!server) {
        throw PositionError("MariaDB GTID " + text::quoted(input) + ": server id " +
                            text::quoted(trimmed.substr(firstDash + 1, secondDash - firstDash - 1)) +
                            " is not a number from 0 to 4294967295");
    }
    if (!sequence) {
        throw PositionError("MariaDB GTID " + text::quoted(input) + ": sequence number " +
                            text::quoted(trimmed.substr(secondDash + 1)) + " is not a whole number");
    }
    return Gtid{*domain, *server, *sequence};
}

std::string Gtid::toString() const {
    return std::to_string(domainId) + "-" + std::to_string(serverId) + "-" + std::to_string(sequence);
}

}  // namespace syncscope::binlog
