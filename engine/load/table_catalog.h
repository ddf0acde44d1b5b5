// Which upstream tables a load copies and how: the block-allow list and the routes applied, the
// columns to copy (generated ones are computed again downstream), the key the rows are cut by, and
// the size estimates progress is measured against. Read in three queries, whatever the table count.
#pragma once

#include <vector>

#include "engine/filter/block_allow_list.h"
#include "engine/filter/table_router.h"
#include "engine/load/load_plan.h"
#include "engine/source/upstream_connection.h"

namespace syncscope::load {

// Throws LoadError (a route that matches twice, a query the user may not run) naming what failed.
std::vector<LoadTable> discoverTables(source::UpstreamConnection& upstream, const filter::BlockAllowList& blockAllow,
                                      const filter::TableRouter& router);

}  // namespace syncscope::load
