#include "app/cli/events_printer.h"

#include "engine/binlog/value_text.h"
#include "engine/browse/browse_time.h"

namespace syncscope::cli {

namespace {

void appendJsonStringArray(std::string& out, const std::vector<std::string>& values) {
    out.push_back('[');
    for (size_t i = 0; i < values.size(); ++i) {
        if (i != 0) {
            out.push_back(',');
        }
        binlog::appendJsonString(out, binlog::isValidUtf8(values[i]) ? values[i] : std::string("(not UTF-8)"));
    }
    out.push_back(']');
}

void appendImage(std::string& out, const std::vector<std::string>& names, const std::vector<std::string>& values) {
    out.push_back('(');
    for (size_t i = 0; i < values.size(); ++i) {
        out += (i == 0 ? "" : ", ") + (i < names.size() ? names[i] : std::string()) + "=" + values[i];
    }
    out.push_back(')');
}

}  // namespace

void EventsPrinter::transactionStarts(const browse::BrowsedTransaction& trx) {
    if (format_ == Format::JsonLines) {
        return;
    }
    std::string what = trx.isMarker ? std::string("between transactions") : trx.gtid.empty() ? "transaction" : trx.gtid;
    line_ = "# " + what + " at " + trx.file + ":" + std::to_string(trx.pos) + " " +
            browse::formatLocalTime(trx.timestamp) + "\n";
    out_ << line_;
}

void EventsPrinter::event(const browse::BrowsedTransaction& trx, browse::BrowsedEvent&& event) {
    if (format_ == Format::JsonLines) {
        eventJson(trx, event);
        return;
    }
    line_ = "  " + event.file + ":" + std::to_string(event.pos) + " " + browse::formatLocalTime(event.timestamp) + " " +
            (event.gtid.empty() ? std::string("-") : event.gtid) + " " + event.type;
    if (!event.table.empty()) {
        line_ += " " + event.schema + "." + event.table;
    }
    if (event.isRows()) {
        line_ +=
            " " + event.operation + " " + std::to_string(event.rowCount) + (event.rowCount == 1 ? " row" : " rows");
    } else if (!event.summary.empty()) {
        line_ += " " + event.summary;
    }
    line_ += '\n';
    for (const auto& row : event.rows) {
        line_ += "      ";
        if (!row.before.empty()) {
            appendImage(line_, event.columnNames, row.before);
        }
        if (!row.before.empty() && !row.after.empty()) {
            line_ += " -> ";
        }
        if (!row.after.empty()) {
            appendImage(line_, event.columnNames, row.after);
        }
        line_ += '\n';
    }
    out_ << line_;
}

void EventsPrinter::eventJson(const browse::BrowsedTransaction& trx, const browse::BrowsedEvent& event) {
    line_ = "{\"file\":";
    binlog::appendJsonString(line_, event.file);
    line_ += ",\"pos\":" + std::to_string(event.pos) + ",\"end_pos\":" + std::to_string(event.endPos);
    line_ += ",\"timestamp\":" + std::to_string(event.timestamp) + ",\"time\":";
    binlog::appendJsonString(line_, browse::formatLocalTime(event.timestamp));
    line_ += ",\"gtid\":";
    binlog::appendJsonString(line_, event.gtid);
    line_ += ",\"type\":";
    binlog::appendJsonString(line_, event.type);
    line_ += ",\"trx_file\":";
    binlog::appendJsonString(line_, trx.file);
    line_ += ",\"trx_pos\":" + std::to_string(trx.pos);
    if (!event.table.empty()) {
        line_ += ",\"schema\":";
        binlog::appendJsonString(line_, event.schema);
        line_ += ",\"table\":";
        binlog::appendJsonString(line_, event.table);
    }
    if (!event.operation.empty()) {
        line_ += ",\"op\":";
        binlog::appendJsonString(line_, event.operation);
    }
    if (event.isRows()) {
        line_ += ",\"rows\":" + std::to_string(event.rowCount);
    }
    if (!event.summary.empty()) {
        line_ += ",\"summary\":";
        binlog::appendJsonString(line_,
                                 binlog::isValidUtf8(event.summary) ? event.summary : std::string("(not UTF-8)"));
    }
    if (!event.columnNames.empty()) {
        line_ += ",\"columns\":";
        appendJsonStringArray(line_, event.columnNames);
        line_ += ",\"row_images\":[";
        for (size_t i = 0; i < event.rows.size(); ++i) {
            line_ += i == 0 ? "{\"key\":" : ",{\"key\":";
            binlog::appendJsonString(
                line_, binlog::isValidUtf8(event.rows[i].keyText) ? event.rows[i].keyText : std::string("(not UTF-8)"));
            line_ += ",\"before\":";
            if (event.rows[i].before.empty()) {
                line_ += "null";
            } else {
                appendJsonStringArray(line_, event.rows[i].before);
            }
            line_ += ",\"after\":";
            if (event.rows[i].after.empty()) {
                line_ += "null";
            } else {
                appendJsonStringArray(line_, event.rows[i].after);
            }
            line_ += '}';
        }
        line_ += ']';
    }
    line_ += "}\n";
    out_ << line_;
}

bool EventsPrinter::transactionEnds(const browse::BrowsedTransaction&) {
    ++printed_;
    return maxTransactions_ == 0 || printed_ < maxTransactions_;
}

}  // namespace syncscope::cli
