#include "engine/browse/browse_filter.h"

#include <algorithm>
#include <cctype>

#include "engine/binlog/mariadb_gtid.h"
#include "engine/browse/binlog_history.h"
#include "engine/browse/key_matcher.h"
#include "engine/browse/row_text.h"
#include "engine/common/secret_redaction.h"

namespace syncscope::browse {

namespace {

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

std::string oneLine(std::string_view text) {
    std::string out(text);
    std::replace_if(
        out.begin(), out.end(), [](char c) { return c == '\n' || c == '\r' || c == '\t'; }, ' ');
    return out;
}

std::string summaryOf(const binlog::Event& event) {
    if (const auto* gtid = event.as<binlog::MariaDbGtidEvent>()) {
        return gtid->text();
    }
    if (const auto* gtid = event.as<binlog::MySqlGtidEvent>()) {
        return gtid->anonymous ? std::string("anonymous") : gtid->text();
    }
    if (const auto* xid = event.as<binlog::XidEvent>()) {
        return "xid " + std::to_string(xid->xid);
    }
    if (const auto* rotate = event.as<binlog::RotateEvent>()) {
        return "to " + rotate->nextFile + ":" + std::to_string(rotate->position);
    }
    if (const auto* map = event.as<binlog::TableMapEvent>()) {
        return "table id " + std::to_string(map->table->tableId);
    }
    if (const auto* annotate = event.as<binlog::AnnotateRowsEvent>()) {
        return oneLine(annotate->query);
    }
    if (const auto* rowsQuery = event.as<binlog::RowsQueryEvent>()) {
        return oneLine(rowsQuery->query);
    }
    if (const auto* list = event.as<binlog::GtidListEvent>()) {
        return list->text();
    }
    if (const auto* previous = event.as<binlog::PreviousGtidsEvent>()) {
        return previous->text();
    }
    if (const auto* fde = event.as<binlog::FormatDescriptionEvent>()) {
        return fde->serverVersion;
    }
    if (const auto* checkpoint = event.as<binlog::BinlogCheckpointEvent>()) {
        return checkpoint->file;
    }
    return {};
}

}  // namespace

std::set<std::string> BrowseFilter::parseOperations(const std::string& commaSeparated) {
    std::set<std::string> operations;
    size_t start = 0;
    while (start <= commaSeparated.size()) {
        size_t comma = commaSeparated.find(',', start);
        std::string word =
            lower(commaSeparated.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (word != "insert" && word != "update" && word != "delete" && word != "ddl") {
            throw BrowseError("operation '" + word + "' is not one of insert, update, delete, ddl");
        }
        operations.insert(word);
        if (comma == std::string::npos) {
            break;
        }
        start = comma + 1;
    }
    return operations;
}

bool BrowseFilter::acceptsTransaction(const BrowsedTransaction& trx) const {
    if (fromTime && trx.timestamp < *fromTime) {
        return false;
    }
    if (toTime && trx.timestamp > *toTime) {
        return false;
    }
    if (gtidDomain) {
        if (trx.gtid.empty() || trx.gtid.find(':') != std::string::npos) {
            return false;  // no GTID, or a MySQL one (no domains)
        }
        size_t dash = trx.gtid.find('-');
        if (dash == std::string::npos || trx.gtid.substr(0, dash) != std::to_string(*gtidDomain)) {
            return false;
        }
    }
    return true;
}

std::string BrowseFilter::shown(std::string statement) const {
    return showSecrets ? statement : redactSecrets(statement);
}

bool BrowseFilter::describe(const binlog::Event& event, BrowsedEvent& out, const KeyMatcher* keyMatcher) const {
    const auto* rows = event.as<binlog::RowsEvent>();
    const auto* query = rows == nullptr ? event.as<binlog::QueryEvent>() : nullptr;
    // Decided before anything is copied into `out`: a search reads many events and shows few.
    if (rows == nullptr && query == nullptr && selectsEvents()) {
        return false;
    }
    if (query != nullptr && selectsEvents() &&
        (keyValue || query->kind != binlog::QueryEvent::Kind::Ddl ||
         (!operations.empty() && !operations.contains("ddl")))) {
        return false;
    }
    if (rows != nullptr) {
        const std::string_view operation = binlog::rowsOpName(rows->op);
        if ((!schema.empty() && schema != rows->table->schema) || (!table.empty() && table != rows->table->table) ||
            (!operations.empty() && !operations.contains(std::string(operation)))) {
            return false;
        }
        const bool keepRows = rowImages || keyValue;
        std::vector<uint32_t> keys;
        if (keyValue) {
            keys = keyColumns(*rows->table);
        }
        auto keyMatches = [&](std::span<const binlog::ColumnValue> image) {
            return keyMatcher != nullptr ? keyMatcher->matches(*rows, image, keys) : keyText(*rows, image) == *keyValue;
        };
        for (size_t row = 0; row < rows->rowCount() && keepRows; ++row) {
            if (keyValue && !keyMatches(rows->hasAfter(row) ? rows->after(row) : rows->before(row)) &&
                !(rows->hasBefore(row) && keyMatches(rows->before(row)))) {
                continue;
            }
            RowImages images;
            images.keyText = keyText(*rows, rows->hasAfter(row) ? rows->after(row) : rows->before(row));
            if (rows->hasBefore(row)) {
                images.before = imageText(*rows, rows->before(row), rows->presentBefore);
            }
            if (rows->hasAfter(row)) {
                images.after = imageText(*rows, rows->after(row), rows->presentAfter);
            }
            out.rows.push_back(std::move(images));
        }
        if (keyValue && out.rows.empty()) {
            return false;
        }
        if (keepRows) {
            out.columnNames = columnNames(*rows->table);
        }
        out.schema = rows->table->schema;
        out.table = rows->table->table;
        out.operation = std::string(operation);
        out.rowCount = rows->rowCount();
    }
    out.file = std::string(event.file);
    out.pos = event.pos;
    out.endPos = event.endPos;
    out.timestamp = event.header.timestamp;
    out.type = std::string(binlog::eventTypeName(event.type()));
    if (rows != nullptr) {
        return true;
    }
    if (query != nullptr) {
        out.schema = query->schema;
        out.summary = shown(oneLine(query->query));
        if (query->kind == binlog::QueryEvent::Kind::Ddl) {
            out.operation = "ddl";
        }
        if (!selectsEvents()) {
            return true;
        }
        // A DDL is shown for a table it names (its text), in the schema it names or runs in.
        std::string text = lower(query->query);
        bool namesTable = table.empty() || text.find(lower(table)) != std::string::npos;
        bool inSchema =
            schema.empty() || lower(query->schema) == lower(schema) || text.find(lower(schema)) != std::string::npos;
        return namesTable && inSchema;
    }
    out.summary = shown(summaryOf(event));
    if (const auto* map = event.as<binlog::TableMapEvent>()) {
        out.schema = map->table->schema;
        out.table = map->table->table;
    }
    return true;
}

}  // namespace syncscope::browse
