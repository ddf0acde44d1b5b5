// The downstream's part of the precheck (server level): privileges to write the target schemas and
// the meta schema, max_allowed_packet against the upstream's, and default character sets and
// collations of the server and of each target schema against the upstream's.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/precheck/finding.h"
#include "engine/precheck/server_facts.h"

namespace syncscope::precheck {

class SqlSession;

// The privileges the engine uses on a target schema (rows and replicated DDL) and on the meta schema.
const std::vector<std::string>& targetSchemaPrivileges();
const std::vector<std::string>& metaSchemaPrivileges();

std::vector<Finding> checkDownstreamPrivileges(SqlSession& downstream, const std::set<std::string>& targetSchemas,
                                               const std::string& metaSchema);

// upstreamPacket: the upstream's max_allowed_packet (the largest event it writes).
std::vector<Finding> checkMaxAllowedPacket(SqlSession& downstream, std::optional<long long> upstreamPacket);

// Server defaults: pairs of (character_set_server, collation_server) of each side. Schemas: the
// target schemas that exist downstream, compared with the upstream schema their tables come from.
std::vector<Finding> checkCharsets(SqlSession& upstream, SqlSession& downstream, const ServerFacts& upstreamFacts,
                                   const ServerFacts& downstreamFacts,
                                   const std::map<std::string, std::string>& targetSchemaToUpstream);

}  // namespace syncscope::precheck
