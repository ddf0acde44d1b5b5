// The SQL that makes the downstream equal to the upstream for a set of differences: a missing row is
// INSERTed, an extra row DELETEd by its key, a different row UPDATEd by its key (columns only the
// downstream has are kept). Statements come from the apply layer's builder, so every value is bound
// and every name quoted exactly as the task's own changes are; a table without a key gets one
// statement per copy (DELETE ... LIMIT 1).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/apply/dml_statement.h"
#include "engine/apply/row_change.h"
#include "engine/verify/compared_table.h"
#include "engine/verify/verify_result.h"

namespace syncscope::verify {

class RepairPlan {
public:
    RepairPlan(const ComparedTable& table, const std::vector<RowDifference>& differences);
    // Changes made elsewhere (a skip window's final images).
    explicit RepairPlan(std::vector<apply::RowChange> changes) : changes_(std::move(changes)) {}

    const std::vector<apply::RowChange>& changes() const { return changes_; }
    // The statements, bound; they point into this plan, which must outlive them.
    std::vector<apply::DmlStatement> statements() const;
    // The same statements with their values written in as SQL literals, one per line ending in ';',
    // for review and for a file a DBA can run with the mysql client.
    std::string sqlText() const;

private:
    std::shared_ptr<const schema::TableSchema> target_;
    std::vector<apply::RowChange> changes_;
};

// `sql` with each ? outside quotes replaced by the literal of the next value: NULL, numbers as they
// are, text quoted ('' and \\ doubled), bytes as 0x... hex.
std::string withLiterals(const apply::DmlStatement& statement);

}  // namespace syncscope::verify
