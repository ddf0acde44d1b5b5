#include "engine/verify/skip_window_verifier.h"

#include <map>
#include <memory>

#include "engine/schema/downstream_schema_loader.h"
#include "engine/verify/server_session.h"
#include "engine/verify/window_preview.h"

namespace syncscope::verify {

const char* windowRowStateName(WindowRowState state) {
    switch (state) {
        case WindowRowState::Equal:
            return "equal";
        case WindowRowState::Missing:
            return "missing";
        case WindowRowState::Different:
            return "different";
        case WindowRowState::NotDeleted:
            return "not deleted";
    }
    return "different";
}

size_t SkipWindowReport::wrongRows() const {
    size_t count = 0;
    for (const auto& row : rows) {
        count += row.state == WindowRowState::Equal ? 0 : 1;
    }
    return count;
}

std::vector<apply::RowChange> SkipWindowReport::repairChanges() const {
    std::vector<schema::SchemaColumn> schemaColumns;
    for (const auto& name : columns) {
        schema::SchemaColumn column;
        column.name = name;
        schemaColumns.push_back(std::move(column));
    }
    auto target =
        std::make_shared<schema::TableSchema>(downstreamTable, std::move(schemaColumns), keyColumns,
                                              std::vector<schema::UniqueKey>{}, schema::SchemaOrigin::Downstream);
    std::vector<apply::RowChange> changes;
    for (const auto& row : rows) {
        if (row.state == WindowRowState::Equal) {
            continue;
        }
        apply::RowChange change;
        change.table = target;
        change.setSource({"verify-window", 0, ""});
        std::vector<apply::SqlValue> keyImage(columns.size());
        for (size_t i = 0; i < keyColumns.size(); ++i) {
            keyImage[keyColumns[i]] = row.key[i];
        }
        if (row.state == WindowRowState::Missing) {
            change.op = apply::RowOp::Insert;
            change.after = row.image;
        } else if (row.state == WindowRowState::Different) {
            change.op = apply::RowOp::Update;
            change.before = keyImage;  // the key finds the row; the other columns are not compared
            change.after = row.image;
        } else {
            change.op = apply::RowOp::Delete;
            change.before = keyImage;
        }
        changes.push_back(std::move(change));
    }
    return changes;
}

SkipWindowReport SkipWindowVerifier::verify(const SkipWindowRequest& request) {
    SkipWindowReport report;
    report.table = request.table;
    report.downstreamTable = request.downstreamTable.schema.empty() ? request.table : request.downstreamTable;
    report.from = request.from;
    report.to = request.to;
    const std::string window = "skip window of " + request.table.text();
    const auto& from = request.from.position();
    const auto& to = request.to.position();
    if (from.isEmpty() || to.isEmpty() || !(from < to)) {
        throw VerifyError(window + ": the global point " + request.from.toString() +
                          " must be a binlog position before the table point " + request.to.toString());
    }
    // The table is checked first, so that a window without its rows still says why it cannot be verified.
    std::optional<schema::TableSchema> structure;
    try {
        ServerSession upstream("upstream", request.upstream);
        structure = schema::DownstreamSchemaLoader(upstream.connection()).load(request.table);
    } catch (const schema::SchemaError& e) {
        throw VerifyError(std::string("upstream: ") + e.what());
    }
    if (!structure || structure->rowKey().kind == schema::RowKeyKind::AllColumns) {
        throw VerifyError(window + ": " +
                          (structure ? "the table has no primary or not-null unique key: rows cannot be told apart"
                                     : "the table does not exist upstream"));
    }
    for (const auto& column : structure->columns()) {
        report.columns.push_back(column.name);
    }
    report.keyColumns = structure->rowKey().columns;

    // The window is read and checked as a preview of this one table (engine/verify/window_preview.h).
    WindowPreviewRequest previewRequest;
    previewRequest.upstream = request.upstream;
    previewRequest.downstream = request.downstream;
    previewRequest.from = from;
    previewRequest.to = to;
    previewRequest.maxEvents = request.maxEvents;
    previewRequest.replicated = [&request](const schema::TableName& name) { return name == request.table; };
    previewRequest.route = [&report](const schema::TableName&) { return report.downstreamTable; };
    WindowPreviewer previewer;
    previewer.setCancelFlag(cancel_);
    WindowPreview preview;
    try {
        preview = previewer.preview(previewRequest);
    } catch (const VerifyError& e) {
        throw VerifyError(window + " (global point " + request.from.toString() + ", table point " +
                          request.to.toString() + "): " + e.what());
    }
    if (!preview.problems.empty()) {
        throw VerifyError(window + ": " + preview.problems.front().reason);
    }
    report.eventsRead = preview.eventsRead;
    if (!preview.tables.empty()) {
        report.rowChanges = preview.tables.front().rowChanges;
        report.rows = std::move(preview.tables.front().rows);
    }
    return report;
}

}  // namespace syncscope::verify
