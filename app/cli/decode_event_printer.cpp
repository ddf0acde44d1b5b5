#include "app/cli/decode_event_printer.h"

#include "engine/binlog/value_text.h"
#include "engine/common/secret_redaction.h"

namespace syncscope::cli {

namespace {

using namespace binlog;

const char* checksumName(ChecksumAlgorithm algorithm) {
    switch (algorithm) {
        case ChecksumAlgorithm::Off:
            return "NONE";
        case ChecksumAlgorithm::Crc32:
            return "CRC32";
        default:
            return "UNDEFINED";
    }
}

// One line: newlines and tabs of a statement become spaces.
void appendOneLine(std::string& out, std::string_view text) {
    for (char c : text) {
        out.push_back(c == '\n' || c == '\r' || c == '\t' ? ' ' : c);
    }
}

void appendKey(std::string& out, const char* key) {
    out += ",\"";
    out += key;
    out += "\":";
}

void appendJsonText(std::string& out, const char* key, std::string_view text) {
    appendKey(out, key);
    if (isValidUtf8(text)) {
        appendJsonString(out, text);
    } else {
        out += "{\"hex\":\"";
        appendHex(out, text);
        out += "\"}";
    }
}

void appendImageJson(std::string& out, const RowsEvent& rows, std::span<const ColumnValue> image) {
    if (image.empty() && rows.columnCount != 0) {
        out += "null";
        return;
    }
    out.push_back('[');
    for (size_t i = 0; i < image.size(); ++i) {
        if (i != 0) {
            out.push_back(',');
        }
        image[i].appendJson(out, rows.table->columns[i]);
    }
    out.push_back(']');
}

void appendImageText(std::string& out, const RowsEvent& rows, std::span<const ColumnValue> image,
                     const std::vector<bool>& present) {
    out.push_back('(');
    bool first = true;
    for (size_t i = 0; i < image.size(); ++i) {
        if (i < present.size() && !present[i]) {
            continue;  // not logged (binlog_row_image MINIMAL or NOBLOB)
        }
        if (!first) {
            out += ", ";
        }
        first = false;
        const ColumnDef& column = rows.table->columns[i];
        switch (image[i].kind()) {
            case ValueKind::Null:
                out += "NULL";
                break;
            case ValueKind::Int:
            case ValueKind::UInt:
            case ValueKind::Float:
            case ValueKind::Double:
            case ValueKind::Decimal:
            case ValueKind::Year:
            case ValueKind::Bit:
                image[i].appendText(out, column);
                break;
            default: {
                std::string text = image[i].toText(column);
                if (isValidUtf8(text) && image[i].kind() != ValueKind::Geometry) {
                    out.push_back('\'');
                    appendOneLine(out, text);
                    out.push_back('\'');
                } else {
                    out += "x'";
                    appendHex(out, text);
                    out.push_back('\'');
                }
            }
        }
    }
    out.push_back(')');
}

}  // namespace

void DecodeEventPrinter::trackGtid(const Event& event) {
    if (const auto* gtid = event.as<MariaDbGtidEvent>()) {
        gtid_ = gtid->text();
        gtidEndsAfterNext_ = (gtid->flags & MariaDbGtidEvent::kStandalone) != 0;
        return;
    }
    if (const auto* gtid = event.as<MySqlGtidEvent>()) {
        gtid_ = gtid->anonymous ? std::string() : gtid->text();
        gtidEndsAfterNext_ = false;
    }
}

std::string DecodeEventPrinter::statement(const std::string& text) const {
    return showSecrets_ ? text : redactSecrets(text);
}

void DecodeEventPrinter::print(const Event& event) {
    if (event.type() == EventType::Heartbeat || event.type() == EventType::HeartbeatV2) {
        return;  // not binlog content: the server's sign of life on an idle stream
    }
    trackGtid(event);
    line_.clear();
    if (format_ == Format::JsonLines) {
        appendJson(line_, event);
    } else {
        appendText(line_, event);
    }
    line_.push_back('\n');
    out_.write(line_.data(), static_cast<std::streamsize>(line_.size()));

    // The transaction's GTID applies until its end.
    bool ends = event.type() == EventType::Xid || gtidEndsAfterNext_;
    if (const auto* query = event.as<QueryEvent>()) {
        ends = ends || query->kind == QueryEvent::Kind::Commit || query->kind == QueryEvent::Kind::Rollback ||
               query->kind == QueryEvent::Kind::Ddl;
    }
    bool isGtid = event.as<MariaDbGtidEvent>() != nullptr || event.as<MySqlGtidEvent>() != nullptr;
    if (ends && !isGtid) {
        gtid_.clear();
        gtidEndsAfterNext_ = false;
    }
}

void DecodeEventPrinter::appendJson(std::string& out, const Event& event) const {
    out += "{\"file\":";
    appendJsonString(out, event.file);
    out += ",\"pos\":" + std::to_string(event.pos);
    out += ",\"end_pos\":" + std::to_string(event.endPos);
    appendJsonText(out, "type", eventTypeName(event.type()));
    out += ",\"timestamp\":" + std::to_string(event.header.timestamp);
    out += ",\"server_id\":" + std::to_string(event.header.serverId);
    if (!gtid_.empty()) {
        appendJsonText(out, "gtid", gtid_);
    }
    if (event.insidePayload) {
        out += ",\"inside_payload\":true";
    }
    if (const auto* query = event.as<QueryEvent>()) {
        appendJsonText(out, "schema", query->schema);
        appendJsonText(out, "query", statement(query->query));
    } else if (const auto* rows = event.as<RowsEvent>()) {
        appendJsonText(out, "schema", rows->table->schema);
        appendJsonText(out, "table", rows->table->table);
        appendJsonText(out, "op", rowsOpName(rows->op));
        appendKey(out, "columns");
        out.push_back('[');
        for (size_t i = 0; i < rows->table->columns.size(); ++i) {
            if (i != 0) {
                out.push_back(',');
            }
            const std::string& name = rows->table->columns[i].name;
            if (name.empty()) {
                out += "null";
            } else {
                appendJsonString(out, name);
            }
        }
        out += "],\"rows\":[";
        for (size_t row = 0; row < rows->rowCount(); ++row) {
            out += row == 0 ? "{\"before\":" : ",{\"before\":";
            appendImageJson(out, *rows, rows->before(row));
            out += ",\"after\":";
            appendImageJson(out, *rows, rows->after(row));
            out.push_back('}');
        }
        out.push_back(']');
    } else if (const auto* map = event.as<TableMapEvent>()) {
        appendJsonText(out, "schema", map->table->schema);
        appendJsonText(out, "table", map->table->table);
        out += ",\"table_id\":" + std::to_string(map->table->tableId);
    } else if (const auto* gtid = event.as<MariaDbGtidEvent>()) {
        appendJsonText(out, "event_gtid", gtid->text());
    } else if (const auto* gtid = event.as<MySqlGtidEvent>()) {
        appendJsonText(out, "event_gtid", gtid->text());
    } else if (const auto* rotate = event.as<RotateEvent>()) {
        appendJsonText(out, "next_file", rotate->nextFile);
        out += ",\"next_pos\":" + std::to_string(rotate->position);
    } else if (const auto* xid = event.as<XidEvent>()) {
        out += ",\"xid\":" + std::to_string(xid->xid);
    } else if (const auto* fde = event.as<FormatDescriptionEvent>()) {
        appendJsonText(out, "server_version", fde->serverVersion);
        appendJsonText(out, "checksum", checksumName(fde->checksum));
    } else if (const auto* list = event.as<GtidListEvent>()) {
        appendJsonText(out, "gtid_list", list->text());
    } else if (const auto* previous = event.as<PreviousGtidsEvent>()) {
        appendJsonText(out, "gtid_set", previous->text());
    } else if (const auto* annotate = event.as<AnnotateRowsEvent>()) {
        appendJsonText(out, "query", statement(annotate->query));
    } else if (const auto* rowsQuery = event.as<RowsQueryEvent>()) {
        appendJsonText(out, "query", statement(rowsQuery->query));
    } else if (const auto* checkpoint = event.as<BinlogCheckpointEvent>()) {
        appendJsonText(out, "checkpoint_file", checkpoint->file);
    }
    out.push_back('}');
}

void DecodeEventPrinter::appendText(std::string& out, const Event& event) const {
    out += event.file;
    out += ":" + std::to_string(event.pos) + "-" + std::to_string(event.endPos) + " ";
    out += eventTypeName(event.type());
    if (event.insidePayload) {
        out += " (in payload)";
    }
    if (const auto* query = event.as<QueryEvent>()) {
        out += " ";
        out += query->schema.empty() ? "-" : query->schema;
        out += ": ";
        appendOneLine(out, statement(query->query));
    } else if (const auto* rows = event.as<RowsEvent>()) {
        out += " ";
        out += rowsOpName(rows->op);
        out += " " + rows->table->schema + "." + rows->table->table + " " + std::to_string(rows->rowCount()) +
               (rows->rowCount() == 1 ? " row:" : " rows:");
        for (size_t row = 0; row < rows->rowCount(); ++row) {
            out.push_back(' ');
            if (rows->hasBefore(row)) {
                appendImageText(out, *rows, rows->before(row), rows->presentBefore);
            }
            if (rows->hasBefore(row) && rows->hasAfter(row)) {
                out += " -> ";
            }
            if (rows->hasAfter(row)) {
                appendImageText(out, *rows, rows->after(row), rows->presentAfter);
            }
        }
    } else if (const auto* map = event.as<TableMapEvent>()) {
        out += " " + map->table->schema + "." + map->table->table + " id " + std::to_string(map->table->tableId) +
               ", " + std::to_string(map->table->columns.size()) + " columns";
    } else if (const auto* gtid = event.as<MariaDbGtidEvent>()) {
        out += " " + gtid->text();
    } else if (const auto* gtid = event.as<MySqlGtidEvent>()) {
        out += " " + gtid->text();
    } else if (const auto* rotate = event.as<RotateEvent>()) {
        out += " to " + rotate->nextFile + ":" + std::to_string(rotate->position);
    } else if (const auto* xid = event.as<XidEvent>()) {
        out += " xid " + std::to_string(xid->xid);
    } else if (const auto* fde = event.as<FormatDescriptionEvent>()) {
        out += " server " + fde->serverVersion + ", checksum " + checksumName(fde->checksum);
    } else if (const auto* list = event.as<GtidListEvent>()) {
        out += " [" + list->text() + "]";
    } else if (const auto* previous = event.as<PreviousGtidsEvent>()) {
        out += " [" + previous->text() + "]";
    } else if (const auto* annotate = event.as<AnnotateRowsEvent>()) {
        out += " ";
        appendOneLine(out, statement(annotate->query));
    } else if (const auto* rowsQuery = event.as<RowsQueryEvent>()) {
        out += " ";
        appendOneLine(out, statement(rowsQuery->query));
    } else if (const auto* checkpoint = event.as<BinlogCheckpointEvent>()) {
        out += " " + checkpoint->file;
    }
    out += " ts " + std::to_string(event.header.timestamp) + " server " + std::to_string(event.header.serverId);
    if (!gtid_.empty() && event.as<MariaDbGtidEvent>() == nullptr && event.as<MySqlGtidEvent>() == nullptr) {
        out += " gtid " + gtid_;
    }
}

}  // namespace syncscope::cli
