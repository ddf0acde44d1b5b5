#include "engine/load/load_plan.h"

namespace syncscope::load {

namespace {

// (k1 OP1 v1) OR (k1 = v1 AND k2 OP1 v2) OR ... OR (k1 = v1 AND ... AND kn OPn vn): a row comparison
// spelled out, because the range optimizer uses the key for this form and not always for (k1, k2) > (v1, v2).
std::string compareKey(const std::vector<std::string>& columns, const KeyBound& bound, const char* strict,
                       const char* last) {
    std::string text = "(";
    for (size_t i = 0; i < columns.size(); ++i) {
        text += i == 0 ? "(" : " OR (";
        for (size_t j = 0; j < i; ++j) {
            text += TableName::quote(columns[j]) + " = " + bound[j] + " AND ";
        }
        text += TableName::quote(columns[i]) + (i + 1 == columns.size() ? last : strict) + bound[i] + ")";
    }
    return text + ")";
}

}  // namespace

std::string chunkCondition(const LoadChunk& chunk) {
    std::string condition;
    if (chunk.lower) {
        condition = compareKey(chunk.keyColumns, *chunk.lower, " > ", " >= ");
    }
    if (chunk.upper) {
        condition += (condition.empty() ? "" : " AND ") + compareKey(chunk.keyColumns, *chunk.upper, " < ", " < ");
    }
    return condition.empty() ? "1" : condition;
}

}  // namespace syncscope::load
