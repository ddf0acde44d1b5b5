// Differences as JSON, one shape for the CLI's report and the audit log's repair entries (the CLI's and
// the GUI's): values as text when valid UTF-8, else 0x... hex; NULL as null; rows by column name.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "engine/verify/repair_plan.h"
#include "engine/verify/verify_result.h"

namespace syncscope::verify {

// A value as a person reads it: the text when it is valid UTF-8, else 0x... hex; "NULL" for NULL.
std::string valueText(const std::optional<std::string>& value);
nlohmann::json valueJson(const std::optional<std::string>& value);
nlohmann::json rowJson(const std::vector<std::string>& columns, const RowValues& row);
nlohmann::json keyJson(const TableVerifyResult& table, const RowValues& key);

// One difference: kind, key (or count for a table without a key), both rows, the differing columns.
nlohmann::json rowDifferenceJson(const TableVerifyResult& table, const RowDifference& difference);

// The details of a "verify-repair" audit entry: both tables, the SQL and every difference with its row
// images.
nlohmann::json repairAuditDetails(const ComparedTable& table, const std::vector<RowDifference>& differences,
                                  const RepairPlan& plan);

}  // namespace syncscope::verify
