#include "engine/precheck/downstream_checks.h"

#include "engine/filter/table_name.h"
#include "engine/precheck/grants.h"
#include "engine/precheck/sql_session.h"

namespace syncscope::precheck {

namespace {

std::string joined(const std::vector<std::string>& items) {
    std::string text;
    for (const auto& item : items) {
        text += (text.empty() ? "" : ", ") + item;
    }
    return text;
}

void checkSchemaPrivileges(const GrantFacts& grants, const std::string& server, const std::string& schema,
                           const std::vector<std::string>& needed, const std::string& impact,
                           std::vector<Finding>& findings) {
    std::vector<std::string> missing;
    for (const auto& privilege : needed) {
        if (!grants.holds(privilege, schema)) {
            missing.push_back(privilege);
        }
    }
    if (missing.empty()) {
        return;
    }
    const std::string quoted = filter::TableName::quote(schema);
    findings.push_back(sqlFinding("downstream.privileges", Severity::Error, server + " " + quoted,
                                  grants.grantee + " lacks " + joined(missing) + " on " + quoted + ".*", impact,
                                  FixTarget::Downstream,
                                  {"GRANT " + joined(missing) + " ON " + quoted + ".* TO " + grants.grantee},
                                  "run as an administrator (grants on single tables and roles are not read here)"));
}

}  // namespace

const std::vector<std::string>& targetSchemaPrivileges() {
    static const std::vector<std::string> kPrivileges = {"SELECT", "INSERT", "UPDATE", "DELETE",
                                                         "CREATE", "DROP",   "ALTER",  "INDEX"};
    return kPrivileges;
}

const std::vector<std::string>& metaSchemaPrivileges() {
    static const std::vector<std::string> kPrivileges = {"SELECT", "INSERT", "UPDATE", "DELETE", "CREATE"};
    return kPrivileges;
}

std::vector<Finding> checkDownstreamPrivileges(SqlSession& downstream, const std::set<std::string>& targetSchemas,
                                               const std::string& metaSchema) {
    std::vector<Finding> findings;
    GrantFacts grants = readGrants(downstream);
    for (const auto& schema : targetSchemas) {
        checkSchemaPrivileges(grants, downstream.server(), schema, targetSchemaPrivileges(),
                              "the engine writes rows (SELECT, INSERT, UPDATE, DELETE) and replays the upstream's "
                              "DDL (CREATE, DROP, ALTER, INDEX) here: a missing one pauses the task with 1142 at the "
                              "first change that needs it",
                              findings);
    }
    checkSchemaPrivileges(grants, downstream.server(), metaSchema, metaSchemaPrivileges(),
                          "the engine creates and writes its checkpoint table here: without these it cannot start",
                          findings);
    return findings;
}

std::vector<Finding> checkMaxAllowedPacket(SqlSession& downstream, std::optional<long long> upstreamPacket) {
    std::vector<Finding> findings;
    auto value = downstream.globalVariable("max_allowed_packet");
    if (!value || !upstreamPacket || value->empty()) {
        return findings;
    }
    long long downstreamPacket = std::stoll(*value);
    if (downstreamPacket >= *upstreamPacket) {
        return findings;
    }
    findings.push_back(sqlFinding(
        "downstream.max_allowed_packet", Severity::Warning, downstream.server(),
        "max_allowed_packet is " + *value + " bytes downstream but " + std::to_string(*upstreamPacket) + " upstream",
        "a row the upstream accepted (a large BLOB or TEXT, or a multi-row batch) becomes a statement the "
        "downstream refuses with 1153 (packet too large), and the task pauses on it",
        FixTarget::Downstream, {"SET GLOBAL max_allowed_packet = " + std::to_string(*upstreamPacket)},
        "and put 'max_allowed_packet = " + std::to_string(*upstreamPacket) +
            "' in the server's config; new connections get it"));
    return findings;
}

std::vector<Finding> checkCharsets(SqlSession& upstream, SqlSession& downstream, const ServerFacts& upstreamFacts,
                                   const ServerFacts& downstreamFacts,
                                   const std::map<std::string, std::string>& targetSchemaToUpstream) {
    std::vector<Finding> findings;
    auto upCharset = upstream.globalVariable("character_set_server");
    auto upCollation = upstream.globalVariable("collation_server");
    auto downCharset = downstream.globalVariable("character_set_server");
    auto downCollation = downstream.globalVariable("collation_server");
    if (upCharset && upCollation && downCharset && downCollation &&
        (*upCharset != *downCharset || *upCollation != *downCollation)) {
        findings.push_back(sqlFinding(
            "downstream.server_charset", Severity::Warning, downstream.server(),
            "the server default is " + *downCharset + "/" + *downCollation + " downstream but " + *upCharset + "/" +
                *upCollation + " upstream",
            "a CREATE DATABASE the engine replays without a character set gets a different default on each side, "
            "and so do the tables and columns created in it",
            FixTarget::Downstream,
            {"SET GLOBAL character_set_server = '" + *upCharset + "'",
             "SET GLOBAL collation_server = '" + *upCollation + "'"},
            "and put 'character_set_server = " + *upCharset + "' and 'collation_server = " + *upCollation +
                "' in the server's config"));
    }
    for (const auto& [target, source] : targetSchemaToUpstream) {
        auto down = downstreamFacts.schemas.find(target);
        auto up = upstreamFacts.schemas.find(source);
        if (down == downstreamFacts.schemas.end() || up == upstreamFacts.schemas.end() ||
            down->second.collation == up->second.collation) {
            continue;
        }
        const std::string quoted = filter::TableName::quote(target);
        findings.push_back(sqlFinding(
            "downstream.schema_charset", Severity::Warning, quoted,
            "the schema's default is " + down->second.charset + "/" + down->second.collation + " downstream but " +
                up->second.charset + "/" + up->second.collation + " upstream (" + filter::TableName::quote(source) +
                ")",
            "a CREATE TABLE the engine replays without a character set gets different collations on the two sides: "
            "keys then compare differently",
            FixTarget::Downstream,
            {"ALTER DATABASE " + quoted + " CHARACTER SET " + up->second.charset + " COLLATE " +
             up->second.collation}));
    }
    return findings;
}

}  // namespace syncscope::precheck
