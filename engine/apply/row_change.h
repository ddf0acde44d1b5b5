// One row to apply downstream, after filters and routes: the target table, the operation, the row
// images as bound values, and where it came from in the upstream's binlog (for error reports).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/apply/sql_value.h"
#include "engine/schema/table_schema.h"

namespace syncscope::apply {

enum class RowOp : uint8_t { Insert, Update, Delete };

const char* rowOpName(RowOp op);  // "insert", "update", "delete"

// The upstream event a row came from, as text so that any front end can show it.
struct SourcePoint {
    std::string file;
    uint64_t pos = 0;  // end position of the rows event
    std::string gtid;  // GTID set after the event's transaction, empty without GTIDs

    std::string text() const;  // "mysql-bin.000003:1234" (+ " gtid ...")
};

// What the row changes of one rows event share, allocated once per event: where they came from, and
// the bytes of their text values (borrowed by those values, see SqlValue).
struct RowsOrigin {
    SourcePoint source;
    std::string text;  // reserved once; never appended past its capacity while values borrow from it
};

// The most causality keys a change carries into its batch: an update that changes the primary key and two
// unique values has six.
inline constexpr size_t kCarriedKeys = 6;

struct RowChange {
    // Columns, keys and the target name (after routing); never null.
    std::shared_ptr<const schema::TableSchema> table;
    RowOp op = RowOp::Insert;
    std::vector<SqlValue> before;  // update and delete: one value per column
    std::vector<SqlValue> after;   // insert and update: one value per column
    // Where it came from and the text its values borrow; shared by the rows of one event. Null: unknown.
    std::shared_ptr<const RowsOrigin> origin;
    uint64_t transactionSeq = 0;  // the syncer's number of the upstream transaction
    // Written so that applying it twice leaves the same rows (safe mode's forms, docs/design.md): after a
    // resume, until the exit-safe point.
    bool safeMode = false;
    // The upstream session had foreign_key_checks on (the rows event's flags): a DELETE or UPDATE of a
    // parent row cascaded to its children there, so it must cascade downstream too.
    bool upstreamForeignKeyChecks = true;
    // A table without a key: the worker records this row as its table's applied mark in the transaction
    // that commits it (applied_marks.h), at `markAt` (null: where it was read, source()) and rowInEvent.
    bool recordApplied = false;
    // The row's index in its rows event (0 for the first); for an XA branch's row, its index in the branch.
    uint32_t rowInEvent = 0;
    // Where the row is applied when that is not where it was read: an XA branch's rows at its XA COMMIT,
    // so that a table's marks follow the order its rows commit in.
    std::shared_ptr<const SourcePoint> markAt;
    // The causality keys the worker pool dispatched this change by (causality_keys.h: the row key and every
    // unique value of both images, folded as the downstream compares), so that its worker orders a batch
    // by conflict rounds (key_rounds.h) without folding again. carriedKeys == 0: not known (a change made
    // outside the pool, or one with more keys than fit), and its table's changes in the batch keep their order.
    std::array<uint64_t, kCarriedKeys> keys{};
    uint8_t carriedKeys = 0;

    // Where in the upstream's binlog it came from (an empty point when unknown).
    const SourcePoint& source() const;
    // Gives the change an origin of its own (a change made outside the pipeline, e.g. a repair).
    void setSource(SourcePoint point);
    const schema::TableName& target() const { return table->name(); }
    // "update of `db`.`t` at mysql-bin.000003:1234, key id=5" plus both images, for error reports.
    std::string describe() const;
    // Whether an update changes a value of the row key (decides DELETE+REPLACE in safe mode).
    bool keyChanged() const;
    // Bytes this change holds in memory (values, their text, where it came from): what the apply
    // queues count against their byte budget.
    size_t footprintBytes() const;
};

// "(id=5, name='x')" over the given columns of an image.
std::string describeImage(const schema::TableSchema& table, const std::vector<SqlValue>& image);

}  // namespace syncscope::apply
