// One block-allow list as the task file names it (DM's `block-allow-list` entry, formerly
// `black-white-list`). Every name may be a wildcard pattern or `~regex`.
#pragma once

#include <string>
#include <vector>

#include "engine/filter/table_name.h"

namespace syncscope::filter {

struct BlockAllowRules {
    std::vector<std::string> doDbs;
    std::vector<std::string> ignoreDbs;
    std::vector<TableName> doTables;      // {db-name, tbl-name}
    std::vector<TableName> ignoreTables;  // {db-name, tbl-name}

    bool empty() const { return doDbs.empty() && ignoreDbs.empty() && doTables.empty() && ignoreTables.empty(); }
    bool operator==(const BlockAllowRules&) const = default;
};

}  // namespace syncscope::filter
