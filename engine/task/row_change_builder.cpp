#include "engine/task/row_change_builder.h"

#include <utility>

#include "engine/common/error.h"
#include "engine/filter/block_allow_list.h"
#include "engine/filter/event_filter.h"
#include "engine/filter/event_type.h"
#include "engine/filter/table_router.h"

namespace syncscope::task {

namespace {

apply::RowOp rowOpOf(binlog::RowsOp op) {
    switch (op) {
        case binlog::RowsOp::Insert:
            return apply::RowOp::Insert;
        case binlog::RowsOp::Update:
            return apply::RowOp::Update;
        case binlog::RowsOp::Delete:
            return apply::RowOp::Delete;
    }
    return apply::RowOp::Insert;
}

std::string_view eventNameOf(binlog::RowsOp op) {
    switch (op) {
        case binlog::RowsOp::Insert:
            return filter::kInsertEvent;
        case binlog::RowsOp::Update:
            return filter::kUpdateEvent;
        case binlog::RowsOp::Delete:
            return filter::kDeleteEvent;
    }
    return filter::kInsertEvent;
}

}  // namespace

RowChangeBuilder::RowChangeBuilder(const TaskSetup& setup, schema::SchemaTracker& schemas)
    : setup_(setup), schemas_(schemas) {}

RowsDecision RowChangeBuilder::decide(const binlog::RowsEvent& rows) const {
    filter::TableName table{rows.table->schema, rows.table->table};
    if (setup_.blockAllow && !setup_.blockAllow->allows(table)) {
        return {RowsDecision::Kind::Ignore, "block-allow list"};
    }
    if (setup_.eventFilter && !setup_.eventFilter->empty()) {
        auto decision = setup_.eventFilter->decide(table, eventNameOf(rows.op));
        if (decision.action == filter::FilterAction::Ignore) {
            return {RowsDecision::Kind::Ignore, "filter rule " + decision.ruleName};
        }
        if (decision.action == filter::FilterAction::Error) {
            return {RowsDecision::Kind::Error, "filter rule " + decision.ruleName + " says Error for " +
                                                   std::string(eventNameOf(rows.op)) + " on " + table.quoted()};
        }
    }
    return {};
}

schema::TableName RowChangeBuilder::targetOf(const binlog::TableMap& table) const {
    if (!setup_.router || setup_.router->empty()) {
        return {table.schema, table.table};
    }
    filter::TableName routed = setup_.router->route({table.schema, table.table});
    return {routed.schema, routed.table};
}

void RowChangeBuilder::build(const binlog::RowsEvent& rows, apply::SourcePoint source, uint64_t transactionSeq,
                             bool safeMode, std::vector<apply::RowChange>& out) {
    const binlog::TableMap& map = *rows.table;
    schema::TableName upstream{map.schema, map.table};
    std::shared_ptr<const schema::TableSchema> table = schemas_.schemaFor(upstream, targetOf(map), map.columns);
    if (table->columns().size() != rows.columnCount) {
        throw Error("rows event for " + upstream.text() + " at " + source.text() + " has " +
                    std::to_string(rows.columnCount) + " columns but the table has " +
                    std::to_string(table->columns().size()) + " (" + table->describe() + ")");
    }
    // One origin for the event's rows: its position and one buffer for the text of every value, so a
    // row costs no allocation per text value (the rows outlive the event, whose bytes go on).
    auto origin = std::make_shared<apply::RowsOrigin>();
    origin->source = std::move(source);
    size_t textBytes = 0;
    auto countText = [&](std::span<const binlog::ColumnValue> image) {
        for (const binlog::ColumnValue& value : image) {
            if (value.kind() == binlog::ValueKind::String || value.kind() == binlog::ValueKind::Bytes ||
                value.kind() == binlog::ValueKind::Decimal || value.kind() == binlog::ValueKind::Json ||
                value.kind() == binlog::ValueKind::Geometry) {
                textBytes += value.bytes().size();
            }
        }
    };
    for (size_t row = 0; row < rows.rowCount(); ++row) {
        if (rows.hasBefore(row)) {
            countText(rows.before(row));
        }
        if (rows.hasAfter(row)) {
            countText(rows.after(row));
        }
    }
    origin->text.reserve(textBytes);
    apply::RowsOrigin& shared = *origin;  // still there once the last row has taken `origin`
    auto convert = [&](std::span<const binlog::ColumnValue> image, const std::vector<bool>& present,
                       const char* which) {
        std::vector<apply::SqlValue> values;
        values.reserve(image.size());
        for (size_t i = 0; i < image.size(); ++i) {
            if (i < present.size() && !present[i]) {
                throw Error("rows event for " + upstream.text() + " at " + shared.source.text() + ": the " + which +
                            " image lacks column " + std::to_string(i + 1) +
                            "; the upstream must log full row images (SET GLOBAL binlog_row_image = 'FULL')");
            }
            values.push_back(apply::SqlValue::fromColumn(image[i], map.columns[i], shared.text));
        }
        return values;
    };
    out.reserve(out.size() + rows.rowCount());
    for (size_t row = 0; row < rows.rowCount(); ++row) {
        apply::RowChange change;
        // The last row takes the event's references: most events carry one row, and the workers drop them
        // on other cores, so each copy costs two atomic operations on a shared cache line.
        const bool last = row + 1 == rows.rowCount();
        change.table = last ? std::move(table) : table;
        change.op = rowOpOf(rows.op);
        change.origin = last ? std::move(origin) : origin;
        change.transactionSeq = transactionSeq;
        change.safeMode = safeMode;
        change.upstreamForeignKeyChecks = rows.foreignKeyChecks();
        change.rowInEvent = static_cast<uint32_t>(row);
        if (rows.hasBefore(row)) {
            change.before = convert(rows.before(row), rows.presentBefore, "before");
        }
        if (rows.hasAfter(row)) {
            change.after = convert(rows.after(row), rows.presentAfter, "after");
        }
        out.push_back(std::move(change));
    }
}

}  // namespace syncscope::task
