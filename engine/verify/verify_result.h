// What a verify found, per table: where and how far it got, and every row that differs with its key
// and the differing columns.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/binlog/location.h"
#include "engine/schema/table_name.h"
#include "engine/verify/compared_table.h"

namespace syncscope::verify {

enum class DifferenceKind : uint8_t {
    Missing,    // the upstream has the row, the downstream does not
    Extra,      // the downstream has a row the upstream does not
    Different,  // both have the key, some columns differ
};

const char* differenceKindName(DifferenceKind kind);  // "missing", "extra", "different"

struct RowDifference {
    DifferenceKind kind = DifferenceKind::Different;
    RowValues key;                              // empty for a table without a key
    RowValues upstreamRow;                      // empty when missing upstream
    RowValues downstreamRow;                    // empty when missing downstream
    std::vector<std::string> differingColumns;  // Different only
    // Keyless tables: how many more copies of this row one side has than the other.
    uint64_t count = 1;
    // False when the task had not applied up to the upstream's locked point before the settle time
    // ran out: the row may still have been in flight.
    bool settled = true;
};

// What a repair did for one table.
struct RepairOutcome {
    std::string sql;  // every statement with its values as literals, one per line
    size_t statements = 0;
    bool applied = false;        // false: shown only (no --repair, or a keyless table without confirmation)
    std::string skippedBecause;  // why it was not applied, when it was not
    std::string error;           // the downstream's error when applying failed (nothing of the table committed)
    bool rechecked = false;      // the repaired rows were compared again
    size_t stillDifferent = 0;   // differences the re-check found
};

enum class TableOutcome : uint8_t { Equal, Different, Failed, Cancelled };

const char* tableOutcomeName(TableOutcome outcome);  // "equal", "different", "failed", "cancelled"

struct TableVerifyResult {
    schema::TableName upstream;
    schema::TableName downstream;
    TableOutcome outcome = TableOutcome::Equal;
    std::string problem;  // Failed: what went wrong (a missing table, columns that differ, a lost connection)
    std::vector<std::string> notes;
    std::vector<std::string> columns;  // the compared columns, naming the values of each row
    std::vector<size_t> keyColumns;    // positions into columns; empty without a key
    bool keyless = false;
    binlog::Location verifiedAt;  // the upstream's position when the last chunk was compared
    uint64_t chunksDone = 0;
    uint64_t chunksTotal = 0;      // an estimate until the table is done
    uint64_t chunksRechecked = 0;  // chunks whose checksums differed while rows were in flight
    uint64_t rowsInFlight = 0;     // rows that differed when read and were equal once the task applied them
    uint64_t rowsCompared = 0;
    std::vector<RowDifference> differences;
    std::optional<RepairOutcome> repair;  // when a repair was planned
    double seconds = 0;
};

}  // namespace syncscope::verify
