// Turns row changes into downstream SQL with every value bound and every name quoted. Safe mode makes
// a change idempotent without deleting what the upstream still has (docs/design.md invariant 10): INSERT and
// a key-keeping UPDATE as an upsert (INSERT ... ON DUPLICATE KEY UPDATE every column) where the row key
// is the table's only unique index, else REPLACE; a key-moving UPDATE as DELETE by the old key + that
// write; a change whose only idempotent form would delete a row that a foreign key cascades from, with
// foreign_key_checks on, is refused (SafeModeRefusal); `multiple-rows` puts a batch's changes of each table together
// (order kept within each table), orders them by key round where the downstream allows it (key_rounds.h), and merges
// consecutive inserts into one multi-row INSERT/REPLACE, deletes into one DELETE ... WHERE key IN (...) and key-keeping
// updates of such tables into one INSERT ... ON DUPLICATE KEY UPDATE; `compact` first folds each row's changes
// into their net effect where that is exact (key_folding.h).
#pragma once

#include <span>
#include <vector>

#include "engine/apply/dml_statement.h"
#include "engine/apply/row_change.h"
#include "engine/common/error.h"

namespace syncscope::apply {

// A safe-mode change that has no idempotent form free of deletes while a downstream foreign key
// references its table and the workers' session has foreign_key_checks=1 (a REPLACE or DELETE would
// cascade to the child rows). Needs the DBA: never retried.
class SafeModeRefusal : public Error {
public:
    SafeModeRefusal(const std::string& message, RowChange change) : Error(message), change_(std::move(change)) {}
    const RowChange& change() const { return change_; }

private:
    RowChange change_;
};

class DmlBuilder {
public:
    // Caps the rows of one merged statement, so that statement shapes (and the prepared statements
    // cached for them) stay few and no statement nears the server's 65,535 placeholders.
    static constexpr size_t kDefaultMaxRowsPerStatement = 64;
    static constexpr size_t kMaxPlaceholders = 65535;

    // foreignKeyChecks: the workers' session has foreign_key_checks=1, so a delete cascades downstream.
    // compact: with multipleRows (and checks off), a batch's changes of one row fold into their net
    // effect where that is exact (key_folding.h).
    explicit DmlBuilder(bool multipleRows, size_t maxRowsPerStatement = kDefaultMaxRowsPerStatement,
                        bool foreignKeyChecks = false, bool compact = false)
        : multipleRows_(multipleRows),
          maxRowsPerStatement_(maxRowsPerStatement == 0 ? 1 : maxRowsPerStatement),
          foreignKeyChecks_(foreignKeyChecks),
          compact_(compact && multipleRows && !foreignKeyChecks) {}

    // The statements that apply `changes` in order. Throws apply::Error when a change does not fit its
    // table (an image with the wrong number of values), SafeModeRefusal as said above.
    // With `arrays`, a merged group becomes one row's statement bound over the rows' values
    // (DmlStatement::arrayRows) instead of a statement with a placeholder per value: a table's statements
    // then have one shape per kind whatever the row count (a cache of prepared statements that stays
    // warm), and updates go by key one row at a time instead of through CASE over the whole group.
    // With `fold` false, `compact` is off for this batch: a batch whose folded UPDATE found no row
    // (DmlStatement::unfoldWhenUnmatched) runs again change by change.
    std::vector<DmlStatement> build(std::span<const RowChange> changes, bool arrays = false, bool fold = true) const;

    bool multipleRows() const { return multipleRows_; }

private:
    bool multipleRows_;
    size_t maxRowsPerStatement_;
    bool foreignKeyChecks_;
    bool compact_;
};

}  // namespace syncscope::apply
