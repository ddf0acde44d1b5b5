// One table as the verifier compares it: the upstream table and its routed downstream twin, the
// columns both have (in the upstream's order), how each column is read, hashed and bound, and the key
// that orders and splits the table into chunks. Built from both sides' structure; a structural
// mismatch (table missing, columns or key differ) is a reported problem, not a guess.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/apply/sql_value.h"
#include "engine/schema/table_schema.h"

namespace syncscope::verify {

// A row as both servers return it: one text per column (nullopt for NULL).
using RowValues = std::vector<std::optional<std::string>>;

// How a column's value travels: what it is read as and how it is bound back into SQL.
enum class ValueForm : uint8_t {
    Signed,    // integers, YEAR: bound as int64
    Unsigned,  // unsigned integers, BIT: bound as uint64
    Decimal,   // bound as text, compared as DECIMAL
    Real,      // FLOAT, DOUBLE: text
    Temporal,  // DATE, TIME, DATETIME, TIMESTAMP: text (the session runs in UTC)
    Text,      // character strings, ENUM, SET, JSON: text in utf8mb4
    Bytes,     // BINARY, VARBINARY, BLOB, GEOMETRY: bytes
};

struct ComparedColumn {
    std::string name;
    ValueForm form = ValueForm::Text;
    // Character data hashed after CONVERT(... USING utf8mb4): a side stores it in another character set.
    bool convertToUtf8mb4 = false;
    // Either side allows NULL: only then does the row hash need the column's NULL flag.
    bool nullable = true;
};

class ComparedTable {
public:
    // Throws VerifyError saying what differs when the two structures cannot be compared: a column the
    // upstream has that the downstream lacks, or a key column missing downstream. Columns only the
    // downstream has are left out (DM allows them) and listed in downstreamOnlyColumns().
    static ComparedTable plan(const schema::TableSchema& upstream, const schema::TableSchema& downstream);

    // Marks the character columns whose character set (column name -> set, as information_schema says)
    // is not utf8mb4 on either side.
    void setCharacterSets(const std::map<std::string, std::string>& upstream,
                          const std::map<std::string, std::string>& downstream);

    const schema::TableName& upstreamName() const { return upstream_; }
    const schema::TableName& downstreamName() const { return downstream_; }
    const std::vector<ComparedColumn>& columns() const { return columns_; }
    // Positions into columns() of the key that orders the chunks; empty for a table without a key.
    const std::vector<size_t>& keyColumns() const { return keyColumns_; }
    bool hasKey() const { return !keyColumns_.empty(); }
    const std::string& keyName() const { return keyName_; }
    const std::vector<std::string>& downstreamOnlyColumns() const { return downstreamOnly_; }

    // The key values of a row read with all columns.
    RowValues keyOf(const RowValues& row) const;
    // A value read as text, as the bound parameter that stands for it.
    apply::SqlValue boundValue(size_t column, const std::optional<std::string>& value) const;
    // "upstream db.t -> downstream db2.t" for messages.
    std::string describe() const;

private:
    schema::TableName upstream_;
    schema::TableName downstream_;
    std::vector<ComparedColumn> columns_;
    std::vector<size_t> keyColumns_;
    std::string keyName_;
    std::vector<std::string> downstreamOnly_;
};

ValueForm valueFormOf(const schema::SchemaColumn& column);

}  // namespace syncscope::verify
