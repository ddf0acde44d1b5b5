// The applied marks of a task's source in the downstream (engine/apply/applied_marks.h): created beside the
// checkpoint table, read when a session starts, removed with the checkpoint (--remove-meta). The workers
// write them, in their own transactions.
#pragma once

#include <string>

#include "engine/apply/applied_marks.h"

namespace sql {
class Connection;
}

namespace syncscope::checkpoint {

class AppliedMarksStore {
public:
    // `connection` stays owned by the caller (the pipeline's control connection).
    AppliedMarksStore(sql::Connection& connection, std::string metaSchema, std::string taskName);

    // CREATE TABLE IF NOT EXISTS (the meta schema exists: CheckpointTable::ensureTable made it).
    void ensureTable();
    // Every mark of `sourceId`; a missing table has none. A row whose position cannot be read throws
    // CheckpointTableError naming it: guessing could apply a row twice or skip one.
    apply::AppliedMarks load(const std::string& sourceId);
    // Deletes every mark of `sourceId`; a missing table is not an error.
    void remove(const std::string& sourceId);

private:
    [[noreturn]] void fail(const std::string& what, const std::string& sql, int code,
                           const std::string& serverMessage) const;

    sql::Connection& connection_;
    apply::AppliedMarksTable table_;
};

}  // namespace syncscope::checkpoint
