#include "engine/replica/failing_event_reader.h"

#include "engine/binlog/event_decoder.h"
#include "engine/binlog/value_text.h"
#include "engine/source/binlog_server_source.h"

namespace syncscope::replica {

namespace {

constexpr size_t kMaxEventsRead = 512;  // a failing transaction is found well within this
constexpr std::chrono::seconds kReadTimeout{5};
constexpr std::chrono::milliseconds kHeartbeat{1000};

std::string valueText(const binlog::ColumnValue& value, const binlog::ColumnDef& column) {
    if (value.kind() == binlog::ValueKind::Null) {
        return {};
    }
    std::string text = value.toText(column);
    if (binlog::isValidUtf8(text)) {
        return text;
    }
    std::string hex = "x'";
    binlog::appendHex(hex, text);
    return hex + "'";
}

std::vector<task::RowImageView> images(const binlog::RowsEvent& rows, bool before) {
    std::vector<task::RowImageView> out;
    for (size_t row = 0; row < rows.rowCount(); ++row) {
        if (before ? !rows.hasBefore(row) : !rows.hasAfter(row)) {
            continue;
        }
        auto image = before ? rows.before(row) : rows.after(row);
        task::RowImageView view;
        for (size_t i = 0; i < image.size(); ++i) {
            if (image[i].kind() == binlog::ValueKind::Null) {
                view.values.emplace_back(std::nullopt);
            } else {
                view.values.emplace_back(valueText(image[i], rows.table->columns[i]));
            }
        }
        out.push_back(std::move(view));
    }
    return out;
}

void describeRows(task::FailedEvent& failed, const binlog::Event& event, const binlog::RowsEvent& rows) {
    failed.position.file = std::string(event.file);
    failed.position.pos = event.endPos;
    failed.schema = rows.table->schema;
    failed.table = rows.table->table;
    failed.operation = std::string(binlog::rowsOpName(rows.op));
    failed.columns.clear();
    for (size_t i = 0; i < rows.table->columns.size(); ++i) {
        const std::string& name = rows.table->columns[i].name;
        failed.columns.push_back(name.empty() ? "@" + std::to_string(i + 1) : name);
    }
    failed.before = images(rows, true);
    failed.after = images(rows, false);
}

}  // namespace

task::FailedEvent readFailingEvent(const ServerSettings& master, const ReplicaChannelStatus& channel) {
    task::FailedEvent failed;
    failed.errorCode = channel.lastSqlErrno;
    failed.errorMessage = channel.lastSqlError;
    failed.errorClass = "needs the DBA";
    failed.position.file = channel.execFile;
    failed.position.pos = channel.execPos;
    failed.hint =
        "fix the replica's data and start the SQL thread again, or skip this transaction (SET GLOBAL "
        "sql_slave_skip_counter = 1) if the replica must not have it";
    if (channel.execFile.empty()) {
        return failed;
    }
    source::ServerSourceOptions options;
    options.server = master;
    options.startFile = channel.execFile;
    options.startPosition = channel.execPos;
    options.checkSettings = false;
    options.heartbeatPeriod = kHeartbeat;
    options.readTimeout = kReadTimeout;
    options.maxReconnectAttempts = 0;
    const std::optional<uint64_t> failedEnd = failedEventEndPos(channel.lastSqlError);
    try {
        source::BinlogServerSource source(options);
        binlog::EventDecoder decoder;
        std::vector<binlog::Event> events;
        bool checksumSet = false;
        bool foundRows = false;
        for (size_t read = 0; read < kMaxEventsRead; ++read) {
            auto raw = source.next();
            if (!raw) {
                break;
            }
            if (!checksumSet) {
                decoder.setChecksum(source.hasChecksum() ? binlog::ChecksumAlgorithm::Crc32
                                                         : binlog::ChecksumAlgorithm::Off);
                checksumSet = true;
            }
            decoder.recycle(events);
            decoder.decodeInto(*raw, events);
            bool transactionEnded = false;
            for (const auto& event : events) {
                if (event.type() == binlog::EventType::Heartbeat || event.type() == binlog::EventType::HeartbeatV2) {
                    transactionEnded = true;  // idle: nothing more to read
                    break;
                }
                if (const auto* rows = event.as<binlog::RowsEvent>()) {
                    if (!foundRows || (failedEnd && event.endPos == *failedEnd)) {
                        describeRows(failed, event, *rows);
                        foundRows = true;
                    }
                    if (failedEnd && event.endPos == *failedEnd) {
                        transactionEnded = true;
                        break;
                    }
                } else if (const auto* query = event.as<binlog::QueryEvent>()) {
                    if (query->kind == binlog::QueryEvent::Kind::Ddl && !foundRows) {
                        failed.position.pos = event.endPos;
                        failed.schema = query->schema;
                        failed.operation = "ddl";
                        failed.sql = query->query;
                        transactionEnded = true;
                        break;
                    }
                    if (query->kind == binlog::QueryEvent::Kind::Commit ||
                        query->kind == binlog::QueryEvent::Kind::Rollback) {
                        transactionEnded = foundRows;
                    }
                } else if (event.as<binlog::XidEvent>()) {
                    transactionEnded = foundRows;
                }
                if (transactionEnded) {
                    break;
                }
            }
            if (transactionEnded) {
                break;
            }
        }
        source.cancel();
    } catch (const std::exception& e) {
        failed.hint = "the failing event could not be read from the master " + master.describe() + " at " +
                      channel.execFile + ":" + std::to_string(channel.execPos) + ": " + e.what();
    }
    return failed;
}

}  // namespace syncscope::replica
