#include "engine/apply/row_change.h"

namespace syncscope::apply {

const char* rowOpName(RowOp op) {
    switch (op) {
        case RowOp::Insert:
            return "insert";
        case RowOp::Update:
            return "update";
        case RowOp::Delete:
            return "delete";
    }
    return "unknown";
}

std::string SourcePoint::text() const {
    std::string out = file.empty() ? std::string("(unknown position)") : file + ":" + std::to_string(pos);
    if (!gtid.empty()) {
        out += " gtid " + gtid;
    }
    return out;
}

std::string describeImage(const schema::TableSchema& table, const std::vector<SqlValue>& image) {
    std::string out = "(";
    const auto& columns = table.columns();
    for (size_t i = 0; i < image.size(); ++i) {
        out += i == 0 ? "" : ", ";
        out += i < columns.size() ? columns[i].name : "column " + std::to_string(i + 1);
        out += "=" + image[i].display();
    }
    return out + ")";
}

const SourcePoint& RowChange::source() const {
    static const SourcePoint kUnknown;
    return origin ? origin->source : kUnknown;
}

void RowChange::setSource(SourcePoint point) {
    auto own = std::make_shared<RowsOrigin>();
    own->source = std::move(point);
    origin = std::move(own);
}

size_t RowChange::footprintBytes() const {
    // The origin is shared by the rows of one event: each row counts the text bytes its values borrow.
    size_t bytes = sizeof(RowChange);
    for (const auto* image : {&before, &after}) {
        bytes += image->size() * sizeof(SqlValue);
        for (const auto& value : *image) {
            if (value.kind() == SqlValueKind::Text || value.kind() == SqlValueKind::Bytes) {
                bytes += value.asString().size();
            }
        }
    }
    return bytes;
}

bool RowChange::keyChanged() const {
    if (op != RowOp::Update) {
        return false;
    }
    for (size_t column : table->rowKey().columns) {
        if (column >= before.size() || column >= after.size() || !(before[column] == after[column])) {
            return true;
        }
    }
    return false;
}

std::string RowChange::describe() const {
    std::string out = std::string(rowOpName(op)) + " of " + target().text() + " at " + source().text() +
                      " (transaction " + std::to_string(transactionSeq) + (safeMode ? ", safe mode" : "") + ")";
    if (!before.empty()) {
        out += "; before " + describeImage(*table, before);
    }
    if (!after.empty()) {
        out += "; after " + describeImage(*table, after);
    }
    return out;
}

}  // namespace syncscope::apply
