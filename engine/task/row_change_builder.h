// Turns one decoded rows event into the row changes the workers apply: block-allow list, event filter
// and route first, then the table's schema and every value as a bound SQL value.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/apply/row_change.h"
#include "engine/binlog/rows_event.h"
#include "engine/schema/schema_tracker.h"
#include "engine/task/task_setup.h"

namespace syncscope::task {

struct RowsDecision {
    enum class Kind { Apply, Ignore, Error };
    Kind kind = Kind::Apply;
    std::string reason;  // for Ignore (which rule) and Error (what the rule says)
};

class RowChangeBuilder {
public:
    RowChangeBuilder(const TaskSetup& setup, schema::SchemaTracker& schemas);

    // Whether the filters replicate this event's rows.
    RowsDecision decide(const binlog::RowsEvent& rows) const;

    // Appends one change per row. Throws syncscope::Error naming the table when the images do not
    // fit the table (e.g. binlog_row_image is not FULL).
    void build(const binlog::RowsEvent& rows, apply::SourcePoint source, uint64_t transactionSeq, bool safeMode,
               std::vector<apply::RowChange>& out);

private:
    schema::TableName targetOf(const binlog::TableMap& table) const;

    const TaskSetup& setup_;
    schema::SchemaTracker& schemas_;
};

}  // namespace syncscope::task
