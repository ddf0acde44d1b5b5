// One statement for the downstream: SQL text with ? placeholders and the values bound to them. The
// text depends only on the statement's shape (table, columns, row count, NULL pattern of the WHERE),
// so it is also the key of the prepared-statement cache.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "engine/apply/sql_value.h"
#include "engine/schema/table_schema.h"

namespace syncscope::apply {

struct DmlStatement {
    std::string sql;
    std::vector<const SqlValue*> params;  // point into the RowChanges the statement was built from
    size_t rowCount = 0;                  // the row steps merged into it
    // Array binding: `sql` is one row's statement and `params` hold arrayRows rows of values one after
    // another; the server runs it once per row, in order, in one round trip (DmlSession::takesArrays).
    // 0: `sql` has a placeholder for every value.
    size_t arrayRows = 0;
    // The table it writes (the RowChange's schema), and how many rows an UPDATE or DELETE of it must
    // find: fewer affected rows mean rows the downstream did not have (drift). 0 when it cannot tell.
    const schema::TableSchema* table = nullptr;
    size_t mustMatch = 0;
    // Some of its rows are a DELETE and INSERT of one row folded into an UPDATE (key_folding.h): when it
    // finds fewer than mustMatch rows, the batch must run again without folding (DmlBuilder::build), so
    // that the INSERT writes the row the downstream lacks, as the upstream's changes one by one would.
    bool unfoldWhenUnmatched = false;
    // foreign_key_checks for this statement when it must differ from the session's (a cascading parent's
    // DELETE or UPDATE runs as the upstream's session ran it); unset: the session's setting.
    std::optional<bool> foreignKeyChecks;
    // A safe-mode replay of a cascade child's row, run with foreign_key_checks=1: when its parent row is gone
    // downstream (the parent's DELETE was applied before the restart and its cascade removed this row),
    // the row is dropped instead of re-created as an orphan the upstream does not have (error 1452).
    bool dropIfParentMissing = false;
    // A safe-mode replay of a key-moving UPDATE of a cascading parent, run as a plain UPDATE by the old key
    // (deleting the old key would cascade). Upstream the new key was free and the old row had no children
    // its ON UPDATE refused, and the family's changes run in binlog order: a duplicate key (1062, 1761,
    // 1762) or a child still referencing the old key (1451) downstream can only come from later changes,
    // applied before the restart, so this UPDATE was applied then too, and the later changes are replayed
    // after it. The old key's row may still be there all the same: the replay re-creates it when the row
    // was inserted inside the replayed stretch (soak seeds 110001, 111058). So on 1062 the row holding the
    // new key (a later one, replayed after this) is deleted without cascading (`clearNewKey`) and the
    // UPDATE runs again, leaving what the upstream had after the move, its children moved by the
    // downstream's own ON UPDATE; if it still fails, both are undone (a savepoint) and the move is
    // skipped. The other errors skip it at once, instead of stopping the task.
    bool skipWhenDownstreamIsPast = false;
    std::vector<DmlStatement> clearNewKey;  // with skipWhenDownstreamIsPast: DELETE by the new key, checks off
    // A safe-mode UPDATE by the row key that stands for a write where REPLACE's delete would cascade: when
    // it finds no row (CLIENT_FOUND_ROWS: found, changed or not), this INSERT of the after image runs.
    std::vector<DmlStatement> insertWhenUnmatched;

    // The SQL with its values written after it, for error reports: "... /* values: 1, 'x' */".
    std::string describe() const;
};

}  // namespace syncscope::apply
