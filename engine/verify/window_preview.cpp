#include "engine/verify/window_preview.h"

#include <algorithm>
#include <ctime>
#include <map>
#include <memory>
#include <optional>

#include "engine/apply/dml_builder.h"
#include "engine/apply/quoted_name.h"
#include "engine/binlog/event_decoder.h"
#include "engine/schema/downstream_schema_loader.h"
#include "engine/source/binlog_server_source.h"
#include "engine/verify/repair_plan.h"
#include "engine/verify/server_session.h"
#include "engine/verify/window_key.h"

namespace syncscope::verify {

namespace {

// One table's rows in the window while it is read: the report being filled and where each key's row is.
struct TableWindow {
    SkipWindowReport report;
    std::map<std::string, size_t> rowOfKey;
    std::string problem;  // set: the table's rows are not checked
};

bool pastWindowEnd(const binlog::BinlogPosition& to, std::string_view file, uint64_t endPos, bool& lastEvent) {
    lastEvent = false;
    if (file.empty() || !binlog::BinlogPosition::isBinlogFileName(file)) {
        return false;
    }
    uint64_t number = binlog::BinlogPosition::fileNumberOf(file);
    if (number > to.fileNumber() || (number == to.fileNumber() && endPos > to.offset())) {
        return true;
    }
    // The event that ends at `to` is the window's last: stop after it rather than wait for one more.
    lastEvent = number == to.fileNumber() && endPos == to.offset();
    return false;
}

std::string gtidOf(const binlog::Event& event) {
    if (const auto* gtid = event.as<binlog::MariaDbGtidEvent>()) {
        return std::to_string(gtid->domainId) + "-" + std::to_string(gtid->serverId) + "-" +
               std::to_string(gtid->sequence);
    }
    if (const auto* gtid = event.as<binlog::MySqlGtidEvent>(); gtid != nullptr && !gtid->anonymous) {
        return binlog::uuidText(gtid->uuid) + ":" + std::to_string(gtid->gno);
    }
    return {};
}

// Follows the window's transactions: opened by a GTID event or BEGIN, ended by XID, COMMIT, ROLLBACK or a
// statement that is its own transaction (a DDL).
class TransactionList {
public:
    explicit TransactionList(std::vector<WindowTransaction>& out) : out_(out) {}

    void onEvent(const binlog::Event& event, const binlog::BinlogPosition& start, const binlog::BinlogPosition& end) {
        if (event.as<binlog::MariaDbGtidEvent>() != nullptr || event.as<binlog::MySqlGtidEvent>() != nullptr) {
            close(start);  // a group with no terminator ends where the next begins
            open(event, start);
            const auto* mariadb = event.as<binlog::MariaDbGtidEvent>();
            standalone_ = mariadb != nullptr && (mariadb->flags & binlog::MariaDbGtidEvent::kStandalone) != 0;
            return;
        }
        if (const auto* query = event.as<binlog::QueryEvent>()) {
            using Kind = binlog::QueryEvent::Kind;
            if (query->kind == Kind::Begin) {
                if (!current_) {
                    open(event, start);
                }
                sawBegin_ = true;
            } else if (query->kind == Kind::Commit || query->kind == Kind::Rollback) {
                close(end);
            } else if (query->kind == Kind::Ddl || query->kind == Kind::Other) {
                if (!current_) {
                    open(event, start);
                }
                if (standalone_ || !sawBegin_) {
                    close(end);
                }
            }
            return;
        }
        if (event.as<binlog::XidEvent>() != nullptr) {
            close(end);
        }
    }

    WindowTransaction& current(const binlog::Event& event, const binlog::BinlogPosition& start) {
        if (!current_) {
            open(event, start);
        }
        return *current_;
    }

    void finish(const binlog::BinlogPosition& end) { close(end); }

private:
    void open(const binlog::Event& event, const binlog::BinlogPosition& start) {
        current_ = WindowTransaction{};
        current_->start = start;
        current_->gtid = gtidOf(event);
        current_->timestamp = event.header.timestamp;
        sawBegin_ = false;
        standalone_ = false;
    }
    void close(const binlog::BinlogPosition& end) {
        if (current_) {
            current_->end = end;
            out_.push_back(std::move(*current_));
            current_.reset();
        }
    }

    std::vector<WindowTransaction>& out_;
    std::optional<WindowTransaction> current_;
    bool sawBegin_ = false;
    bool standalone_ = false;
};

std::string localTimeNow() {
    std::time_t now = std::time(nullptr);
    std::tm fields{};
    localtime_r(&now, &fields);
    constexpr size_t kTextSize = 32;
    char text[kTextSize] = {};
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &fields);
    return text;
}

}  // namespace

size_t WindowPreview::rowsIn(WindowRowState state) const {
    size_t count = 0;
    for (const auto& table : tables) {
        for (const auto& row : table.rows) {
            count += row.state == state ? 1 : 0;
        }
    }
    return count;
}

size_t WindowPreview::rowCount() const {
    size_t count = 0;
    for (const auto& table : tables) {
        count += table.rows.size();
    }
    return count;
}

std::string WindowPreview::replaySql(const std::string& why) const {
    std::string text = "-- SyncScope: " + why + "\n-- binlog window after " + from.toString() + " up to " +
                       to.toString() + ": " + std::to_string(transactions.size()) + " transaction(s), " +
                       std::to_string(rowCount()) + " row(s); written " + localTimeNow() + "\n" +
                       "-- Each statement re-applies a row's final image in the window where the downstream did not "
                       "hold it\n-- (idempotent: run it again and nothing changes). Rows equal downstream: " +
                       std::to_string(rowsIn(WindowRowState::Equal)) + ".\n";
    for (const auto& problem : problems) {
        text += "-- NOT CHECKED, no statements: " + problem.table.text() + ": " + problem.reason + "\n";
    }
    for (const auto& table : tables) {
        std::vector<apply::RowChange> changes = table.repairChanges();
        if (changes.empty()) {
            continue;
        }
        for (auto& change : changes) {
            change.safeMode = true;
        }
        text += "-- " + table.table.text() + " -> " + table.downstreamTable.text() + ": " +
                std::to_string(changes.size()) + " row(s)\n";
        for (const auto& statement : apply::DmlBuilder(false).build(changes)) {
            text += withLiterals(statement) + ";\n";
        }
    }
    return text;
}

WindowPreview WindowPreviewer::preview(const WindowPreviewRequest& request) {
    WindowPreview preview;
    preview.from = request.from;
    preview.to = request.to;
    const std::string window = "binlog window after " + request.from.toString() + " up to " + request.to.toString();
    if (request.from.isEmpty() || request.to.isEmpty() || !(request.from < request.to)) {
        throw VerifyError(window + ": the start must be a binlog position before the end");
    }
    ServerSession upstream("upstream", request.upstream);
    ServerSession downstream("downstream", request.downstream);
    binlog::Location upstreamNow = upstream.binlogPosition();
    if (upstreamNow.position() < request.to) {
        throw VerifyError(window + ": the end is beyond the upstream's position " + upstreamNow.toString());
    }

    source::ServerSourceOptions options;
    options.server = request.upstream;
    options.startFile = request.from.file();
    options.startPosition = request.from.offset();
    options.checkSettings = false;
    options.maxReconnectAttempts = 0;
    source::BinlogServerSource stream(options);
    binlog::EventDecoder decoder;
    bool checksumSet = false;
    std::vector<binlog::Event> events;
    std::map<schema::TableName, TableWindow> tables;
    std::vector<schema::TableName> tableOrder;
    TransactionList transactions(preview.transactions);
    schema::DownstreamSchemaLoader structures(upstream.connection());
    std::string file = request.from.file();
    bool done = false;
    while (!done) {
        if (cancel_ != nullptr && cancel_->load()) {
            throw VerifyError(window + ": cancelled");
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
            if (event.header.logPos == 0) {
                continue;  // the dump's fake rotate and format description
            }
            if (!event.file.empty()) {
                file = std::string(event.file);
            }
            bool lastEvent = false;
            if (pastWindowEnd(request.to, file, event.endPos, lastEvent)) {
                done = true;
                break;
            }
            done = lastEvent;
            if (++preview.eventsRead > request.maxEvents) {
                throw VerifyError(window + ": more than " + std::to_string(request.maxEvents) +
                                  " events: too long a window to check row by row");
            }
            const binlog::BinlogPosition start(file, event.pos);
            const binlog::BinlogPosition end(file, event.endPos);
            const auto* rows = event.as<binlog::RowsEvent>();
            if (rows == nullptr) {
                transactions.onEvent(event, start, end);
                continue;
            }
            schema::TableName name{rows->table->schema, rows->table->table};
            if (request.replicated && !request.replicated(name)) {
                transactions.onEvent(event, start, end);
                continue;
            }
            WindowTransaction& trx = transactions.current(event, start);
            trx.rowChanges += rows->rowCount();
            if (std::find(trx.tables.begin(), trx.tables.end(), name.text()) == trx.tables.end()) {
                trx.tables.push_back(name.text());
            }
            auto [entry, added] = tables.try_emplace(name);
            TableWindow& table = entry->second;
            if (added) {
                tableOrder.push_back(name);
                table.report.table = name;
                table.report.downstreamTable = request.route ? request.route(name) : name;
                try {
                    auto structure = structures.load(name);
                    if (!structure) {
                        table.problem = "the table does not exist upstream any more";
                    } else if (structure->rowKey().kind == schema::RowKeyKind::AllColumns) {
                        table.problem = "the table has no primary or not-null unique key: rows cannot be told apart";
                    } else {
                        for (const auto& column : structure->columns()) {
                            table.report.columns.push_back(column.name);
                        }
                        table.report.keyColumns = structure->rowKey().columns;
                    }
                } catch (const std::exception& e) {
                    table.problem = std::string("upstream: ") + e.what();
                }
            }
            if (!table.problem.empty()) {
                continue;
            }
            if (rows->columnCount != table.report.columns.size()) {
                table.problem = "the window's events have " + std::to_string(rows->columnCount) +
                                " columns, the table has " + std::to_string(table.report.columns.size()) +
                                " now: its structure changed since";
                continue;
            }
            auto valuesOf = [&](std::span<const binlog::ColumnValue> image, const std::vector<bool>& present) {
                std::vector<apply::SqlValue> values;
                for (size_t i = 0; i < image.size(); ++i) {
                    if (i < present.size() && !present[i]) {
                        return std::vector<apply::SqlValue>{};
                    }
                    values.push_back(apply::SqlValue::fromColumn(image[i], rows->table->columns[i]));
                }
                return values;
            };
            auto keyOf = [&](const std::vector<apply::SqlValue>& image) {
                std::vector<apply::SqlValue> key;
                for (size_t position : table.report.keyColumns) {
                    key.push_back(image[position]);
                }
                return key;
            };
            auto remember = [&](std::vector<apply::SqlValue> key, std::vector<apply::SqlValue> image) {
                auto [at, inserted] = table.rowOfKey.try_emplace(windowKeyId(key), table.report.rows.size());
                if (inserted) {
                    table.report.rows.push_back(WindowRow{});
                }
                WindowRow& row = table.report.rows[at->second];
                row.key = std::move(key);
                row.image = std::move(image);
                row.lastChange = end.toString();
            };
            for (size_t row = 0; row < rows->rowCount() && table.problem.empty(); ++row) {
                ++table.report.rowChanges;
                if (rows->hasBefore(row)) {
                    auto before = valuesOf(rows->before(row), rows->presentBefore);
                    if (before.empty()) {
                        table.problem = "a row image without every column at " + start.toString() +
                                        " (binlog_row_image is not FULL)";
                        break;
                    }
                    remember(keyOf(before), {});
                }
                if (rows->hasAfter(row)) {
                    auto after = valuesOf(rows->after(row), rows->presentAfter);
                    if (after.empty()) {
                        table.problem = "a row image without every column at " + start.toString() +
                                        " (binlog_row_image is not FULL)";
                        break;
                    }
                    remember(keyOf(after), after);
                }
            }
        }
    }
    stream.cancel();
    transactions.finish(request.to);

    // Each row's final state against the downstream, compared by the downstream itself.
    for (const auto& name : tableOrder) {
        TableWindow& table = tables.at(name);
        if (!table.problem.empty()) {
            preview.problems.push_back({name, table.problem});
            continue;
        }
        SkipWindowReport& report = table.report;
        report.from = binlog::Location(request.from);
        report.to = binlog::Location(request.to);
        std::string keyWhere;
        for (size_t i = 0; i < report.keyColumns.size(); ++i) {
            keyWhere += (i == 0 ? "" : " AND ") + apply::quoteName(report.columns[report.keyColumns[i]]) + " = ?";
        }
        std::string compareList;
        for (const auto& column : report.columns) {
            compareList += (compareList.empty() ? "" : ", ") + apply::quoteName(column) + " <=> ?";
        }
        const std::string quoted = apply::quoteTable(report.downstreamTable);
        for (WindowRow& row : report.rows) {
            BoundQuery byKey{"SELECT 1 FROM " + quoted + " WHERE " + keyWhere, row.key};
            if (row.image.empty()) {
                row.state = downstream.query(byKey).empty() ? WindowRowState::Equal : WindowRowState::NotDeleted;
                continue;
            }
            BoundQuery compare{"SELECT " + compareList + " FROM " + quoted + " WHERE " + keyWhere, row.image};
            compare.params.insert(compare.params.end(), row.key.begin(), row.key.end());
            std::vector<RowValues> found;
            try {
                found = downstream.query(compare);
            } catch (const ServerError& e) {
                if (ServerSession::isConnectionLost(e.code())) {
                    throw;
                }
                // The downstream cannot compare every column (one is missing there, say: the cause of a
                // failed event): the key alone says whether the row is there.
                row.differingColumns.push_back(std::string("not comparable: ") + e.what());
                try {
                    row.state = downstream.query(byKey).empty() ? WindowRowState::Missing : WindowRowState::Different;
                } catch (const ServerError& byKeyError) {
                    if (ServerSession::isConnectionLost(byKeyError.code())) {
                        throw;
                    }
                    row.state = WindowRowState::Missing;  // not even its key can be read downstream
                }
                continue;
            }
            if (found.empty()) {
                row.state = WindowRowState::Missing;
                continue;
            }
            for (size_t i = 0; i < report.columns.size(); ++i) {
                if (found.front()[i] != std::optional<std::string>("1")) {
                    row.differingColumns.push_back(report.columns[i]);
                }
            }
            row.state = row.differingColumns.empty() ? WindowRowState::Equal : WindowRowState::Different;
        }
        preview.tables.push_back(std::move(report));
    }
    return preview;
}

}  // namespace syncscope::verify
