// How the GUI names a running online schema change (online-ddl) in one line: the table's row, the task
// view's header. "pt-osc _orders_new: 48,213 rows copied, waiting for the swap".
#pragma once

#include <QString>

#include "engine/task/status_snapshot.h"

namespace syncscope::ui {

// "pt-osc", "gh-ost" or "custom tool".
QString shortToolName(const task::OnlineChangeView& change);
// The tool, its shadow table and where the change stands.
QString onlineChangeSummary(const task::OnlineChangeView& change);
// Every detail, for a tooltip: the shadow, since where, the copy, the DDLs that run at the swap.
QString onlineChangeDetails(const task::OnlineChangeView& change);

}  // namespace syncscope::ui
