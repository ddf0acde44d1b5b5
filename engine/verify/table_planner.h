// Hands out a verify's tables one at a time, each planned (both sides' structure read and compared) on
// connections of its own, one table ahead of those taken: whoever takes a table (one of the tables
// compared at the same time, VerifySettings::parallelTables) finds it planned, and the servers do not
// wait for the structure between tables.
#pragma once

#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "engine/common/server_settings.h"
#include "engine/verify/compared_table.h"
#include "engine/verify/server_session.h"

namespace syncscope::verify {

class TablePlanner {
public:
    using TableNames = std::pair<schema::TableName, schema::TableName>;  // upstream, downstream (routed)
    // `plan` reads both sides' structure of one table and compares it (throws VerifyError).
    using PlanFunction = ComparedTable (*)(ServerSession& upstream, ServerSession& downstream,
                                           const schema::TableName& upstreamName,
                                           const schema::TableName& downstreamName);

    TablePlanner(ServerSettings upstream, ServerSettings downstream, std::vector<TableNames> tables, PlanFunction plan);
    // The planning of the table ahead ends first (it uses the connections below).
    ~TablePlanner();
    TablePlanner(const TablePlanner&) = delete;
    TablePlanner& operator=(const TablePlanner&) = delete;

    struct Taken {
        size_t index = 0;  // in the list given
        // Its plan: get() returns the table or throws what the planning threw (that table fails).
        std::future<ComparedTable> plan;
    };
    // The next table no one has taken yet, in the list's order, with its plan ended; nullopt when every
    // table is taken. Safe to call from several threads; each table is handed out exactly once.
    std::optional<Taken> take();

    size_t size() const { return tables_.size(); }
    const TableNames& names(size_t index) const { return tables_[index]; }

private:
    std::future<ComparedTable> planOnOwnSessions(size_t index);

    ServerSettings upstream_;
    ServerSettings downstream_;
    std::vector<TableNames> tables_;
    PlanFunction plan_;
    std::mutex mutex_;
    size_t next_ = 0;
    std::future<ComparedTable> ahead_;  // the plan of table next_, once started
    // Used by one planning at a time (the next starts once the last one has ended); opened on first use.
    std::unique_ptr<ServerSession> upstreamSession_;
    std::unique_ptr<ServerSession> downstreamSession_;
};

}  // namespace syncscope::verify
