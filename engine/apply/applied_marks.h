// Applied marks: exactly-once for tables without a key. Safe mode makes a replayed row of a keyed table
// idempotent (REPLACE, upsert by key); a table without any key has nothing to find a row by, so a replayed
// INSERT doubles it and a replayed DELETE or UPDATE hits a second equal row. Such a table's rows are
// applied in binlog order by one worker at a time (one causality key), and each batch that writes them
// also writes, in the same downstream transaction, the last of them per table: `<meta>`.`<task>_syncscope_applied`,
// one row per (source, target table) with the rows event's end position and the row's index in it.
// After an unclean stop the pipeline skips the rows of the replayed window at or before their table's mark:
// they are committed downstream, exactly as the mark says (engine/task/sync_pipeline.cpp).
#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "engine/apply/dml_statement.h"
#include "engine/apply/row_change.h"
#include "engine/binlog/binlog_position.h"
#include "engine/schema/table_name.h"

namespace syncscope::apply {

// The last row of a table committed downstream: the end position of its rows event and its index there.
struct AppliedMark {
    binlog::BinlogPosition event;
    uint32_t row = 0;

    std::strong_ordering operator<=>(const AppliedMark& other) const = default;
    bool operator==(const AppliedMark& other) const = default;
    std::string text() const;  // "mysql-bin.000003:1234 row 7"
};

using AppliedMarks = std::map<schema::TableName, AppliedMark>;

// The marks table of a task: its name, definition and the statements on it (values always bound).
struct AppliedMarksTable {
    std::string metaSchema;
    std::string taskName;

    static std::string tableNameOf(const std::string& taskName);  // "<task>_syncscope_applied"
    std::string qualifiedName() const;                            // `meta`.`task_syncscope_applied`
    std::string createSql() const;
    std::string selectSql() const;  // one source's rows: ? = source id
};

// Builds, for one worker, the statement that records the marks of a batch: the last change of each table
// in the batch whose `recordApplied` is set. The values it binds live here until the next build.
class AppliedMarkWriter {
public:
    AppliedMarkWriter(AppliedMarksTable table, std::string sourceId);

    // False when no change of the batch records a mark (nothing to execute).
    bool build(std::span<const RowChange> batch, DmlStatement& statement);

private:
    std::string qualifiedName_;
    std::string sourceId_;
    std::vector<SqlValue> values_;
    std::vector<const RowChange*> last_;  // per table of the batch, in first-seen order
};

}  // namespace syncscope::apply
