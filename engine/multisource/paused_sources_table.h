// The sources of a task the DBA has paused, kept in the downstream beside the task's checkpoint:
// `<meta-schema>`.`<task>_syncscope_paused_sources`, one row per paused source (source_id, paused_since). The
// checkpoint says where a restart resumes, wherever it runs (another machine, another --log-dir, the GUI or the
// CLI); the pause must come from the same place, or a restart elsewhere would run a source the DBA paused. DM
// does not read this table (its own tables in the meta schema are left as they are).
#pragma once

#include <map>
#include <string>

#include "engine/common/server_settings.h"
#include "engine/multisource/multi_source_plan.h"

namespace syncscope::multisource {

// The table could not be read. Retryable when the downstream may answer later (down, restarting, a lost
// connection), as the engine classes downstream errors (apply/error_class.h); not for a wrong password.
class PausedSourcesUnreadable : public MultiSourceError {
public:
    PausedSourcesUnreadable(const std::string& message, bool retryable)
        : MultiSourceError(message), retryable_(retryable) {}
    bool retryable() const { return retryable_; }

private:
    bool retryable_;
};

class PausedSourcesTable {
public:
    static constexpr const char* kTableSuffix = "_syncscope_paused_sources";

    PausedSourcesTable(ServerSettings downstream, std::string metaSchema, std::string taskName);

    // Source id -> since when ("YYYY-MM-DD HH:MM:SS UTC"); a missing table or schema is "none paused". Throws
    // PausedSourcesUnreadable naming the table and the downstream when it cannot be read (nothing is started on a
    // guess).
    std::map<std::string, std::string> read() const;
    // Each opens one short connection (pauses are rare); throw Error naming the table, the downstream and the SQL.
    void remember(const std::string& sourceId, const std::string& since) const;  // creates the table when missing
    void forget(const std::string& sourceId) const;

    // "`dm_meta`.`shop_syncscope_paused_sources` on root@127.0.0.1:3308"
    std::string describe() const;

private:
    ServerSettings downstream_;
    std::string metaSchema_;
    std::string taskName_;
    std::string qualifiedName_;
};

}  // namespace syncscope::multisource
