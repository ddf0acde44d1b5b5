// The table checks of the precheck, as rules over facts read from both servers (server_facts.h):
// keys the engine can find rows by, collations of keys, sequences and types it cannot replicate,
// tables that routes merge, and downstream tables that differ from their upstream or act on their
// own (triggers, cascading foreign keys, generated columns, non-transactional engines).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "engine/filter/table_name.h"
#include "engine/precheck/finding.h"
#include "engine/precheck/server_facts.h"

namespace syncscope::precheck {

// One replicated upstream table and the downstream table its rows go to (after routes).
struct TableMapping {
    filter::TableName upstream;
    filter::TableName downstream;
};

struct DownstreamRuleSettings {
    // The task's apply sessions run with foreign_key_checks=1 (target-database.session); the engine's
    // default is 0, as DM's.
    bool foreignKeyChecks = false;
    // The upstream's SHOW CREATE TABLE rewritten for the downstream name; empty when unknown.
    std::function<std::string(const TableMapping&)> createStatementFor;
};

std::vector<Finding> checkUpstreamTables(const ServerFacts& upstream, const std::vector<TableMapping>& mappings);
std::vector<Finding> checkRoutes(const std::vector<TableMapping>& mappings);
std::vector<Finding> checkDownstreamTables(const ServerFacts& upstream, const ServerFacts& downstream,
                                           const std::vector<TableMapping>& mappings,
                                           const DownstreamRuleSettings& settings);

// Whether the engine decodes and applies columns of this information_schema DATA_TYPE.
bool isSupportedDataType(const std::string& dataType);

}  // namespace syncscope::precheck
