#include "engine/task/failed_event_view.h"

#include "engine/apply/error_class.h"
#include "engine/apply/quoted_name.h"
#include "engine/common/server_errors.h"

namespace syncscope::task {

namespace {

RowImageView imageOf(const std::vector<apply::SqlValue>& values) {
    RowImageView image;
    image.values.reserve(values.size());
    for (const apply::SqlValue& value : values) {
        image.values.push_back(value.text());
    }
    return image;
}

using server_error::kUnknownColumn;

// The SQL type where the binlog alone tells it exactly; empty otherwise (lengths, precision, charset).
std::string exactTypeOf(const schema::SchemaColumn& column) {
    using binlog::ColumnType;
    std::string type;
    switch (column.type) {
        case ColumnType::Tiny:
            type = "TINYINT";
            break;
        case ColumnType::Short:
            type = "SMALLINT";
            break;
        case ColumnType::Int24:
            type = "MEDIUMINT";
            break;
        case ColumnType::Long:
            type = "INT";
            break;
        case ColumnType::LongLong:
            type = "BIGINT";
            break;
        case ColumnType::Float:
            return "FLOAT";
        case ColumnType::Double:
            return "DOUBLE";
        case ColumnType::Year:
            return "YEAR";
        case ColumnType::Date:
        case ColumnType::NewDate:
            return "DATE";
        case ColumnType::Json:
            return "JSON";
        default:
            return {};
    }
    return column.isUnsigned ? type + " UNSIGNED" : type;
}

// For a column the downstream lacks, the statement that would add it: the DBA should still compare it
// with the upstream's definition (defaults, character set), so it is offered as an example.
std::string missingColumnHint(const apply::ApplyFailure& failure) {
    const std::string marker = "Unknown column '";
    auto begin = failure.message.find(marker);
    if (begin == std::string::npos || !failure.change.table) {
        return {};
    }
    begin += marker.size();
    auto end = failure.message.find('\'', begin);
    if (end == std::string::npos) {
        return {};
    }
    std::string column = failure.message.substr(begin, end - begin);
    const schema::TableSchema& table = *failure.change.table;
    std::string type = "<its upstream type>";
    if (auto index = table.columnIndex(column)) {
        if (std::string exact = exactTypeOf(table.columns()[*index]); !exact.empty()) {
            type = exact;
        }
    }
    std::string quoted = apply::quoteTable(table.name());
    return "the downstream table " + quoted + " lacks column " + apply::quoteName(column) +
           " that the upstream row has: apply the upstream's DDL downstream, e.g. ALTER TABLE " + quoted +
           " ADD COLUMN " + apply::quoteName(column) + " " + type + " (as the upstream defines it), then resume";
}

}  // namespace

FailedEvent failedEventOf(const apply::ApplyFailure& failure) {
    const apply::RowChange& change = failure.change;
    FailedEvent event;
    event.position.file = change.source().file;
    event.position.pos = change.source().pos;
    event.position.gtid = change.source().gtid;
    if (change.table) {
        event.schema = change.table->name().schema;
        event.table = change.table->name().table;
        for (const auto& column : change.table->columns()) {
            event.columns.push_back(column.name);
        }
    }
    event.operation = apply::rowOpName(change.op);
    if (!change.before.empty()) {
        event.before.push_back(imageOf(change.before));
    }
    if (!change.after.empty()) {
        event.after.push_back(imageOf(change.after));
    }
    event.sql = failure.sql;
    event.errorCode = failure.code;
    event.errorMessage = failure.message;
    event.errorClass = apply::errorClassName(failure.errorClass);
    event.rowIdentified = failure.rowIdentified;
    event.hint = failure.code == kUnknownColumn ? missingColumnHint(failure) : std::string();
    if (event.hint.empty()) {
        event.hint = apply::hintForDownstreamError(failure.code);
    }
    return event;
}

FailedEvent ddlFailedEvent(const binlog::Location& at, const binlog::QueryEvent& query, const std::string& sql,
                           int code, const std::string& message) {
    FailedEvent event;
    event.position.file = at.position().file();
    event.position.pos = at.position().offset();
    event.position.gtid = at.gtidText();
    event.schema = query.schema;
    event.operation = "ddl";
    event.sql = sql;
    event.errorCode = code;
    event.errorMessage = message;
    event.errorClass = code == 0 ? "needs the DBA" : apply::errorClassName(apply::classifyDownstreamError(code));
    event.hint = code == 0 ? std::string() : apply::hintForDownstreamError(code);
    return event;
}

}  // namespace syncscope::task
