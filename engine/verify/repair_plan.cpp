#include "engine/verify/repair_plan.h"

#include "engine/apply/dml_builder.h"

namespace syncscope::verify {

namespace {

// What the statement builder needs of the downstream table: the compared columns in order and the key.
std::shared_ptr<const schema::TableSchema> targetSchema(const ComparedTable& table) {
    std::vector<schema::SchemaColumn> columns;
    for (const auto& column : table.columns()) {
        schema::SchemaColumn schemaColumn;
        schemaColumn.name = column.name;
        columns.push_back(std::move(schemaColumn));
    }
    return std::make_shared<schema::TableSchema>(table.downstreamName(), std::move(columns), table.keyColumns(),
                                                 std::vector<schema::UniqueKey>{}, schema::SchemaOrigin::Downstream);
}

std::vector<apply::SqlValue> boundRow(const ComparedTable& table, const RowValues& row) {
    std::vector<apply::SqlValue> values;
    values.reserve(row.size());
    for (size_t i = 0; i < row.size(); ++i) {
        values.push_back(table.boundValue(i, row[i]));
    }
    return values;
}

std::string literal(const apply::SqlValue& value) {
    static const char* const kHex = "0123456789ABCDEF";
    switch (value.kind()) {
        case apply::SqlValueKind::Null:
            return "NULL";
        case apply::SqlValueKind::Signed:
        case apply::SqlValueKind::Unsigned:
        case apply::SqlValueKind::Double:
            return *value.text();
        case apply::SqlValueKind::Bytes: {
            if (value.asString().empty()) {
                return "''";
            }
            std::string hex = "0x";
            for (unsigned char c : value.asString()) {
                hex += kHex[c >> 4];
                hex += kHex[c & 0xf];
            }
            return hex;
        }
        case apply::SqlValueKind::Text:
            break;
    }
    std::string quoted = "'";
    for (char c : value.asString()) {
        if (c == '\'' || c == '\\') {
            quoted += c;
        }
        quoted += c;
    }
    return quoted + "'";
}

}  // namespace

RepairPlan::RepairPlan(const ComparedTable& table, const std::vector<RowDifference>& differences)
    : target_(targetSchema(table)) {
    for (const auto& difference : differences) {
        apply::RowChange change;
        change.table = target_;
        change.setSource({"verify", 0, ""});
        switch (difference.kind) {
            case DifferenceKind::Missing:
                change.op = apply::RowOp::Insert;
                change.after = boundRow(table, difference.upstreamRow);
                break;
            case DifferenceKind::Extra:
                change.op = apply::RowOp::Delete;
                change.before = boundRow(table, difference.downstreamRow);
                break;
            case DifferenceKind::Different:
                change.op = apply::RowOp::Update;
                change.before = boundRow(table, difference.downstreamRow);
                change.after = boundRow(table, difference.upstreamRow);
                break;
        }
        for (uint64_t copy = 0; copy < difference.count; ++copy) {
            changes_.push_back(change);
        }
    }
}

std::vector<apply::DmlStatement> RepairPlan::statements() const {
    return apply::DmlBuilder(false).build(changes_);
}

std::string RepairPlan::sqlText() const {
    std::string text;
    for (const auto& statement : statements()) {
        text += withLiterals(statement) + ";\n";
    }
    return text;
}

std::string withLiterals(const apply::DmlStatement& statement) {
    std::string out;
    size_t next = 0;
    char quote = 0;
    for (char c : statement.sql) {
        if (quote != 0) {
            quote = c == quote ? 0 : quote;  // a doubled quote closes and reopens: same result
            out += c;
        } else if (c == '`' || c == '\'' || c == '"') {
            quote = c;
            out += c;
        } else if (c == '?' && next < statement.params.size()) {
            out += literal(*statement.params[next++]);
        } else {
            out += c;
        }
    }
    return out;
}

}  // namespace syncscope::verify
