#include "engine/verify/chunk_sql.h"

#include <algorithm>
#include <bit>

#include "engine/apply/quoted_name.h"

namespace syncscope::verify {

namespace {

// What the server reads a column as: the text both sides print the same way. Character data is
// converted to utf8mb4 so that tables of different character sets compare by their characters.
std::string readExpression(const ComparedColumn& column) {
    std::string name = apply::quoteName(column.name);
    switch (column.form) {
        case ValueForm::Text:
        case ValueForm::Bytes:
            return name;
        case ValueForm::Unsigned:
            return "CAST(" + name + " AS UNSIGNED)";
        default:
            return "CAST(" + name + " AS CHAR)";
    }
}

std::string hashInput(const ComparedColumn& column) {
    std::string name = apply::quoteName(column.name);
    switch (column.form) {
        case ValueForm::Text:
            // Converting costs a third of the hash: only where a side stores another character set.
            return column.convertToUtf8mb4 ? "CONVERT(" + name + " USING utf8mb4)" : name;
        case ValueForm::Unsigned:
            return "CAST(" + name + " AS UNSIGNED)";
        default:
            return name;
    }
}

}  // namespace

std::string KeyRange::describe(const ComparedTable& table) const {
    auto keyText = [&](const RowValues& key) {
        std::string text = "(";
        for (size_t i = 0; i < key.size(); ++i) {
            text += (i == 0 ? "" : ", ") + table.columns()[table.keyColumns()[i]].name + "=" +
                    table.boundValue(table.keyColumns()[i], key[i]).display();
        }
        return text + ")";
    };
    return std::string("keys ") + (lower ? "after " + keyText(*lower) : "from the first") + " " +
           (upper ? "up to " + keyText(*upper) : "to the last");
}

std::string ChunkSql::selectList() const {
    std::string list;
    for (const auto& column : table_.columns()) {
        list += (list.empty() ? "" : ", ") + readExpression(column);
    }
    return list;
}

std::string ChunkSql::keyList() const {
    std::string list;
    for (size_t position : table_.keyColumns()) {
        list += (list.empty() ? "" : ", ") + apply::quoteName(table_.columns()[position].name);
    }
    return list;
}

std::string ChunkSql::keyReadList() const {
    std::string list;
    for (size_t position : table_.keyColumns()) {
        list += (list.empty() ? "" : ", ") + readExpression(table_.columns()[position]);
    }
    return list;
}

std::string ChunkSql::rowText() const {
    // Values joined by '#', then the NULL flag of every column either side lets be NULL, so that NULL
    // differs from '' (CONCAT_WS skips a NULL). A column NOT NULL on both sides holds no NULL, so its
    // flag, always 0, is left out: it cost a third of the hash.
    std::string values;
    std::string nulls;
    for (const auto& column : table_.columns()) {
        values += ", " + hashInput(column);
        if (column.nullable) {
            nulls += (nulls.empty() ? "" : ", ") + ("ISNULL(" + apply::quoteName(column.name) + ")");
        }
    }
    return "CONCAT_WS('#'" + values + (nulls.empty() ? "" : ", CONCAT(" + nulls + ")") + ")";
}

std::string ChunkSql::placeholder(size_t column) const {
    // A DECIMAL compared with a text parameter would be compared as DOUBLE: cast it to stay exact.
    return table_.columns()[column].form == ValueForm::Decimal ? "CAST(? AS DECIMAL(65,30))" : "?";
}

void ChunkSql::appendKeyComparison(std::string& sql, std::vector<apply::SqlValue>& params, const RowValues& key,
                                   bool greater) const {
    const auto& keyColumns = table_.keyColumns();
    sql += "(";
    for (size_t last = 0; last < keyColumns.size(); ++last) {
        sql += last == 0 ? "(" : " OR (";
        for (size_t i = 0; i <= last; ++i) {
            size_t column = keyColumns[i];
            std::string op = i < last ? " = " : (greater ? " > " : (last + 1 == keyColumns.size() ? " <= " : " < "));
            sql += (i == 0 ? "" : " AND ") + apply::quoteName(table_.columns()[column].name) + op + placeholder(column);
            params.push_back(table_.boundValue(column, key[i]));
        }
        sql += ")";
    }
    sql += ")";
}

void ChunkSql::appendRange(std::string& sql, std::vector<apply::SqlValue>& params, const KeyRange& range) const {
    if (!range.lower && !range.upper) {
        return;
    }
    sql += " WHERE ";
    if (range.lower) {
        appendKeyComparison(sql, params, *range.lower, true);
    }
    if (range.upper) {
        sql += range.lower ? " AND " : "";
        appendKeyComparison(sql, params, *range.upper, false);
    }
}

void ChunkSql::appendRanges(std::string& sql, std::vector<apply::SqlValue>& params,
                            std::span<const KeyRange> ranges) const {
    if (ranges.empty()) {
        sql += " WHERE 1 = 0";  // no range, no row (never the whole table)
        return;
    }
    if (ranges.size() == 1 ||
        std::any_of(ranges.begin(), ranges.end(), [](const KeyRange& range) { return !range.lower && !range.upper; })) {
        appendRange(sql, params, ranges.size() == 1 ? ranges.front() : KeyRange{});
        return;
    }
    for (size_t i = 0; i < ranges.size(); ++i) {
        sql += i == 0 ? " WHERE (" : " OR (";
        if (ranges[i].lower) {
            appendKeyComparison(sql, params, *ranges[i].lower, true);
        }
        if (ranges[i].upper) {
            sql += ranges[i].lower ? " AND " : "";
            appendKeyComparison(sql, params, *ranges[i].upper, false);
        }
        sql += ")";
    }
}

BoundQuery ChunkSql::boundary(const std::optional<RowValues>& lower, size_t offset) const {
    BoundQuery query;
    query.sql = "SELECT " + keyReadList() + " FROM " + apply::quoteTable(table_.upstreamName());
    appendRange(query.sql, query.params, KeyRange{lower, std::nullopt});
    query.sql += " ORDER BY " + keyList() + " LIMIT 1 OFFSET " + std::to_string(offset);
    return query;
}

BoundQuery ChunkSql::keyExtremes() const {
    const ComparedColumn& key = table_.columns()[table_.keyColumns().front()];
    const std::string name = apply::quoteName(key.name);
    // MIN and MAX of the bare column are read from the index's ends; a BIT key is cast after.
    auto extreme = [&](const char* function) {
        std::string call = std::string(function) + "(" + name + ")";
        return key.form == ValueForm::Unsigned ? "CAST(" + call + " AS UNSIGNED)" : call;
    };
    return {"SELECT " + extreme("MIN") + ", " + extreme("MAX") + " FROM " + apply::quoteTable(table_.upstreamName()),
            {}};
}

std::string ChunkSql::figuresFrom(const schema::TableName& side) const {
    return "COUNT(*), COALESCE(BIT_XOR(CRC32(" + rowText() + ") * " + std::to_string(kRowHashMix) + "), 0) FROM " +
           apply::quoteTable(side);
}

BoundQuery ChunkSql::checksum(const schema::TableName& side, const KeyRange& range) const {
    BoundQuery query;
    query.sql = "SELECT " + figuresFrom(side);
    appendRange(query.sql, query.params, range);
    return query;
}

BoundQuery ChunkSql::partChecksums(const schema::TableName& side, const std::vector<KeyRange>& parts) const {
    // UNION ALL of one range query per part: each is a range scan of its part, so the statement reads
    // the chunk once and groups nothing.
    BoundQuery query;
    const std::string hashed = figuresFrom(side);
    for (size_t part = 0; part < parts.size(); ++part) {
        query.sql += (part == 0 ? "SELECT " : " UNION ALL SELECT ") + std::to_string(part) + ", " + hashed;
        appendRange(query.sql, query.params, parts[part]);
    }
    return query;
}

BoundQuery ChunkSql::rowHashes(const schema::TableName& side, const KeyRange& range) const {
    return rowHashes(side, std::span<const KeyRange>(&range, 1));
}

BoundQuery ChunkSql::rowHashes(const schema::TableName& side, std::span<const KeyRange> ranges) const {
    BoundQuery query;
    query.sql = "SELECT " + keyReadList() + ", CRC32(" + rowText() + ") FROM " + apply::quoteTable(side);
    appendRanges(query.sql, query.params, ranges);
    query.sql += " ORDER BY " + keyList();
    return query;
}

BoundQuery ChunkSql::nextRowHashes(const std::optional<RowValues>& lower, size_t rows) const {
    BoundQuery query = rowHashes(table_.upstreamName(), KeyRange{lower, std::nullopt});
    query.sql += " LIMIT ?";
    query.params.push_back(apply::SqlValue::unsignedInt(rows));
    return query;
}

void ChunkSql::appendKeyEquals(std::string& sql, std::vector<apply::SqlValue>& params, const RowValues& key) const {
    const auto& keyColumns = table_.keyColumns();
    for (size_t i = 0; i < keyColumns.size(); ++i) {
        sql += (i == 0 ? "" : " AND ") + apply::quoteName(table_.columns()[keyColumns[i]].name) + " = " +
               placeholder(keyColumns[i]);
        params.push_back(table_.boundValue(keyColumns[i], key[i]));
    }
}

BoundQuery ChunkSql::rowByKey(const schema::TableName& side, const RowValues& key, bool lockUpstream) const {
    BoundQuery query;
    query.sql = "SELECT " + selectList() + " FROM " + apply::quoteTable(side) + " WHERE ";
    appendKeyEquals(query.sql, query.params, key);
    if (lockUpstream) {
        query.sql += " LOCK IN SHARE MODE";
    }
    return query;
}

BoundQuery ChunkSql::rowsByKeys(const schema::TableName& side, std::span<const RowValues> keys,
                                bool lockUpstream) const {
    BoundQuery query;
    if (keys.empty()) {
        return query;
    }
    const std::string head = ", " + selectList() + " FROM " + apply::quoteTable(side) + " WHERE ";
    const size_t lookups = std::bit_ceil(keys.size());
    for (size_t i = 0; i < lookups; ++i) {
        // Each lookup in parentheses: a locking clause belongs to one SELECT of a UNION.
        query.sql += (i == 0 ? "(SELECT " : " UNION ALL (SELECT ") + std::to_string(i) + head;
        appendKeyEquals(query.sql, query.params, keys[std::min(i, keys.size() - 1)]);
        query.sql += lockUpstream ? " LOCK IN SHARE MODE)" : ")";
    }
    return query;
}

std::string ChunkSql::rowCounts(const schema::TableName& side) const {
    std::string columns = selectList();
    return "SELECT " + columns + ", COUNT(*) FROM " + apply::quoteTable(side) + " GROUP BY " + columns;
}

std::string ChunkSql::wholeTableChecksum(const schema::TableName& side) const {
    // A sum of 32-bit hashes in DECIMAL arithmetic: equal rows add up instead of cancelling out.
    return "SELECT COUNT(*), COALESCE(SUM(CRC32(" + rowText() + ")), 0) FROM " + apply::quoteTable(side);
}

}  // namespace syncscope::verify
