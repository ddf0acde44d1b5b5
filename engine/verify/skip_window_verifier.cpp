#include "engine/verify/skip_window_verifier.h"

#include <map>
#include <memory>

#include "engine/apply/quoted_name.h"
#include "engine/binlog/event_decoder.h"
#include "engine/schema/downstream_schema_loader.h"
#include "engine/source/binlog_server_source.h"
#include "engine/verify/server_session.h"
#include "engine/verify/window_key.h"

namespace syncscope::verify {

namespace {

struct RowState {
    std::vector<apply::SqlValue> key;
    std::vector<apply::SqlValue> image;  // empty: deleted
    std::string lastChange;
};

// Where an event (in `file`, ending at `endPos`) lies against the window's end `to`.
enum class WindowPlace { Inside, LastEvent, Past };

WindowPlace placeInWindow(const binlog::BinlogPosition& to, std::string_view file, uint64_t endPos) {
    if (file.empty() || !binlog::BinlogPosition::isBinlogFileName(file)) {
        return WindowPlace::Inside;
    }
    uint64_t number = binlog::BinlogPosition::fileNumberOf(file);
    if (number > to.fileNumber() || (number == to.fileNumber() && endPos > to.offset())) {
        return WindowPlace::Past;
    }
    // The event that ends at the table point is the window's last: stop after it rather than wait for
    // one more (the stream blocks at the end of the upstream's binlog).
    return number == to.fileNumber() && endPos == to.offset() ? WindowPlace::LastEvent : WindowPlace::Inside;
}

}  // namespace

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
        change.source.file = "verify-window";
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
    const auto& from = request.from.position();
    const auto& to = request.to.position();
    if (from.isEmpty() || to.isEmpty() || !(from < to)) {
        throw VerifyError("skip window of " + request.table.text() + ": the global point " + request.from.toString() +
                          " must be a binlog position before the table point " + request.to.toString());
    }
    ServerSession upstream("upstream", request.upstream);
    ServerSession downstream("downstream", request.downstream);
    binlog::Location upstreamNow = upstream.binlogPosition();
    if (upstreamNow.position() < to) {
        throw VerifyError("skip window of " + request.table.text() + ": the table point " + request.to.toString() +
                          " is beyond the upstream's position " + upstreamNow.toString());
    }
    std::optional<schema::TableSchema> structure;
    try {
        structure = schema::DownstreamSchemaLoader(upstream.connection()).load(request.table);
    } catch (const schema::SchemaError& e) {
        throw VerifyError(std::string("upstream: ") + e.what());
    }
    if (!structure || structure->rowKey().kind == schema::RowKeyKind::AllColumns) {
        throw VerifyError("skip window of " + request.table.text() + ": " +
                          (structure ? "the table has no primary or not-null unique key: rows cannot be told apart"
                                     : "the table does not exist upstream"));
    }
    for (const auto& column : structure->columns()) {
        report.columns.push_back(column.name);
    }
    report.keyColumns = structure->rowKey().columns;

    source::ServerSourceOptions options;
    options.server = request.upstream;
    options.startFile = from.file();
    options.startPosition = from.offset();
    options.checkSettings = false;
    options.maxReconnectAttempts = 0;
    source::BinlogServerSource stream(options);
    binlog::EventDecoder decoder;
    bool checksumSet = false;
    std::vector<binlog::Event> events;
    std::map<std::string, RowState> states;
    std::vector<std::string> order;
    bool done = false;
    while (!done) {
        if (cancel_ && cancel_->load()) {
            throw VerifyError("skip window of " + request.table.text() + ": cancelled");
        }
        auto raw = stream.next();
        if (!raw) {
            break;
        }
        if (!checksumSet) {
            decoder.setChecksum(stream.hasChecksum() ? binlog::ChecksumAlgorithm::Crc32
                                                     : binlog::ChecksumAlgorithm::Off);
            checksumSet = true;
        }
        decoder.recycle(events);
        decoder.decodeInto(*raw, events);
        for (const auto& event : events) {
            WindowPlace place =
                event.header.logPos == 0 ? WindowPlace::Inside : placeInWindow(to, event.file, event.endPos);
            if (place == WindowPlace::Past) {
                done = true;
                break;
            }
            done = place == WindowPlace::LastEvent;
            if (++report.eventsRead > request.maxEvents) {
                throw VerifyError("skip window of " + request.table.text() + ": more than " +
                                  std::to_string(request.maxEvents) + " events between " + request.from.toString() +
                                  " and " + request.to.toString() + ": too long a window to verify row by row");
            }
            const auto* rows = std::get_if<binlog::RowsEvent>(&event.body);
            if (!rows || rows->table->schema != request.table.schema || rows->table->table != request.table.table) {
                continue;
            }
            if (rows->columnCount != report.columns.size()) {
                throw VerifyError("skip window of " + request.table.text() + ": the window's events have " +
                                  std::to_string(rows->columnCount) + " columns, the table has " +
                                  std::to_string(report.columns.size()) + " now: its structure changed since");
            }
            auto valuesOf = [&](std::span<const binlog::ColumnValue> image, const std::vector<bool>& present) {
                std::vector<apply::SqlValue> values;
                for (size_t i = 0; i < image.size(); ++i) {
                    if (i < present.size() && !present[i]) {
                        throw VerifyError("skip window of " + request.table.text() + " at " + std::string(event.file) +
                                          ":" + std::to_string(event.pos) +
                                          ": a row image without every column (binlog_row_image is not FULL)");
                    }
                    values.push_back(apply::SqlValue::fromColumn(image[i], rows->table->columns[i]));
                }
                return values;
            };
            std::string where = std::string(event.file) + ":" + std::to_string(event.endPos);
            auto remember = [&](std::vector<apply::SqlValue> key, std::vector<apply::SqlValue> image) {
                std::string id = windowKeyId(key);
                auto [it, inserted] = states.try_emplace(id);
                if (inserted) {
                    order.push_back(id);
                }
                it->second = {std::move(key), std::move(image), where};
            };
            auto keyOf = [&](const std::vector<apply::SqlValue>& image) {
                std::vector<apply::SqlValue> key;
                for (size_t position : report.keyColumns) {
                    key.push_back(image[position]);
                }
                return key;
            };
            for (size_t row = 0; row < rows->rowCount(); ++row) {
                ++report.rowChanges;
                if (rows->hasBefore(row)) {
                    auto before = valuesOf(rows->before(row), rows->presentBefore);
                    remember(keyOf(before), {});
                }
                if (rows->hasAfter(row)) {
                    auto after = valuesOf(rows->after(row), rows->presentAfter);
                    remember(keyOf(after), after);
                }
            }
        }
    }
    stream.cancel();

    // Each row's final state against the downstream, compared by the downstream itself.
    std::string keyWhere;
    for (size_t i = 0; i < report.keyColumns.size(); ++i) {
        keyWhere += (i == 0 ? "" : " AND ") + apply::quoteName(report.columns[report.keyColumns[i]]) + " = ?";
    }
    std::string compareList;
    for (const auto& column : report.columns) {
        compareList += (compareList.empty() ? "" : ", ") + apply::quoteName(column) + " <=> ?";
    }
    const std::string table = apply::quoteTable(report.downstreamTable);
    for (const auto& id : order) {
        const RowState& state = states.at(id);
        WindowRow row{state.key, state.image, state.lastChange, WindowRowState::Equal, {}};
        BoundQuery query;
        query.sql = "SELECT " + (state.image.empty() ? std::string("1") : compareList) + " FROM " + table + " WHERE " +
                    keyWhere;
        query.params = state.image;
        query.params.insert(query.params.end(), state.key.begin(), state.key.end());
        auto found = downstream.query(query);
        if (state.image.empty()) {
            row.state = found.empty() ? WindowRowState::Equal : WindowRowState::NotDeleted;
        } else if (found.empty()) {
            row.state = WindowRowState::Missing;
        } else {
            for (size_t i = 0; i < report.columns.size(); ++i) {
                if (found.front()[i] != std::optional<std::string>("1")) {
                    row.differingColumns.push_back(report.columns[i]);
                }
            }
            row.state = row.differingColumns.empty() ? WindowRowState::Equal : WindowRowState::Different;
        }
        report.rows.push_back(std::move(row));
    }
    return report;
}

}  // namespace syncscope::verify
