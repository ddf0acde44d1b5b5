// Rows read again inside a replay window meet the downstream as it is now, which may be past them: a
// later DDL of the window, applied before, dropped one of their columns, or dropped or renamed their
// table. Such rows are fitted to the downstream: a column it lacks is not written, and the rows of a
// table it lacks are not applied (the replayed DDL after them leaves the same end). Each fit is an open
// question for the replayed DDL judge (replayed_ddl_judge.h): a DDL of the window must explain it, or
// the task stops when the window ends. Only rows a resume-from replays (up to the global point it
// replaced) are fitted; elsewhere, after an error or an unclean stop too, a missing column or table is an
// error, as drift must be.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/schema/table_schema.h"

namespace syncscope::task {

class ReplayedRowsFitter {
public:
    using DownstreamLookup = std::function<std::optional<schema::TableSchema>(const schema::TableName& target)>;

    explicit ReplayedRowsFitter(DownstreamLookup lookup) : lookup_(std::move(lookup)) {}

    struct Fit {
        bool tableAbsent = false;                           // the downstream has no such table: skip the rows
        std::vector<std::string> absentColumns;             // columns of the rows the downstream lacks
        std::shared_ptr<const schema::TableSchema> table;   // the structure to write with (absent columns left out)
        std::shared_ptr<const schema::TableSchema> source;  // the tracker's, kept alive: its address is the key
    };

    // How the rows of `table` (the schema tracker's structure) fit the downstream now.
    const Fit& fit(const std::shared_ptr<const schema::TableSchema>& table);

    // After a DDL: the downstream may have changed.
    void forgetAll() { fits_.clear(); }

private:
    DownstreamLookup lookup_;
    std::map<const schema::TableSchema*, Fit> fits_;
};

}  // namespace syncscope::task
