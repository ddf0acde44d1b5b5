#include "engine/apply/applied_marks.h"

#include <algorithm>

#include "engine/apply/quoted_name.h"

namespace syncscope::apply {

namespace {

// Names as DM's checkpoint table spells them; the position is the rows event's end, as its table points are.
constexpr const char* kColumnDefinitions =
    " (\n"
    "  id VARCHAR(32) NOT NULL,\n"
    "  cp_schema VARCHAR(128) NOT NULL,\n"
    "  cp_table VARCHAR(128) NOT NULL,\n"
    "  binlog_name VARCHAR(128) NOT NULL,\n"
    "  binlog_pos BIGINT UNSIGNED NOT NULL,\n"
    "  row_in_event INT UNSIGNED NOT NULL,\n"
    "  update_time timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,\n"
    "  PRIMARY KEY (id, cp_schema, cp_table)\n"
    ") ENGINE=InnoDB";

constexpr const char* kUpsertColumns = " (id, cp_schema, cp_table, binlog_name, binlog_pos, row_in_event) VALUES ";
constexpr const char* kUpsertRow = "(?, ?, ?, ?, ?, ?)";
constexpr const char* kUpsertAssignments =
    " ON DUPLICATE KEY UPDATE binlog_name = VALUES(binlog_name), binlog_pos = VALUES(binlog_pos),"
    " row_in_event = VALUES(row_in_event)";

}  // namespace

std::string AppliedMark::text() const {
    return event.toString() + " row " + std::to_string(row);
}

std::string AppliedMarksTable::tableNameOf(const std::string& taskName) {
    return taskName + "_syncscope_applied";
}

std::string AppliedMarksTable::qualifiedName() const {
    return quoteName(metaSchema) + "." + quoteName(tableNameOf(taskName));
}

std::string AppliedMarksTable::createSql() const {
    return "CREATE TABLE IF NOT EXISTS " + qualifiedName() + kColumnDefinitions;
}

std::string AppliedMarksTable::selectSql() const {
    return "SELECT cp_schema, cp_table, binlog_name, binlog_pos, row_in_event FROM " + qualifiedName() +
           " WHERE id = ?";
}

AppliedMarkWriter::AppliedMarkWriter(AppliedMarksTable table, std::string sourceId)
    : qualifiedName_(table.qualifiedName()), sourceId_(std::move(sourceId)) {}

bool AppliedMarkWriter::build(std::span<const RowChange> batch, DmlStatement& statement) {
    last_.clear();
    for (const RowChange& change : batch) {
        if (!change.recordApplied) {
            continue;
        }
        auto same = std::find_if(last_.begin(), last_.end(),
                                 [&](const RowChange* seen) { return seen->target() == change.target(); });
        if (same == last_.end()) {
            last_.push_back(&change);
        } else {
            *same = &change;  // the batch keeps a table's rows in binlog order: the later one is the mark
        }
    }
    if (last_.empty()) {
        return false;
    }
    values_.clear();
    values_.reserve(last_.size() * 6);
    statement = DmlStatement{};
    statement.sql = std::string("INSERT INTO ") + qualifiedName_ + kUpsertColumns;
    for (size_t i = 0; i < last_.size(); ++i) {
        const RowChange& change = *last_[i];
        statement.sql += i == 0 ? "" : ", ";
        statement.sql += kUpsertRow;
        values_.push_back(SqlValue::text(sourceId_));
        values_.push_back(SqlValue::text(change.target().schema));
        values_.push_back(SqlValue::text(change.target().table));
        const SourcePoint& at = change.markAt ? *change.markAt : change.source();
        values_.push_back(SqlValue::text(at.file));
        values_.push_back(SqlValue::unsignedInt(at.pos));
        values_.push_back(SqlValue::unsignedInt(change.rowInEvent));
    }
    statement.sql += kUpsertAssignments;
    statement.params.reserve(values_.size());
    for (const SqlValue& value : values_) {
        statement.params.push_back(&value);
    }
    return true;
}

}  // namespace syncscope::apply
