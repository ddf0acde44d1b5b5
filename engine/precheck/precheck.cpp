#include "engine/precheck/precheck.h"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <set>

#include "engine/filter/block_allow_list.h"
#include "engine/filter/table_router.h"
#include "engine/precheck/downstream_checks.h"
#include "engine/precheck/online_ddl_tables.h"
#include "engine/precheck/server_facts.h"
#include "engine/precheck/shard_tables.h"
#include "engine/precheck/sql_session.h"
#include "engine/precheck/table_rules.h"
#include "engine/precheck/upstream_checks.h"

namespace syncscope::precheck {

namespace {

// Runs one area of checks; an exception becomes an error finding naming the area, and the rest go on.
void runArea(PrecheckReport& report, const std::string& area, const std::function<std::vector<Finding>()>& check) {
    report.areas.push_back(area);
    try {
        auto findings = check();
        report.findings.insert(report.findings.end(), findings.begin(), findings.end());
    } catch (const std::exception& e) {
        report.findings.push_back({"precheck.failed",
                                   Severity::Error,
                                   area,
                                   "could not check " + area + ": " + e.what(),
                                   "what this area would have found is unknown",
                                   "fix the cause named above (often a missing privilege) and run the precheck again",
                                   FixTarget::TaskFile,
                                   {}});
    }
}

std::unique_ptr<SqlSession> connect(PrecheckReport& report, bool upstream, const ServerSettings& settings) {
    try {
        return upstream ? connectUpstreamSession(settings) : connectDownstreamSession(settings);
    } catch (const std::exception& e) {
        report.findings.push_back({upstream ? "upstream.connection" : "downstream.connection",
                                   Severity::Error,
                                   std::string(upstream ? "upstream " : "downstream ") + settings.describe(),
                                   e.what(),
                                   "nothing on this side can be checked, and the task cannot start",
                                   upstream ? "from: {host, port, user, password} in the source file"
                                            : "target-database: {host, port, user, "
                                              "password} in the task file",
                                   upstream ? FixTarget::SourceFile : FixTarget::TaskFile,
                                   {}});
        return nullptr;
    }
}

bool isOn(const std::string& value) {
    return value == "1" || value == "ON" || value == "on" || value == "true";
}

StartPoint startPoint(SqlSession* downstream, const task::TaskSetup& setup) {
    if (downstream) {
        try {
            auto rows =
                downstream->query("SELECT binlog_name, binlog_pos FROM " +
                                  filter::TableName{setup.metaSchema, setup.taskName + "_syncer_checkpoint"}.quoted() +
                                  " WHERE id = " + sqlString(setup.sourceId) + " AND is_global = 1");
            if (!rows.empty() && rows.front().size() >= 2 && rows.front()[0] && !rows.front()[0]->empty()) {
                return {"the persisted checkpoint", *rows.front()[0], std::stoull(rows.front()[1].value_or("4"))};
            }
        } catch (const std::exception&) {
            // No checkpoint table yet: the start comes from the meta.
        }
    }
    return {"the task's meta", setup.metaBinlogName, setup.metaBinlogPos};
}

std::string createStatementFor(SqlSession& upstream, const TableMapping& mapping) {
    auto rows = upstream.query("SHOW CREATE TABLE " + mapping.upstream.quoted());
    if (rows.empty() || rows.front().size() < 2 || !rows.front()[1]) {
        return {};
    }
    std::string create = *rows.front()[1];
    const std::string prefix = "CREATE TABLE " + filter::TableName::quote(mapping.upstream.table);
    if (create.rfind(prefix, 0) != 0) {
        return {};
    }
    return "CREATE TABLE " + mapping.downstream.quoted() + create.substr(prefix.size());
}

}  // namespace

PrecheckReport runPrecheck(const task::TaskSetup& setup, const PrecheckOptions& options) {
    PrecheckReport report;
    report.task = setup.taskName;
    report.sourceId = setup.sourceId;
    report.upstream = setup.upstream.describe();
    report.downstream = setup.downstream.describe();
    auto upstream = connect(report, true, setup.upstream);
    auto downstream = connect(report, false, setup.downstream);

    ServerFacts upFacts;
    std::vector<TableMapping> mappings;
    if (upstream) {
        runArea(report, "upstream settings", [&] {
            return checkUpstreamSettings(*upstream, {setup.enableGtid, options.expectedLag});
        });
        runArea(report, "upstream tables", [&] {
            filter::BlockAllowList allowAll;
            const filter::BlockAllowList& allow = setup.blockAllow ? *setup.blockAllow : allowAll;
            upFacts = readServerFacts(*upstream, [&](const filter::TableName& name) {
                return name.schema != setup.metaSchema && allow.allows(name);
            });
            std::vector<Finding> findings;
            for (const auto& table : upFacts.tables) {
                try {
                    mappings.push_back({table.name, setup.router ? setup.router->route(table.name) : table.name});
                } catch (const std::exception& e) {
                    findings.push_back({"route.ambiguous",
                                        Severity::Error,
                                        table.name.quoted(),
                                        e.what(),
                                        "the first row of this table stops the task",
                                        "keep one matching route rule",
                                        FixTarget::TaskFile,
                                        {}});
                }
            }
            auto onlineFindings = checkOnlineDdlTables(mappings, setup.onlineDdl.get());
            findings.insert(findings.end(), onlineFindings.begin(), onlineFindings.end());
            if (setup.onlineDdl) {
                mappings = withoutToolTables(mappings, *setup.onlineDdl);  // never replicated
            }
            report.tablesChecked = mappings.size();
            if (mappings.empty()) {
                findings.push_back({"upstream.no_tables",
                                    Severity::Warning,
                                    upstream->server(),
                                    "no existing upstream table passes the task's block-allow list (or the user "
                                    "cannot see any: information_schema hides tables without a privilege)",
                                    "nothing can be checked for tables; the task only replicates tables created "
                                    "after its start",
                                    "check block-allow-list in the task file, and GRANT SELECT ON `schema`.* to "
                                    "the replication user",
                                    FixTarget::TaskFile,
                                    {}});
            }
            auto tableFindings = checkUpstreamTables(upFacts, mappings);
            auto routeFindings = checkRoutes(mappings);
            auto shardFindings = checkShardTables(upFacts, mappings, upstream->server(), setup.sourceId);
            findings.insert(findings.end(), tableFindings.begin(), tableFindings.end());
            findings.insert(findings.end(), routeFindings.begin(), routeFindings.end());
            findings.insert(findings.end(), shardFindings.begin(), shardFindings.end());
            return findings;
        });
        runArea(report, "upstream grants", [&] {
            std::set<std::string> schemas;
            for (const auto& mapping : mappings) {
                schemas.insert(mapping.upstream.schema);
            }
            return checkUpstreamGrants(*upstream, schemas);
        });
        runArea(report, "start position",
                [&] { return checkStartPoint(*upstream, startPoint(downstream.get(), setup)); });
    }
    if (downstream) {
        std::set<std::string> targetSchemas;
        std::map<std::string, std::string> targetToUpstream;
        std::set<std::string> targets;
        for (const auto& mapping : mappings) {
            targetSchemas.insert(mapping.downstream.schema);
            targetToUpstream.emplace(mapping.downstream.schema, mapping.upstream.schema);
            targets.insert(mapping.downstream.quoted());
        }
        runArea(report, "downstream privileges",
                [&] { return checkDownstreamPrivileges(*downstream, targetSchemas, setup.metaSchema); });
        if (upstream) {
            runArea(report, "downstream settings", [&] {
                std::optional<long long> packet;
                if (auto value = upstream->globalVariable("max_allowed_packet"); value && !value->empty()) {
                    packet = std::stoll(*value);
                }
                return checkMaxAllowedPacket(*downstream, packet);
            });
            runArea(report, "downstream tables", [&] {
                ServerFacts downFacts = readServerFacts(
                    *downstream, [&](const filter::TableName& name) { return targets.count(name.quoted()) != 0; });
                auto session = setup.downstreamSession.find("foreign_key_checks");
                DownstreamRuleSettings settings;
                settings.foreignKeyChecks = session != setup.downstreamSession.end() && isOn(session->second);
                settings.createStatementFor = [&](const TableMapping& mapping) {
                    return createStatementFor(*upstream, mapping);
                };
                auto findings = checkDownstreamTables(upFacts, downFacts, mappings, settings);
                auto charsets = checkCharsets(*upstream, *downstream, upFacts, downFacts, targetToUpstream);
                findings.insert(findings.end(), charsets.begin(), charsets.end());
                return findings;
            });
        }
    }
    std::stable_sort(report.findings.begin(), report.findings.end(),
                     [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
    return report;
}

}  // namespace syncscope::precheck
