#include "engine/task/optimistic_shard_ddl.h"

#include <algorithm>

#include "engine/filter/name_case.h"
#include "engine/task/alter_clauses.h"
#include "engine/task/column_type_order.h"

namespace syncscope::task {

namespace {

// Column and index names compare without case, as MariaDB compares them.
std::string lower(std::string_view name) {
    return filter::foldNameCase(name, false);
}

bool sameColumns(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    if (a.size() != b.size()) {
        return false;
    }
    for (size_t i = 0; i < a.size(); ++i) {
        if (lower(a[i]) != lower(b[i])) {
            return false;
        }
    }
    return true;
}

const MergedTable::Index* indexNamed(const MergedTable& merged, const std::string& name) {
    for (const MergedTable::Index& index : merged.indexes) {
        if (lower(index.name) == lower(name)) {
            return &index;
        }
    }
    return nullptr;
}

const MergedTable::Index* indexOver(const MergedTable& merged, const std::vector<std::string>& columns, bool unique) {
    for (const MergedTable::Index& index : merged.indexes) {
        if (index.unique == unique && sameColumns(index.columns, columns)) {
            return &index;
        }
    }
    return nullptr;
}

std::string shardList(const std::vector<ShardTable>& shards) {
    std::string text;
    for (const ShardTable& shard : shards) {
        text += (text.empty() ? "" : ", ") + shard.text();
    }
    return text;
}

}  // namespace

std::vector<ShardColumnStatus> shardColumnStatus(const std::vector<AddedShardColumn>& columns) {
    std::vector<ShardColumnStatus> status;
    for (const AddedShardColumn& column : columns) {
        ShardColumnStatus view{
            column.target, column.column, {column.addedBy.sourceId, column.addedBy.table, "", 0}, {}};
        for (const ShardTable& shard : column.awaited) {
            view.awaited.push_back({shard.sourceId, shard.table, "", 0});
        }
        status.push_back(std::move(view));
    }
    return status;
}

struct OptimisticShardDdl::ClauseVerdict {
    Verdict::Kind kind = Verdict::Kind::Coordinate;
    std::string reason;
};

OptimisticShardDdl::OptimisticShardDdl(std::vector<ShardGroup> groups, bool strict,
                                       std::shared_ptr<ShardColumnLedger> ledger)
    : groups_(std::move(groups)), strict_(strict), ledger_(std::move(ledger)) {
    if (ledger_) {
        for (AddedShardColumn& column : ledger_->loadColumns()) {
            column.awaited.clear();
            added_[{column.target, column.column}] = std::move(column);
        }
    }
}

const ShardGroup* OptimisticShardDdl::groupOf(const TableName& target) const {
    for (const ShardGroup& group : groups_) {
        if (group.target == target) {
            return &group;
        }
    }
    return nullptr;
}

// The group's other shard tables that may still write `column`: all of them, unless `shard` or another
// table added it to the merged table in this run and they have not added it since.
std::vector<ShardTable> OptimisticShardDdl::stillWriting(const ShardTable& shard, const TableName& target,
                                                         const std::string& column) const {
    std::vector<ShardTable> writing;
    const ShardGroup* group = groupOf(target);
    if (group == nullptr) {
        return writing;
    }
    std::lock_guard lock(mutex_);
    auto entry = added_.find({target, lower(column)});
    for (const ShardTable& member : group->members) {
        if (member == shard) {
            continue;
        }
        if (entry == added_.end() || entry->second.addedBy == member || entry->second.reachedBy.contains(member)) {
            writing.push_back(member);
        }
    }
    return writing;
}

OptimisticShardDdl::Verdict OptimisticShardDdl::weigh(const ShardTable& shard, const TableName& target,
                                                      const std::string& sql, const MergedTable& merged,
                                                      const ColumnProbe& probe) const {
    using Kind = Verdict::Kind;
    Verdict verdict;
    const AlterClauses statement = splitAlterClauses(sql);
    if (statement.clauses.empty()) {
        verdict.reason = "not a change of columns or indexes that optimistic mode can weigh";
    }
    std::vector<size_t> toRun;
    std::vector<std::string> passReasons;
    for (size_t i = 0; i < statement.clauses.size() && verdict.reason.empty(); ++i) {
        const AlterClause& clause = statement.clauses[i];
        const std::string key = lower(clause.name);
        auto column = merged.columns.find(key);
        ClauseVerdict weighed;
        switch (clause.kind) {
            case AlterClause::Kind::AddColumn: {
                std::optional<MergedColumn> proposed = probe(clause.definition);
                if (!proposed) {
                    weighed.reason =
                        "the definition of column " + clause.name + " cannot be read: " + clause.definition;
                } else if (column != merged.columns.end()) {
                    if (compareColumnTypes(column->second.type, proposed->type) == TypeOrder::Same) {
                        weighed = {Kind::Pass, "column " + clause.name + " is in the merged table already"};
                        verdict.reached.push_back(key);
                    } else {
                        weighed = {Kind::Conflict, "shard table " + shard.text() + " adds column " + clause.name +
                                                       " as " + proposed->type + ", but the merged table " +
                                                       target.text() + " has it as " + column->second.type +
                                                       ": give the merged table's column a type that holds both by "
                                                       "hand, then skip this DDL"};
                    }
                } else if (!proposed->nullable && !proposed->hasDefault) {
                    weighed.reason =
                        "column " + clause.name +
                        " is NOT NULL without a DEFAULT: the other shard tables' rows have no value for it";
                } else {
                    weighed = {Kind::Run, ""};
                    verdict.added.push_back(key);
                }
                break;
            }
            case AlterClause::Kind::DropColumn: {
                if (column == merged.columns.end()) {
                    weighed = {Kind::Pass, "column " + clause.name + " is not in the merged table"};
                    break;
                }
                std::vector<ShardTable> writing = stillWriting(shard, target, clause.name);
                if (writing.empty()) {
                    weighed = {Kind::Run, ""};
                    verdict.dropped.push_back(key);
                } else {
                    weighed = {Kind::Conflict, "shard table " + shard.text() + " drops column " + clause.name +
                                                   " of the merged table " + target.text() +
                                                   " while these shard tables still write it: " + shardList(writing) +
                                                   "; drop it on them first, or skip this DDL (the merged table "
                                                   "keeps the column, this shard's rows take its default)"};
                }
                break;
            }
            case AlterClause::Kind::ModifyColumn: {
                std::optional<MergedColumn> proposed = probe(clause.definition);
                if (column == merged.columns.end()) {
                    weighed.reason = "column " + clause.name + " is not in the merged table";
                    break;
                }
                if (!proposed) {
                    weighed.reason =
                        "the definition of column " + clause.name + " cannot be read: " + clause.definition;
                    break;
                }
                switch (compareColumnTypes(column->second.type, proposed->type)) {
                    case TypeOrder::Same:
                        weighed = {Kind::Pass, "column " + clause.name + " has this type already"};
                        break;
                    case TypeOrder::Wider:
                        weighed = {Kind::Run, ""};
                        break;
                    case TypeOrder::Narrower:
                        weighed = {Kind::Pass, "the merged table keeps column " + clause.name + " as " +
                                                   column->second.type + ", which the other shard tables write"};
                        break;
                    case TypeOrder::Unrelated:
                        weighed = {Kind::Conflict, "shard table " + shard.text() + " changes column " + clause.name +
                                                       " to " + proposed->type + ", which does not hold the " +
                                                       column->second.type + " values the merged table " +
                                                       target.text() +
                                                       " has: change the merged table by hand, then "
                                                       "skip this DDL"};
                        break;
                }
                break;
            }
            case AlterClause::Kind::AddIndex: {
                const bool present = clause.name.empty()
                                         ? indexOver(merged, clause.indexColumns, clause.unique) != nullptr
                                         : indexNamed(merged, clause.name) != nullptr;
                if (present) {
                    weighed = {Kind::Pass, "the index is in the merged table already"};
                } else if (clause.unique) {
                    weighed.reason = "a unique index must hold over every shard's rows";
                } else {
                    weighed = {Kind::Run, ""};
                }
                break;
            }
            case AlterClause::Kind::DropIndex:
                if (indexNamed(merged, clause.name) != nullptr) {
                    weighed = {Kind::Run, ""};
                } else {
                    weighed = {Kind::Pass, "index " + clause.name + " is not in the merged table"};
                }
                break;
            case AlterClause::Kind::Other:
                weighed.reason = "'" + clause.text + "' is not a change optimistic mode runs for one shard";
                break;
        }
        if (weighed.kind == Kind::Conflict) {
            verdict.kind = Kind::Conflict;
            verdict.reason = weighed.reason;
            return verdict;
        }
        if (weighed.kind == Kind::Coordinate) {
            verdict.reason = weighed.reason;
        } else if (weighed.kind == Kind::Run) {
            toRun.push_back(i);
        } else {
            passReasons.push_back(weighed.reason);
        }
    }
    if (!verdict.reason.empty()) {
        verdict.kind = strict_ ? Kind::Conflict : Kind::Coordinate;
        if (strict_) {
            verdict.reason = "strict-optimistic-shard-mode: shard table " + shard.text() +
                             "'s DDL on the merged table " + target.text() + " does not fit the other shards (" +
                             verdict.reason +
                             "); set strict-optimistic-shard-mode: false to let such a DDL wait for every shard "
                             "table instead";
        }
        verdict.added.clear();
        verdict.reached.clear();
        verdict.dropped.clear();
        return verdict;
    }
    if (toRun.empty()) {
        verdict.kind = Kind::Pass;
        for (const std::string& reason : passReasons) {
            verdict.reason += (verdict.reason.empty() ? "" : "; ") + reason;
        }
        return verdict;
    }
    verdict.kind = Kind::Run;
    verdict.sql = statement.withOnly(toRun, sql);
    return verdict;
}

void OptimisticShardDdl::settle(const ShardTable& shard, const TableName& target, const Verdict& verdict) {
    // Worked out on copies and kept in the ledger before memory changes: a ledger that cannot be written leaves
    // both as they were, and the DDL read again (a retry) settles the same way.
    std::vector<AddedShardColumn> changed;
    {
        std::lock_guard lock(mutex_);
        for (const std::string& column : verdict.added) {
            changed.push_back({target, column, shard, {}, {}});
        }
        for (const std::string& column : verdict.reached) {
            if (auto entry = added_.find({target, column}); entry != added_.end()) {
                changed.push_back(entry->second);
                changed.back().reachedBy.insert(shard);
            }
        }
    }
    if (ledger_) {
        for (const AddedShardColumn& column : changed) {
            ledger_->keepColumn(column);
        }
        for (const std::string& column : verdict.dropped) {
            ledger_->removeColumn(target, column);
        }
    }
    {
        std::lock_guard lock(mutex_);
        for (AddedShardColumn& column : changed) {
            added_[{target, column.column}] = std::move(column);
        }
        for (const std::string& column : verdict.dropped) {
            added_.erase({target, column});
        }
    }
    if (verdict.kind == Verdict::Kind::Run) {
        version_.fetch_add(1, std::memory_order_acq_rel);
    }
}

std::vector<AddedShardColumn> OptimisticShardDdl::pendingColumns() const {
    std::vector<AddedShardColumn> pending;
    std::lock_guard lock(mutex_);
    for (const auto& [key, entry] : added_) {
        AddedShardColumn view = entry;
        if (const ShardGroup* group = groupOf(key.first)) {
            for (const ShardTable& member : group->members) {
                if (!(member == entry.addedBy) && !entry.reachedBy.contains(member)) {
                    view.awaited.push_back(member);
                }
            }
        }
        if (!view.awaited.empty()) {
            pending.push_back(std::move(view));
        }
    }
    return pending;
}

}  // namespace syncscope::task
