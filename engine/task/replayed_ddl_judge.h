// Inside a replay window (after resume-from an earlier point, a skip, or an unclean stop) the DDLs of the
// window may have run downstream before. Each one is judged by the downstream's current definition
// against the definitions before and after that DDL, as the judge tracks them: a CREATE gives its table's
// definition exactly, and every later DDL of the window on that table is run on a copy (a probe table in
// a probe database of its own, dropped at the end); a table that existed before the window starts from
// a copy of its downstream definition. The verdicts:
// - Apply: the downstream is before this DDL (or the DDL cannot be judged): it runs, and a failure stops;
// - AlreadyApplied: the downstream already has this DDL's after-definition (a CREATE that exists with it,
//   ADD COLUMN or INDEX already there with its definition, DROP already gone, RENAME already done): it is
//   passed over with the evidence;
// - Deferred: the downstream matches neither definition yet: a later DDL of the window may explain it
//   (a column added here and widened later), so the DDL is not run and the question stays open until
//   a later DDL of the same table finds the downstream at its before- or after-definition. Whatever is
//   still open when the window ends stops the task, naming both definitions and the DDL (conflicts()).
// DM ignores 1007, 1050, 1051, 1060, 1061, 1091 and 1146 in such replays; this judge forgives no more
// than the definitions prove.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/common/table_name.h"
#include "engine/task/ddl_statement.h"

namespace sql {
class Connection;
class SQLException;
}  // namespace sql

namespace syncscope::task {

struct ReplayVerdict {
    enum class Kind { Apply, AlreadyApplied, Deferred };
    ReplayVerdict(Kind verdictKind, std::string why, std::string sql = {})
        : kind(verdictKind), evidence(std::move(why)), sqlToRun(std::move(sql)) {}

    Kind kind;
    std::string evidence;  // why: what proves it applied, why it runs, or what is left open
    // Apply: the statement to run instead of the DDL ("" for the DDL itself). A CREATE ... LIKE of a table
    // this window changed copies the definition that table had then, not the downstream's later one.
    std::string sqlToRun;
};

class ReplayedDdlJudge {
public:
    // The prefix of one task's and source's probe databases ("_syncscope_replay_" and a hash of both
    // names), so that tasks sharing a downstream never touch each other's.
    static std::string probePrefixFor(const std::string& taskName, const std::string& sourceId);

    // Drops the probe databases named by `probePrefix` that a run stopped inside a replay window left
    // (killed before its judge dropped them); returns their names. Throws sql::SQLException.
    static std::vector<std::string> dropLeftProbes(sql::Connection& control, const std::string& probePrefix);

    // `probePrefix` names the probe databases (one per probe table).
    ReplayedDdlJudge(sql::Connection& control, std::string probePrefix);
    ~ReplayedDdlJudge();
    ReplayedDdlJudge(const ReplayedDdlJudge&) = delete;
    ReplayedDdlJudge& operator=(const ReplayedDdlJudge&) = delete;

    // `table` had this definition (SHOW CREATE TABLE) before the window's DDLs on it: they are judged from
    // it, as if the window had created it (an online schema change's swap, whose definition before its
    // DDLs was kept with the checkpoint). False, with `error`, when the probe could not be made.
    bool trackFrom(const TableName& table, const std::string& createStatement, std::string& error);

    // Judges `plan` (a DDL read inside the replay window, at `where`) before it runs. A lost connection to the
    // downstream is no verdict: it throws the sql::SQLException (2006, 2013), which the caller retries.
    ReplayVerdict judge(const DdlPlan& plan, const std::string& where);

    // Rows of `table` read at `where` were fitted to the downstream (replayed_rows.h): it lacks the table
    // (no columns given) or these columns. A DDL of the window must drop or rename them, else conflicts().
    void rowsUnfit(const TableName& table, const std::vector<std::string>& absentColumns, const std::string& where);

    // The questions still open: for each, the DDL, where it was read, the downstream's definition and
    // the one the DDL gives. Empty when every replayed DDL was explained.
    std::vector<std::string> conflicts() const;

    // Drops the probe databases (also done by the destructor): those it made and any other under its
    // prefix; returns what could not be dropped.
    std::string dropProbes();

private:
    struct Conflict {
        std::string ddl;
        std::string where;
        std::string downstreamDefinition;  // "" when the table is not downstream
        std::string expectedDefinition;    // after the DDL, by the judge's tracking ("" when unknown)
    };

    ReplayVerdict judgeCreateTable(const DdlPlan& plan, const std::string& where);
    ReplayVerdict judgeAlter(const DdlPlan& plan, const std::string& where, const TableName& table);
    ReplayVerdict judgeAlterWithoutTracking(const DdlPlan& plan, const std::string& where, const TableName& table,
                                            const std::string& downstream);
    ReplayVerdict judgeDropTables(const std::vector<TableName>& tables);
    ReplayVerdict judgeRename(const DdlPlan& plan, const std::string& where, const std::vector<TableName>& from,
                              const std::vector<TableName>& to);
    ReplayVerdict defer(const TableName& table, const DdlPlan& plan, const std::string& where,
                        const std::string& downstream, const std::string& expected, const std::string& why);
    void settle(const TableName& table);

    // The definition of a table as SHOW CREATE TABLE gives it, with its own name, AUTO_INCREMENT and
    // its database's name in references taken out; nullopt when there is no such table.
    std::optional<std::string> definitionOf(const TableName& table, const std::string& ownSchema);
    std::optional<std::string> downstreamDefinition(const TableName& table);
    // SHOW CREATE TABLE as the server gives it; nullopt when there is no such table.
    std::optional<std::string> showCreate(const TableName& table);
    std::string trackedDefinition(const TableName& table);
    // A new probe table, in a probe database of its own made with `schema`'s character set.
    TableName newProbe(const std::string& schema);
    // Runs `sql` after USE `schema`; the server's error code, 0 when it ran. Throws the sql::SQLException of a
    // lost connection.
    int run(const std::string& schema, const std::string& sql, std::string* error = nullptr);
    static bool connectionLost(const sql::SQLException& e);
    // The DDL with `table` (and tables the judge tracks, for CREATE ... LIKE) renamed to their probes.
    std::string onProbe(const DdlPlan& plan, const TableName& table, const TableName& probe) const;
    std::optional<TableName> copyOfDownstream(const TableName& table, std::string& error);
    // SHOW CREATE TABLE of `probe`, naming `table` instead.
    std::string createStatementAs(const TableName& probe, const TableName& table);
    bool listedIn(const char* view, const char* nameColumn, const TableName& table, const std::string& element);

    sql::Connection& control_;
    std::string probePrefix_;
    std::vector<std::string> probeDatabases_;                              // one per probe table, dropped at the end
    std::map<std::string, std::pair<std::string, std::string>> charsets_;  // database -> character set, collation
    std::map<TableName, TableName> tracked_;  // table -> its probe (the definition after the last DDL)
    std::vector<TableName> recreated_;        // made again by this replay: absent, its CREATE ran
    std::map<TableName, Conflict> open_;      // table -> the first question still open for it
    struct UnfitRows {
        std::string where;
        bool tableAbsent = false;
        std::vector<std::string> columns;
    };
    std::map<TableName, UnfitRows> unfitRows_;  // replayed rows a later DDL of the window must explain
};

}  // namespace syncscope::task
