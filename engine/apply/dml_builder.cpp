#include "engine/apply/dml_builder.h"

#include <optional>

#include <algorithm>
#include <cctype>
#include <string_view>

#include "engine/apply/batch_order.h"
#include "engine/apply/key_folding.h"
#include "engine/apply/quoted_name.h"
#include "engine/common/error.h"

namespace syncscope::apply {

namespace {

using schema::RowKeyKind;
using schema::TableSchema;

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

// Whether a safe-mode write may go as UPDATE by the row key, then INSERT only where that UPDATE found no
// row (DmlStatement::insertWhenUnmatched), instead of REPLACE: where REPLACE is the only other exact form
// and its delete would cascade (foreign_key_checks=1, tables referencing this one). Neither statement
// deletes, so no child row is touched. An UPDATE qualifies when it keeps every unique value (row key
// included): then the row it finds is its own. An INSERT (the row may be there from before the stop)
// always does: it writes the after image over the row holding its key. A unique value another row
// holds downstream stops the statement with 1062, the row named, instead of deleting that row.
bool updateThenInsert(const RowChange& change, bool foreignKeyChecks) {
    const TableSchema& table = *change.table;
    if (!foreignKeyChecks || table.referencingForeignKeys().empty() || table.rowKeyIsOnlyUniqueIndex() ||
        table.causalityByWholeTable() || table.rowKey().kind == RowKeyKind::AllColumns) {
        return false;
    }
    if (change.op == RowOp::Insert) {
        return true;
    }
    for (const auto& key : table.identifyingKeys()) {
        for (size_t column : key) {
            if (!(change.before[column] == change.after[column])) {
                return false;
            }
        }
    }
    return true;
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
               "the table has another unique index, triggers or columns of its own downstream, and the update "
               "changes a unique value, so only REPLACE (a delete and an insert) is exact");
    }
    return WriteMode::Replace;
}

void expand(const RowChange& change, bool foreignKeyChecks, std::vector<Step>& steps) {
    const bool noKey = change.table->rowKey().kind == RowKeyKind::AllColumns;
    switch (change.op) {
        case RowOp::Insert:
            checkImage(change, change.after, "after");
            // Without a key a replayed INSERT cannot be told from a second equal row, and deleting an
            // equal row first would delete rows the upstream still has (docs/design.md invariant 10): it stays a
            // plain INSERT, so a keyless table replayed after a crash may get a duplicate (README). With a
            // unique index on nullable columns, a replayed row whose unique values are set finds itself
            // through that index: an upsert rewrites it instead of stopping on 1062 (a row whose unique
            // values are NULL collides with nothing and is inserted).
            if (change.safeMode && !noKey && updateThenInsert(change, foreignKeyChecks)) {
                steps.push_back({StepKind::Update, WriteMode::InsertWhenUnmatched, &change, &change.after});
                return;
            }
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
            if (updateThenInsert(change, foreignKeyChecks)) {
                steps.push_back({StepKind::Update, WriteMode::InsertWhenUnmatched, &change, &change.before});
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
    const bool plainName = isPlainSqlName(collation);
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

// An update that may join others in one INSERT ... ON DUPLICATE KEY UPDATE (as DM's multiple-rows
// does): its key is unchanged and the downstream has no other unique index that the insert could
// collide on, so the statement changes exactly the row the UPDATE would. (Where the row is missing
// downstream it is inserted, so the downstream converges to the upstream instead of silently
// keeping the gap.) Rows of one statement are applied in order, so even one key twice is right.
bool upsertable(const Step& step) {
    return step.kind == StepKind::Update && step.change->table->rowKeyIsOnlyUniqueIndex() &&
           step.change->table->rowKey().kind != RowKeyKind::AllColumns && !step.change->keyChanged();
}

// An update that may join others of its conflict round in one UPDATE ... SET col = CASE key WHEN ...: its
// key is unchanged, not NULL and not every column, and it writes a column beside the key. A round's
// changes share no key value (key_rounds.h), so each row of the statement is found by its own WHEN, and
// the rows commute: whichever order the server updates them in, none collides with another.
bool caseUpdatable(const Step& step) {
    const TableSchema& table = *step.change->table;
    return step.kind == StepKind::Update && step.round != 0 && !step.change->safeMode &&
           table.rowKey().kind != RowKeyKind::AllColumns && !step.change->keyChanged() &&
           !keyHasNull(table, *step.image) && table.writtenColumns().size() > table.rowKey().columns.size();
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
    if (first.write == WriteMode::InsertWhenUnmatched || next.write == WriteMode::InsertWhenUnmatched) {
        return false;  // its INSERT depends on what this one row's UPDATE found
    }
    if (first.kind == StepKind::Delete) {
        const TableSchema& table = *first.change->table;
        // Safe-mode deletes (which may find their row gone) apart from the rest, whose misses are counted.
        return table.rowKey().kind != RowKeyKind::AllColumns && !keyHasNull(table, *next.image) &&
               !keyHasNull(table, *first.image) && next.change->safeMode == first.change->safeMode;
    }
    return (upsertable(first) && upsertable(next)) ||
           (next.round == first.round && caseUpdatable(first) && caseUpdatable(next));
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

// "`id` IN (?, ?)" or "(`a`, `b`) IN ((?, ?), (?, ?))" over the row keys of the steps' images, which have no
// NULL in the key (see canMerge and caseUpdatable): a row-value IN list works.
void appendRowKeysIn(std::string& sql, const TableSchema& table, std::span<const Step> steps,
                     std::vector<const SqlValue*>& params) {
    const auto& key = table.rowKey().columns;
    bool single = key.size() == 1;
    sql += single ? "" : "(";
    for (size_t i = 0; i < key.size(); ++i) {
        if (i != 0) {
            sql += ", ";
        }
        appendQuotedName(sql, table.columns()[key[i]].name);
    }
    sql += single ? " IN (" : ") IN (";
    for (size_t row = 0; row < steps.size(); ++row) {
        if (row != 0) {
            sql += ", ";
        }
        if (single) {
            sql += "?";
        } else {
            appendRowPlaceholders(sql, key.size());
        }
        for (size_t column : key) {
            params.push_back(&(*steps[row].image)[column]);
        }
    }
    sql += ")";
}

DmlStatement buildDelete(std::span<const Step> steps) {
    const TableSchema& table = *steps.front().change->table;
    DmlStatement statement;
    statement.sql = "DELETE FROM " + quoteTable(table.name()) + " WHERE ";
    if (steps.size() == 1) {
        appendKeyCondition(statement.sql, table, *steps.front().image, statement.params);
        return statement;
    }
    appendRowKeysIn(statement.sql, table, steps, statement.params);
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
    appendKeyCondition(statement.sql, table, *step.image, statement.params);
    if (step.write == WriteMode::InsertWhenUnmatched) {
        const Step insert{StepKind::Write, WriteMode::Insert, step.change, &step.change->after};
        statement.insertWhenUnmatched.push_back(buildWrite(std::span<const Step>(&insert, 1)));
        statement.insertWhenUnmatched.back().table = &table;
    }
    return statement;
}

// "`a` = ? AND `b` = ?" over the row key of `image` (never NULL here).
void appendKeyEquals(std::string& sql, const TableSchema& table, const std::vector<SqlValue>& image,
                     std::vector<const SqlValue*>& params) {
    for (size_t column : table.rowKey().columns) {
        sql += column == table.rowKey().columns.front() ? "" : " AND ";
        appendQuotedName(sql, table.columns()[column].name);
        sql += " = ?";
        params.push_back(&image[column]);
    }
}

// UPDATE t SET c = CASE WHEN `id` = ? THEN ? ... ELSE `c` END, ... WHERE `id` IN (...): the updates of one
// conflict round (caseUpdatable), each column set to its row's after image, the key left as it is.
DmlStatement buildCaseUpdate(std::span<const Step> steps) {
    const TableSchema& table = *steps.front().change->table;
    const auto& key = table.rowKey().columns;
    DmlStatement statement;
    statement.sql = "UPDATE " + quoteTable(table.name()) + " SET ";
    bool wroteOne = false;
    for (size_t column : table.writtenColumns()) {
        if (std::find(key.begin(), key.end(), column) != key.end()) {
            continue;
        }
        statement.sql += wroteOne ? ", " : "";
        wroteOne = true;
        appendQuotedName(statement.sql, table.columns()[column].name);
        statement.sql += " = CASE";
        for (const Step& step : steps) {
            statement.sql += " WHEN ";
            appendKeyEquals(statement.sql, table, *step.image, statement.params);
            statement.sql += " THEN ?";
            statement.params.push_back(&step.change->after[column]);
        }
        statement.sql += " ELSE ";
        appendQuotedName(statement.sql, table.columns()[column].name);
        statement.sql += " END";
    }
    statement.sql += " WHERE ";
    appendRowKeysIn(statement.sql, table, steps, statement.params);
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

// The values one row's statement binds, in its placeholders' order: the after image's written columns
// (a write, an upsert, an UPDATE's SET), then the row key of the step's image (a DELETE's or UPDATE's WHERE;
// a merged step's key holds no NULL, see canMerge and caseUpdatable).
void appendRowValues(const Step& step, bool write, std::vector<const SqlValue*>& params) {
    const TableSchema& table = *step.change->table;
    if (step.kind != StepKind::Delete) {
        for (size_t column : table.writtenColumns()) {
            params.push_back(&step.change->after[column]);
        }
    }
    if (!write) {
        for (size_t column : table.rowKey().columns) {
            params.push_back(&(*step.image)[column]);
        }
    }
}

// A merged group as its first row's statement bound over every row's values (DmlStatement::arrayRows).
DmlStatement buildArray(std::span<const Step> group, bool upsert) {
    const Step& first = group.front();
    const std::span<const Step> one(&first, 1);
    const bool write = first.kind == StepKind::Write || upsert;
    DmlStatement statement = first.kind == StepKind::Write && !upsert ? buildWrite(one)
                             : first.kind == StepKind::Delete         ? buildDelete(one)
                             : upsert                                 ? buildUpsert(one)
                                                                      : buildUpdate(first);
    const size_t perRow = statement.params.size();
    statement.params.clear();
    statement.params.reserve(perRow * group.size());
    for (const Step& step : group) {
        appendRowValues(step, write, statement.params);
    }
    statement.arrayRows = group.size();
    return statement;
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

std::vector<DmlStatement> DmlBuilder::build(std::span<const RowChange> changes, bool arrays, bool fold) const {
    std::vector<Step> steps;
    steps.reserve(changes.size());
    const std::vector<Fold> folds = compact_ && fold ? foldByKey(changes) : std::vector<Fold>();
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
            case Fold::UpdateAfter:  // the key is the same in both images: the WHERE takes it from the after one
                steps.push_back({StepKind::Update, WriteMode::Insert, &change, &change.after});
                steps.back().foldedReinsert = true;
                break;
        }
    }
    if (multipleRows_ && !foreignKeyChecks_) {  // with checks on, a child's row may need its parent first
        groupByTable(steps);
    }
    if (multipleRows_) {
        orderEachTableByRounds(steps, foreignKeyChecks_);
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
        bool upsert =
            first.kind == StepKind::Update ? group.size() > 1 && upsertable(first) : first.write == WriteMode::Upsert;
        DmlStatement statement = arrays && group.size() > 1                 ? buildArray(group, upsert)
                                 : first.kind == StepKind::Write && !upsert ? buildWrite(group)
                                 : first.kind == StepKind::Delete           ? buildDelete(group)
                                 : upsert                                   ? buildUpsert(group)
                                 : group.size() > 1                         ? buildCaseUpdate(group)
                                                                            : buildUpdate(first);
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
            statement.unfoldWhenUnmatched =
                std::any_of(group.begin(), group.end(), [](const Step& step) { return step.foldedReinsert; });
        }
        statements.push_back(std::move(statement));
        begin = end;
    }
    return statements;
}

}  // namespace syncscope::apply
