#include "engine/load/literal_row_reader.h"

// clang-format off
#include <mysql.h>
// clang-format on

#include <memory>

namespace syncscope::load {

namespace {

constexpr unsigned kBinaryCharset = 63;  // the `binary` character set number
constexpr char kHexDigits[] = "0123456789ABCDEF";

bool isTemporal(enum_field_types type) {
    switch (type) {
        case MYSQL_TYPE_DATE:
        case MYSQL_TYPE_NEWDATE:
        case MYSQL_TYPE_TIME:
        case MYSQL_TYPE_DATETIME:
        case MYSQL_TYPE_TIMESTAMP:
        case MYSQL_TYPE_YEAR:
            return true;
        default:
            return false;
    }
}

bool isNumber(enum_field_types type) {
    switch (type) {
        case MYSQL_TYPE_TINY:
        case MYSQL_TYPE_SHORT:
        case MYSQL_TYPE_LONG:
        case MYSQL_TYPE_INT24:
        case MYSQL_TYPE_LONGLONG:
        case MYSQL_TYPE_DECIMAL:
        case MYSQL_TYPE_NEWDECIMAL:
        case MYSQL_TYPE_FLOAT:
        case MYSQL_TYPE_DOUBLE:
            return true;
        default:
            return false;
    }
}

enum class LiteralKind { Number, Text, Binary };

LiteralKind kindOf(const MYSQL_FIELD& field) {
    if (isNumber(field.type)) {
        return LiteralKind::Number;
    }
    if (field.charsetnr == kBinaryCharset && !isTemporal(field.type)) {
        return LiteralKind::Binary;
    }
    return LiteralKind::Text;
}

// The escape of each byte that needs one inside a quoted SQL string (or a LOAD DATA field), else null.
struct EscapeTable {
    const char* escape[256] = {};
};

constexpr EscapeTable makeSqlEscapes() {
    EscapeTable table;
    table.escape[static_cast<unsigned char>('\0')] = "\\0";
    table.escape[static_cast<unsigned char>('\'')] = "\\'";
    table.escape[static_cast<unsigned char>('\\')] = "\\\\";
    table.escape[static_cast<unsigned char>('\n')] = "\\n";
    table.escape[static_cast<unsigned char>('\r')] = "\\r";
    table.escape[static_cast<unsigned char>('\x1a')] = "\\Z";
    return table;
}

// LOAD DATA's defaults (FIELDS TERMINATED BY '\t' ESCAPED BY '\\' LINES TERMINATED BY '\n'): the
// separators and the escape character itself; NUL escaped as well so that no byte is reinterpreted.
constexpr EscapeTable makeLoadDataEscapes() {
    EscapeTable table;
    table.escape[static_cast<unsigned char>('\0')] = "\\0";
    table.escape[static_cast<unsigned char>('\\')] = "\\\\";
    table.escape[static_cast<unsigned char>('\t')] = "\\t";
    table.escape[static_cast<unsigned char>('\n')] = "\\n";
    return table;
}

constexpr EscapeTable kSqlEscapes = makeSqlEscapes();
constexpr EscapeTable kLoadDataEscapes = makeLoadDataEscapes();

// Appends runs of plain bytes at once: most values have nothing to escape.
void appendEscaped(std::string& out, const char* value, unsigned long length, const EscapeTable& table) {
    unsigned long run = 0;
    for (unsigned long i = 0; i < length; ++i) {
        if (const char* escape = table.escape[static_cast<unsigned char>(value[i])]) {
            out.append(value + run, i - run);
            out += escape;
            run = i + 1;
        }
    }
    out.append(value + run, length - run);
}

void appendHex(std::string& out, const char* value, unsigned long length) {
    size_t at = out.size();
    out.resize(at + 2 * length);
    for (unsigned long i = 0; i < length; ++i) {
        auto byte = static_cast<unsigned char>(value[i]);
        out[at + 2 * i] = kHexDigits[byte >> 4];
        out[at + 2 * i + 1] = kHexDigits[byte & 0x0F];
    }
}

void appendLiteral(std::string& out, LiteralKind kind, const char* value, unsigned long length) {
    if (value == nullptr) {
        out += "NULL";
        return;
    }
    switch (kind) {
        case LiteralKind::Number:
            out.append(value, length);
            return;
        case LiteralKind::Binary:
            out += "X'";
            appendHex(out, value, length);
            out += '\'';
            return;
        case LiteralKind::Text:
            out += '\'';
            appendEscaped(out, value, length, kSqlEscapes);
            out += '\'';
            return;
    }
}

using Result = std::unique_ptr<MYSQL_RES, void (*)(MYSQL_RES*)>;

[[noreturn]] void fail(source::UpstreamConnection& connection, const std::string& what, const std::string& select) {
    MYSQL* m = connection.handle();
    throw source::UpstreamError("upstream " + connection.settings().describe() + ": " + what + ": " + mysql_error(m) +
                                    " [" + std::to_string(mysql_errno(m)) + "] (" + select + ")",
                                mysql_errno(m));
}

template <typename OnRow>
void readRows(source::UpstreamConnection& connection, const std::string& select, bool streamed, OnRow onRow) {
    MYSQL* m = connection.handle();
    if (mysql_real_query(m, select.data(), select.size()) != 0) {
        fail(connection, "query failed", select);
    }
    Result result(streamed ? mysql_use_result(m) : mysql_store_result(m), mysql_free_result);
    if (!result) {
        fail(connection, "reading the result failed", select);
    }
    unsigned columns = mysql_num_fields(result.get());
    MYSQL_FIELD* fields = mysql_fetch_fields(result.get());
    std::vector<LiteralKind> kinds;
    kinds.reserve(columns);
    for (unsigned i = 0; i < columns; ++i) {
        kinds.push_back(kindOf(fields[i]));
    }
    while (MYSQL_ROW row = mysql_fetch_row(result.get())) {
        onRow(row, mysql_fetch_lengths(result.get()), kinds);
    }
    if (mysql_errno(m) != 0) {
        fail(connection, "reading rows failed", select);
    }
}

}  // namespace

UpstreamRowCursor::UpstreamRowCursor(source::UpstreamConnection& connection, std::string select)
    : connection_(connection), select_(std::move(select)) {
    MYSQL* m = connection_.handle();
    if (mysql_real_query(m, select_.data(), select_.size()) != 0) {
        fail(connection_, "query failed", select_);
    }
    result_ = mysql_use_result(m);
    if (result_ == nullptr) {
        fail(connection_, "reading the result failed", select_);
    }
    unsigned columns = mysql_num_fields(result_);
    MYSQL_FIELD* fields = mysql_fetch_fields(result_);
    for (unsigned i = 0; i < columns; ++i) {
        binary_.push_back(kindOf(fields[i]) == LiteralKind::Binary);
        autoIncrement_.push_back((fields[i].flags & AUTO_INCREMENT_FLAG) != 0);
    }
}

UpstreamRowCursor::~UpstreamRowCursor() {
    // Frees the rest of the result too (mysql_free_result reads what the server still sends).
    mysql_free_result(result_);
}

bool UpstreamRowCursor::next() {
    row_ = mysql_fetch_row(result_);
    if (row_ == nullptr) {
        if (mysql_errno(connection_.handle()) != 0) {
            fail(connection_, "reading rows failed", select_);
        }
        return false;
    }
    lengths_ = mysql_fetch_lengths(result_);
    return true;
}

uint64_t UpstreamRowCursor::appendLoadDataLine(std::string& out) const {
    uint64_t bytes = 0;
    for (size_t i = 0; i < binary_.size(); ++i) {
        if (i != 0) {
            out += '\t';
        }
        if (row_[i] == nullptr) {
            out += "\\N";
        } else if (binary_[i]) {
            appendHex(out, row_[i], lengths_[i]);
        } else {
            appendEscaped(out, row_[i], lengths_[i], kLoadDataEscapes);
        }
        bytes += lengths_[i];
    }
    out += '\n';
    return bytes;
}

std::string sqlString(const std::string& text) {
    std::string out;
    appendLiteral(out, LiteralKind::Text, text.data(), text.size());
    return out;
}

void streamLiteralRows(source::UpstreamConnection& connection, const std::string& select, const LiteralRowSink& sink) {
    std::string tuple;
    readRows(connection, select, true,
             [&](MYSQL_ROW row, const unsigned long* lengths, const std::vector<LiteralKind>& kinds) {
                 tuple.clear();
                 tuple += '(';
                 uint64_t bytes = 0;
                 for (size_t i = 0; i < kinds.size(); ++i) {
                     if (i != 0) {
                         tuple += ',';
                     }
                     appendLiteral(tuple, kinds[i], row[i], lengths[i]);
                     bytes += lengths[i];
                 }
                 tuple += ')';
                 sink(tuple, bytes);
             });
}

std::vector<std::vector<std::string>> queryLiteralRows(source::UpstreamConnection& connection,
                                                       const std::string& select) {
    std::vector<std::vector<std::string>> rows;
    readRows(connection, select, false,
             [&](MYSQL_ROW row, const unsigned long* lengths, const std::vector<LiteralKind>& kinds) {
                 std::vector<std::string> values(kinds.size());
                 for (size_t i = 0; i < kinds.size(); ++i) {
                     appendLiteral(values[i], kinds[i], row[i], lengths[i]);
                 }
                 rows.push_back(std::move(values));
             });
    return rows;
}

}  // namespace syncscope::load
