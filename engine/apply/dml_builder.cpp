#include "engine/apply/dml_builder.h"

#include <optional>

#include <algorithm>
#include <cctype>
#include <string_view>

#include "engine/apply/key_folding.h"
#include "engine/apply/key_rounds.h"
#include "engine/apply/quoted_name.h"
#include "engine/common/error.h"

namespace syncscope::apply {

namespace {

using schema::RowKeyKind;
using schema::TableSchema;

// One SQL-level step of a change. A change becomes one step, or two (safe-mode DELETE + write).
enum class StepKind { Write, Delete, Update };

// How a Write step writes: INSERT, REPLACE, or INSERT ... ON DUPLICATE KEY UPDATE every column.
enum class WriteMode { Insert, Replace, Upsert };

struct Step {
    StepKind kind;
    WriteMode write = WriteMode::Insert;
    const RowChange* change;
    const std::vector<SqlValue>* image;  // Write: after; Delete: before; Update: before (WHERE)
};

// A DELETE or UPDATE of a parent row whose downstream children cascade: it runs with foreign_key_checks as
// the upstream session had it, so the downstream cascades exactly when the upstream did (the binlog
// does not carry the cascaded rows). Anything else runs with the session's own setting.
// A safe-mode write of a row that a parent's cascade changes, logged by an upstream session with checks on
// (so its parent existed upstream when it was written). Replayed after a restart, the parent may be gone
// downstream: its later DELETE was applied before the restart and cascaded this row away, and the replayed
// DELETE finds nothing to cascade. Written with checks on, such a row fails with 1452 and is dropped
// (DmlStatement::dropIfParentMissing) instead of staying as an orphan the upstream does not have. Only
// where the write cannot cascade itself: an upsert, or a REPLACE of a table that is no cascading parent.
// A safe-mode key move of a cascading parent's row, replayed as a plain UPDATE by the old key (see expand).
bool replayedCascadingKeyMove(const Step& step) {
    const RowChange& change = *step.change;
    return step.kind == StepKind::Update && change.safeMode && change.keyChanged() &&
           change.table->cascadeFamily().cascadesToChildren && change.table->rowKey().kind != RowKeyKind::AllColumns;
}

bool replayedCascadeChildWrite(const Step& step) {
    const RowChange& change = *step.change;
    const schema::CascadeFamily& family = change.table->cascadeFamily();
    return step.kind == StepKind::Write && change.safeMode && change.upstreamForeignKeyChecks &&
           family.changedByParents &&
           (step.write == WriteMode::Upsert || (step.write == WriteMode::Replace && !family.cascadesToChildren));
}

std::optional<bool> foreignKeyChecksFor(const Step& step) {
    if (step.change->table->cascadeFamily().cascadesToChildren &&
        (step.kind == StepKind::Delete || step.kind == StepKind::Update)) {
        return step.change->upstreamForeignKeyChecks;
    }
    if (replayedCascadeChildWrite(step)) {
        return true;
    }
    return std::nullopt;
}

void checkImage(const RowChange& change, const std::vector<SqlValue>& image, const char* which) {
    if (image.size() != change.table->columns().size()) {
        throw Error("the " + std::string(which) + " image of " + std::string(rowOpName(change.op)) + " of " +
                    change.target().text() + " at " + change.source().text() + " has " + std::to_string(image.size()) +
                    " values but the table has " + std::to_string(change.table->columns().size()) + " columns");
    }
}

[[noreturn]] void refuse(const RowChange& change, const std::string& why) {
    const TableSchema& table = *change.table;
    std::string keys;
    for (const auto& key : table.referencingForeignKeys()) {
        keys += (keys.empty() ? "" : ", ") + key;
    }
    throw SafeModeRefusal("safe mode cannot re-apply " + change.describe() + " without deleting: " + why +
                              ", and with foreign_key_checks=1 in the target session the delete would cascade "
                              "through " +
                              keys +
                              ". Nothing was written. Set foreign_key_checks=0 in the task's target session "
                              "(then InnoDB does not cascade), or compare the row with the upstream and skip it",
                          change);
}

// The idempotent write of a safe-mode change's after image: an upsert where that is exact (the row key
// is the downstream's only unique index), else REPLACE, which deletes every row it collides with.
WriteMode safeWrite(const RowChange& change, bool foreignKeyChecks) {
    const TableSchema& table = *change.table;
    if (table.rowKeyIsOnlyUniqueIndex()) {
        return WriteMode::Upsert;
    }
    if (foreignKeyChecks && !table.referencingForeignKeys().empty()) {
        refuse(change,
               "the table has another unique index, triggers or columns of its own downstream, so only "
               "REPLACE (a delete and an insert) is exact");
    }
    return WriteMode::Replace;
}

void expand(const RowChange& change, bool foreignKeyChecks, std::vector<Step>& steps) {
    const bool noKey = change.table->rowKey().kind == RowKeyKind::AllColumns;
    switch (change.op) {
        case RowOp::Insert:
            checkImage(change, change.after, "after");
            // Without a key a replayed INSERT cannot be told from a second equal row, and deleting an
            // equal row first would delete rows the upstream still has (DESIGN.md invariant 10): it stays a
            // plain INSERT, so a keyless table replayed after a crash may get a duplicate (README). With a
            // unique index on nullable columns, a replayed row whose unique values are set finds itself
            // through that index: an upsert rewrites it instead of stopping on 1062 (a row whose unique
            // values are NULL collides with nothing and is inserted).
            steps.push_back({StepKind::Write,
                             !change.safeMode                                  ? WriteMode::Insert
                             : !noKey                                          ? safeWrite(change, foreignKeyChecks)
                             : change.table->downstreamUniqueIndexes().empty() ? WriteMode::Insert
                                                                               : WriteMode::Upsert,
                             &change, &change.after});
            return;
        case RowOp::Delete:
            checkImage(change, change.before, "before");
            steps.push_back({StepKind::Delete, WriteMode::Insert, &change, &change.before});
            return;
        case RowOp::Update:
            checkImage(change, change.before, "before");
            checkImage(change, change.after, "after");
            // Without a key safe mode changes one row found by the before image (LIMIT 1), as outside it:
            // deleting by the after image would remove equal rows the upstream still has.
            if (!change.safeMode || noKey) {
                steps.push_back({StepKind::Update, WriteMode::Insert, &change, &change.before});
                return;
            }
            if (change.keyChanged() && change.table->cascadeFamily().cascadesToChildren) {
                // Deleting the old key would cascade-delete the children an ON UPDATE CASCADE moves: a
                // plain UPDATE by the old key instead, which finds nothing when it was applied before.
                steps.push_back({StepKind::Update, WriteMode::Insert, &change, &change.before});
                return;
            }
            if (change.keyChanged()) {
                if (foreignKeyChecks && !change.table->referencingForeignKeys().empty()) {
                    refuse(change, "the update moves the row key, so the row under the old key must be deleted");
                }
                steps.push_back({StepKind::Delete, WriteMode::Insert, &change, &change.before});
            }
            steps.push_back({StepKind::Write, safeWrite(change, foreignKeyChecks), &change, &change.after});
            return;
    }
}

// Generated columns are left out: the downstream computes them and refuses a value for them (3105).
void appendColumnList(std::string& sql, const TableSchema& table) {
    sql += " (";
    for (size_t column : table.writtenColumns()) {
        if (column != table.writtenColumns().front()) {
            sql += ", ";
        }
        appendQuotedName(sql, table.columns()[column].name);
    }
    sql += ")";
}

void appendRowPlaceholders(std::string& sql, size_t columnCount) {
    sql += "(";
    for (size_t i = 0; i < columnCount; ++i) {
        sql += i == 0 ? "?" : ", ?";
    }
    sql += ")";
}

// Where a table has no key, a row is found by every column, and rows equal under a _ci collation ('e45' and
// 'é45') are different rows of which the upstream changed one (MariaDB's replica compares whole records
// byte for byte). A text value is compared in its column's character set's binary collation; "" where the
// column already compares bytes (binary types, _bin collations) or its collation is not known. The table's
// columns come from the binlog's table map (no type names), so the value's kind tells text from numbers
// (an ENUM sent as its index stays a number).
std::string exactCollationFor(const schema::SchemaColumn& column, const SqlValue& value) {
    constexpr std::string_view kBinary = "_bin";
    const std::string& collation = column.collation;
    const bool plainName = std::all_of(collation.begin(), collation.end(),
                                       [](unsigned char c) { return std::isalnum(c) != 0 || c == '_'; });
    const bool text = value.kind() == SqlValueKind::Text || value.kind() == SqlValueKind::Bytes;
    if (!text || !plainName || collation.find('_') == std::string::npos ||
        (collation.size() >= kBinary.size() &&
         collation.compare(collation.size() - kBinary.size(), kBinary.size(), kBinary) == 0)) {
        return {};
    }
    return collation.substr(0, collation.find('_')) + std::string(kBinary);
}

// "`a` = ? AND `b` IS NULL" over the row key; NULL never matches `=`, so it gets IS NULL. Without a key, text
// columns compare their bytes (exactCollationFor).
void appendKeyCondition(std::string& sql, const TableSchema& table, const std::vector<SqlValue>& image,
                        std::vector<const SqlValue*>& params) {
    const auto& key = table.rowKey().columns;
    const bool everyColumn = table.rowKey().kind == RowKeyKind::AllColumns;
    for (size_t i = 0; i < key.size(); ++i) {
        if (i != 0) {
            sql += " AND ";
        }
        appendQuotedName(sql, table.columns()[key[i]].name);
        const SqlValue& value = image[key[i]];
        if (std::string exact = everyColumn ? exactCollationFor(table.columns()[key[i]], value) : std::string();
            !exact.empty()) {
            sql += " COLLATE " + exact;
        }
        if (value.isNull()) {
            sql += " IS NULL";
        } else {
            sql += " = ?";
            params.push_back(&value);
        }
    }
    if (table.rowKey().kind == RowKeyKind::AllColumns) {
        sql += " LIMIT 1";  // rows equal in every column are interchangeable: change one of them
    }
}

bool keyHasNull(const TableSchema& table, const std::vector<SqlValue>& image) {
    for (size_t column : table.rowKey().columns) {
        if (image[column].isNull()) {
            return true;
        }
    }
    return false;
}

bool sameShape(const TableSchema& a, const TableSchema& b) {
    if (&a == &b) {
        return true;
    }
    if (a.name() != b.name() || a.columns().size() != b.columns().size() || a.rowKey().columns != b.rowKey().columns) {
        return false;
    }
    for (size_t i = 0; i < a.columns().size(); ++i) {
        if (a.columns()[i].name != b.columns()[i].name) {
            return false;
        }
    }
    return true;
}

// An update that may join others in one INSERT ... ON DUPLICATE KEY UPDATE (as DM's multiple-rows
// does): its key is unchanged and the downstream has no other unique index that the insert could
// collide on, so the statement changes exactly the row the UPDATE would. (Where the row is missing
// downstream it is inserted, so the downstream converges to the upstream instead of silently
// keeping the gap.) Rows of one statement are applied in order, so even one key twice is right.
bool upsertable(const Step& step) {
    return step.kind == StepKind::Update && step.change->table->rowKeyIsOnlyUniqueIndex() &&
           step.change->table->rowKey().kind != RowKeyKind::AllColumns && !step.change->keyChanged();
}

// Whether `next` can join the statement that `first` started.
bool canMerge(const Step& first, const Step& next) {
    // A replayed cascade child's write is alone in its statement: its failure drops only its own row.
    if (next.kind != first.kind || !sameShape(*first.change->table, *next.change->table) ||
        foreignKeyChecksFor(first) != foreignKeyChecksFor(next) || replayedCascadeChildWrite(first) ||
        replayedCascadeChildWrite(next)) {
        return false;
    }
    if (first.kind == StepKind::Write) {
        return next.write == first.write;
    }
    if (first.kind == StepKind::Delete) {
        const TableSchema& table = *first.change->table;
        // Safe-mode deletes (which may find their row gone) apart from the rest, whose misses are counted.
        return table.rowKey().kind != RowKeyKind::AllColumns && !keyHasNull(table, *next.image) &&
               !keyHasNull(table, *first.image) && next.change->safeMode == first.change->safeMode;
    }
    return upsertable(first) && upsertable(next);
}

DmlStatement buildWrite(std::span<const Step> steps) {
    const TableSchema& table = *steps.front().change->table;
    DmlStatement statement;
    statement.sql = steps.front().write == WriteMode::Replace ? "REPLACE INTO " : "INSERT INTO ";
    statement.sql += quoteTable(table.name());
    appendColumnList(statement.sql, table);
    statement.sql += " VALUES ";
    for (size_t row = 0; row < steps.size(); ++row) {
        if (row != 0) {
            statement.sql += ", ";
        }
        appendRowPlaceholders(statement.sql, table.writtenColumns().size());
        // The after image: what a write step writes, and what an update merged into an upsert leaves.
        for (size_t column : table.writtenColumns()) {
            statement.params.push_back(&steps[row].change->after[column]);
        }
    }
    return statement;
}

DmlStatement buildDelete(std::span<const Step> steps) {
    const TableSchema& table = *steps.front().change->table;
    DmlStatement statement;
    statement.sql = "DELETE FROM " + quoteTable(table.name()) + " WHERE ";
    if (steps.size() == 1) {
        appendKeyCondition(statement.sql, table, *steps.front().image, statement.params);
        return statement;
    }
    // Merged deletes never have a NULL in the key (see canMerge): a row-value IN list works.
    const auto& key = table.rowKey().columns;
    bool single = key.size() == 1;
    statement.sql += single ? "" : "(";
    for (size_t i = 0; i < key.size(); ++i) {
        if (i != 0) {
            statement.sql += ", ";
        }
        appendQuotedName(statement.sql, table.columns()[key[i]].name);
    }
    statement.sql += single ? " IN (" : ") IN (";
    for (size_t row = 0; row < steps.size(); ++row) {
        if (row != 0) {
            statement.sql += ", ";
        }
        if (single) {
            statement.sql += "?";
        } else {
            appendRowPlaceholders(statement.sql, key.size());
        }
        for (size_t column : key) {
            statement.params.push_back(&(*steps[row].image)[column]);
        }
    }
    statement.sql += ")";
    return statement;
}

DmlStatement buildUpdate(const Step& step) {
    const TableSchema& table = *step.change->table;
    DmlStatement statement;
    statement.sql = "UPDATE " + quoteTable(table.name()) + " SET ";
    for (size_t column : table.writtenColumns()) {
        if (column != table.writtenColumns().front()) {
            statement.sql += ", ";
        }
        appendQuotedName(statement.sql, table.columns()[column].name);
        statement.sql += " = ?";
        statement.params.push_back(&step.change->after[column]);
    }
    statement.sql += " WHERE ";
    appendKeyCondition(statement.sql, table, step.change->before, statement.params);
    return statement;
}

DmlStatement buildUpsert(std::span<const Step> steps) {
    const TableSchema& table = *steps.front().change->table;
    DmlStatement statement = buildWrite(steps);  // INSERT of the after images (never REPLACE: not WriteMode::Replace)
    statement.sql += " ON DUPLICATE KEY UPDATE ";
    const auto& key = table.rowKey().columns;
    auto inKey = [&](size_t column) { return std::find(key.begin(), key.end(), column) != key.end(); };
    // The key is what matched; a table whose written columns are all key columns still needs one assignment.
    const bool onlyKeyColumns = std::all_of(table.writtenColumns().begin(), table.writtenColumns().end(), inKey);
    bool wroteOne = false;
    for (size_t column : table.writtenColumns()) {
        if (inKey(column) && !onlyKeyColumns) {
            continue;
        }
        statement.sql += wroteOne ? ", " : "";
        appendQuotedName(statement.sql, table.columns()[column].name);
        statement.sql += " = VALUES(";
        appendQuotedName(statement.sql, table.columns()[column].name);
        statement.sql += ")";
        wroteOne = true;
    }
    return statement;
}

// Puts the steps of each table together, keeping their order within the table, so that more of them
// merge into one statement (sysbench-like workloads touch a few tables in turn: one row each). Safe
// because a batch never spans a DDL (a barrier), foreign key checks are off on the workers (as in DM),
// and changes to different tables cannot touch the same row. A failed batch is replayed row by row in
// the original order, so the failing row is still found exactly.
void groupByTable(std::vector<Step>& steps) {
    if (steps.size() < 3) {
        return;
    }
    // A table's own group, or its cascade family's: a family's changes keep their order across its tables.
    std::vector<std::string> tables;  // in order of first appearance; batches touch few
    std::vector<size_t> groupOf(steps.size());
    for (size_t i = 0; i < steps.size(); ++i) {
        const TableSchema& table = *steps[i].change->table;
        std::string name =
            table.cascadeFamily().name.empty() ? table.name().text() : "family " + table.cascadeFamily().name;
        size_t group = 0;
        while (group < tables.size() && tables[group] != name) {
            ++group;
        }
        if (group == tables.size()) {
            tables.push_back(std::move(name));
        }
        groupOf[i] = group;
    }
    if (tables.size() < 2) {
        return;
    }
    std::vector<Step> grouped;
    grouped.reserve(steps.size());
    for (size_t group = 0; group < tables.size(); ++group) {
        for (size_t i = 0; i < steps.size(); ++i) {
            if (groupOf[i] == group) {
                grouped.push_back(steps[i]);
            }
        }
    }
    steps = std::move(grouped);
}

int kindRank(const Step& step) {
    switch (step.kind) {
        case StepKind::Delete:
            return 0;
        case StepKind::Write:
            return step.write == WriteMode::Insert ? 1 : 2;
        case StepKind::Update:
            return 3;
    }
    return 3;
}

// Each table's run of steps in key-round order where that is safe (engine/apply/key_rounds.h), so that
// the deletes, inserts and updates of a round come together and merge.
void orderEachTableByKeyRounds(std::vector<Step>& steps) {
    std::vector<KeyedStep> keyed;
    size_t begin = 0;
    while (begin < steps.size()) {
        size_t end = begin + 1;
        while (end < steps.size() && steps[end].change->table->name() == steps[begin].change->table->name()) {
            ++end;
        }
        // One structure for the whole run (a table map can change without a DDL the task applies, e.g. a
        // filtered ALTER): key values are compared column for column.
        const TableSchema& first = *steps[begin].change->table;
        // A cascade family keeps its binlog order (a parent's DELETE cascades to rows no step names).
        bool oneShape = first.cascadeFamily().name.empty() &&
                        std::all_of(steps.begin() + static_cast<std::ptrdiff_t>(begin),
                                    steps.begin() + static_cast<std::ptrdiff_t>(end),
                                    [&](const Step& step) { return sameShape(first, *step.change->table); });
        keyed.clear();
        for (size_t i = begin; oneShape && i < end; ++i) {
            keyed.push_back({steps[i].change, steps[i].image, kindRank(steps[i])});
        }
        if (auto order = oneShape ? keyRoundOrder(keyed) : std::nullopt) {
            std::vector<Step> sorted;
            sorted.reserve(order->size());
            for (size_t position : *order) {
                sorted.push_back(steps[begin + position]);
            }
            std::copy(sorted.begin(), sorted.end(), steps.begin() + static_cast<std::ptrdiff_t>(begin));
        }
        begin = end;
    }
}

}  // namespace

std::string DmlStatement::describe() const {
    std::string out = sql;
    if (!params.empty()) {
        out += " /* values: ";
        for (size_t i = 0; i < params.size(); ++i) {
            out += (i == 0 ? "" : ", ") + params[i]->display();
        }
        out += " */";
    }
    return out;
}

std::vector<DmlStatement> DmlBuilder::build(std::span<const RowChange> changes) const {
    std::vector<Step> steps;
    steps.reserve(changes.size());
    const std::vector<Fold> folds = compact_ ? foldByKey(changes) : std::vector<Fold>();
    for (size_t i = 0; i < changes.size(); ++i) {
        const RowChange& change = changes[i];
        switch (folds.empty() ? Fold::Keep : folds[i]) {
            case Fold::Keep:
                expand(change, foreignKeyChecks_, steps);
                break;
            case Fold::Drop:
                break;
            case Fold::InsertAfter:
                steps.push_back({StepKind::Write, WriteMode::Insert, &change, &change.after});
                break;
            case Fold::UpsertAfter:
                steps.push_back({StepKind::Write, WriteMode::Upsert, &change, &change.after});
                break;
        }
    }
    if (multipleRows_ && !foreignKeyChecks_) {  // with checks on, a child's row may need its parent first
        groupByTable(steps);
    }
    if (multipleRows_) {
        orderEachTableByKeyRounds(steps);
    }
    std::vector<DmlStatement> statements;
    size_t begin = 0;
    while (begin < steps.size()) {
        const Step& first = steps[begin];
        size_t end = begin + 1;
        if (multipleRows_) {
            size_t columnsPerRow = first.kind == StepKind::Delete ? first.change->table->rowKey().columns.size()
                                                                  : first.change->table->writtenColumns().size();
            size_t limit = std::min(maxRowsPerStatement_, kMaxPlaceholders / std::max<size_t>(columnsPerRow, 1));
            while (end < steps.size() && end - begin < limit && canMerge(first, steps[end])) {
                ++end;
            }
        }
        std::span<const Step> group(steps.data() + begin, end - begin);
        bool upsert = first.kind == StepKind::Update ? group.size() > 1 : first.write == WriteMode::Upsert;
        DmlStatement statement = first.kind == StepKind::Write && !upsert ? buildWrite(group)
                                 : first.kind == StepKind::Delete         ? buildDelete(group)
                                 : !upsert                                ? buildUpdate(first)
                                                                          : buildUpsert(group);
        statement.rowCount = group.size();
        statement.foreignKeyChecks = foreignKeyChecksFor(first);
        statement.dropIfParentMissing = replayedCascadeChildWrite(first);
        statement.skipWhenDownstreamIsPast = group.size() == 1 && replayedCascadingKeyMove(first);
        if (statement.skipWhenDownstreamIsPast) {
            const Step holder{StepKind::Delete, WriteMode::Insert, first.change, &first.change->after};
            DmlStatement clear = buildDelete(std::span<const Step>(&holder, 1));
            clear.foreignKeyChecks = false;
            clear.table = first.change->table.get();
            statement.clearNewKey.push_back(std::move(clear));
        }
        statement.table = first.change->table.get();
        // An UPDATE or DELETE must find its row; one that finds none shows drift (counted per table). Not in
        // safe mode, where a replayed change may find its work done, and not for upserts: their affected
        // rows (1 per insert, 2 per update, 0 per unchanged row) are summed over the statement.
        bool anySafe = std::any_of(group.begin(), group.end(), [](const Step& step) { return step.change->safeMode; });
        if (!anySafe && (first.kind == StepKind::Delete || (first.kind == StepKind::Update && !upsert))) {
            statement.mustMatch = group.size();
        }
        statements.push_back(std::move(statement));
        begin = end;
    }
    return statements;
}

}  // namespace syncscope::apply
