#include "engine/task/failed_event_view.h"

#include "engine/apply/error_class.h"

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

}  // namespace

FailedEvent failedEventOf(const apply::ApplyFailure& failure) {
    const apply::RowChange& change = failure.change;
    FailedEvent event;
    event.position.file = change.source.file;
    event.position.pos = change.source.pos;
    event.position.gtid = change.source.gtid;
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
    event.hint = apply::hintForDownstreamError(failure.code);
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
