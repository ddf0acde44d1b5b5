#include "engine/apply/apply_failure.h"

namespace syncscope::apply {

std::string ApplyFailure::describe() const {
    std::string out = "downstream error " + std::to_string(code) + " (" + errorClassName(errorClass) + "): " + message +
                      "; on " + change.describe();
    if (!rowIdentified) {
        out += " (the first row of the failed batch: no single row failed again when replayed)";
    }
    out += "; SQL: " + sql;
    std::string hint = hintForDownstreamError(code);
    if (!hint.empty()) {
        out += "; " + hint;
    }
    return out;
}

}  // namespace syncscope::apply
