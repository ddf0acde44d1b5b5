// A row that the downstream refused, in full: what a person needs to fix it and what the task keeps
// while it stands in Error (position, table, operation, row images, SQL with values, error).
#pragma once

#include <cstddef>
#include <string>

#include "engine/apply/error_class.h"
#include "engine/apply/row_change.h"

namespace syncscope::apply {

struct ApplyFailure {
    RowChange change;  // the failing row (the first of its batch when rowIdentified is false)
    // False when replaying the batch row by row could not make one row fail again (the error came
    // from COMMIT, or was a passing one such as a deadlock).
    bool rowIdentified = true;
    std::string sql;  // the statement that failed, with its values
    int code = 0;     // the server's error code, 0 when the client failed on its own
    std::string message;
    ErrorClass errorClass = ErrorClass::NeedsDba;
    size_t worker = 0;

    // Everything above in one message: error, class, row, SQL and what to do.
    std::string describe() const;
};

}  // namespace syncscope::apply
