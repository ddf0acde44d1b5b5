// Turns row changes into downstream SQL with every value bound and every name quoted. Safe mode makes
// a change idempotent (INSERT as REPLACE, UPDATE as DELETE by the old key + REPLACE when the key
// changed, else REPLACE); `multiple-rows` puts a batch's changes of each table together (order kept
// within each table), orders them by key round where the downstream allows it (key_rounds.h), and
// merges consecutive inserts into one multi-row INSERT/REPLACE, deletes into one DELETE ... WHERE key
// IN (...) and key-keeping updates of such tables into one INSERT ... ON DUPLICATE KEY UPDATE.
#pragma once

#include <span>
#include <vector>

#include "engine/apply/dml_statement.h"
#include "engine/apply/row_change.h"

namespace syncscope::apply {

class DmlBuilder {
public:
    // Caps the rows of one merged statement, so that statement shapes (and the prepared statements
    // cached for them) stay few and no statement nears the server's 65,535 placeholders.
    static constexpr size_t kDefaultMaxRowsPerStatement = 64;
    static constexpr size_t kMaxPlaceholders = 65535;

    explicit DmlBuilder(bool multipleRows, size_t maxRowsPerStatement = kDefaultMaxRowsPerStatement)
        : multipleRows_(multipleRows), maxRowsPerStatement_(maxRowsPerStatement == 0 ? 1 : maxRowsPerStatement) {}

    // The statements that apply `changes` in order. Throws apply::Error when a change does not fit its
    // table (an image with the wrong number of values).
    std::vector<DmlStatement> build(std::span<const RowChange> changes) const;

    bool multipleRows() const { return multipleRows_; }

private:
    bool multipleRows_;
    size_t maxRowsPerStatement_;
};

}  // namespace syncscope::apply
