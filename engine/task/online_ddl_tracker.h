// online-ddl: true, as DM's online DDL plugin (dm/syncer/online-ddl-tools): what a statement on a table of an
// online schema change tool (pt-online-schema-change, gh-ost, a custom tool named by rules) means for the
// downstream. The tool's shadow table and its trash tables are never created downstream and their rows are
// never applied; the ALTERs run on the shadow are recorded, and when the tool's RENAME swaps the shadow in
// they run on the real table instead, once. The recorded state is persisted with the checkpoint's barrier
// flushes (online_ddl_store.h), so it always matches the persisted global point; reading a recorded DDL
// again (a resume) does not record it twice.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/binlog/location.h"
#include "engine/checkpoint/online_ddl_store.h"
#include "engine/filter/classified_statement.h"
#include "engine/filter/online_ddl_rules.h"
#include "engine/task/status_snapshot.h"

namespace syncscope::task {

// What the pipeline does with one statement.
struct OnlineDdlStep {
    enum class Kind {
        Pass,    // not about a tool's table: the statement (or `sql`, what is left of a RENAME) goes its usual way
        Ignore,  // the tool's own: nothing runs downstream (`reason` says what it was)
        Swap,    // the shadow is swapped in: `ddls` run on the real table, then swapped(shadow)
        Error,   // `reason` names the change, the statement and what to do
    };
    Kind kind = Kind::Pass;
    std::string reason;
    std::string sql;                // Pass: the statement to plan (the event's own when empty)
    std::vector<std::string> ddls;  // Swap: the recorded DDLs written for the real table, names qualified
    filter::TableName shadow;       // Swap: whose change ends once `ddls` ran
    filter::TableName real;         // Swap: the real table
    std::string swapBefore;         // Swap: the real table's downstream definition kept when it first ran
};

class OnlineDdlTracker {
public:
    // `replicates` says whether the task replicates a (real) table (its block-allow list): a statement
    // about tables it does not replicate is none of its business, tool or not (DM filters first too).
    using Replicates = std::function<bool(const filter::TableName&)>;
    OnlineDdlTracker(std::shared_ptr<const filter::OnlineDdlRules> rules, std::string taskName,
                     Replicates replicates = {});

    // The persisted state (the store's entries of this source), before the first statement.
    void load(const std::vector<checkpoint::OnlineDdlEntry>& entries);

    // Whether the table is a tool's shadow or trash table, whose rows are never applied; `rows` row changes
    // of a shadow are counted as its copy's progress.
    // Asked for every rows event: the names are looked up as given, a TableName made only for a shadow's.
    bool ignoresRowsOf(std::string_view schema, std::string_view table, size_t rows);
    // What a statement (classified with the event's default schema) read at `at` means; records it when
    // it is a DDL on a shadow table.
    OnlineDdlStep onStatement(const filter::ClassifiedStatement& statement, std::string_view sql,
                              const binlog::Location& at);
    // The swap's DDLs are about to run (outside a replay window): the real table's downstream definition
    // now, persisted by the barrier flush before them.
    void swapStarting(const filter::TableName& shadow, const std::string& downstreamDefinition);
    // The swap's DDLs ran on the real table (or were found applied before): the change ends.
    void swapped(const filter::TableName& shadow);

    // The rows changed since the last call, for the barrier flush that persists them with the points.
    std::vector<checkpoint::OnlineDdlWrite> takeWrites();
    std::vector<OnlineChangeView> view() const;
    // Counts every change of what view() shows (a DDL, rows of a copy), for the live view's refresh.
    uint64_t viewVersion() const { return viewVersion_; }
    bool follows(const filter::TableName& shadow) const { return changes_.count(shadow) != 0; }

private:
    struct Change {
        checkpoint::OnlineDdlEntry entry;
        uint64_t rowsCopied = 0;
        std::string since;
    };

    filter::OnlineDdlRole roleOf(const filter::TableName& table) const { return roleOfName(table.table); }
    filter::OnlineDdlRole roleOfName(std::string_view table) const;
    filter::TableName realOf(const filter::TableName& shadowOrTrash) const;
    OnlineDdlStep onRename(const filter::ClassifiedStatement& statement, const binlog::Location& at);
    OnlineDdlStep record(const filter::TableName& shadow, const filter::ClassifiedStatement& statement,
                         std::string_view sql, const binlog::Location& at);
    OnlineDdlStep swapIn(const filter::TableName& shadow, const filter::TableName& real, const binlog::Location& at);
    void begin(const filter::TableName& shadow, const binlog::Location& at);
    void end(const filter::TableName& shadow);
    void changed(const filter::TableName& shadow);

    bool replicatesAny(const filter::ClassifiedStatement& statement) const;

    std::shared_ptr<const filter::OnlineDdlRules> rules_;
    std::string taskName_;
    Replicates replicates_;
    // Each table name's role, matched once: every rows event asks.
    struct NameHash {
        using is_transparent = void;
        size_t operator()(std::string_view name) const noexcept { return std::hash<std::string_view>{}(name); }
    };
    mutable std::unordered_map<std::string, filter::OnlineDdlRole, NameHash, std::equal_to<>> roles_;
    std::map<filter::TableName, Change> changes_;  // by shadow table
    uint64_t viewVersion_ = 0;
    std::set<filter::TableName> dirty_;  // shadows whose row changed since the last barrier flush
};

}  // namespace syncscope::task
