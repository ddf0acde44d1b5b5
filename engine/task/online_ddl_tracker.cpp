#include "engine/task/online_ddl_tracker.h"

#include <spdlog/spdlog.h>

#include "engine/filter/ddl_classifier.h"

namespace syncscope::task {

using filter::OnlineDdlRole;
using filter::StatementKind;
using filter::TableName;
using filter::TableRole;

namespace {

OnlineDdlStep ignore(std::string reason) {
    OnlineDdlStep step;
    step.kind = OnlineDdlStep::Kind::Ignore;
    step.reason = std::move(reason);
    return step;
}

OnlineDdlStep error(std::string reason) {
    OnlineDdlStep step;
    step.kind = OnlineDdlStep::Kind::Error;
    step.reason = std::move(reason);
    return step;
}

std::string toolOf(const TableName& table) {
    return filter::OnlineDdlRules::toolOf(table.table);
}

}  // namespace

OnlineDdlTracker::OnlineDdlTracker(std::shared_ptr<const filter::OnlineDdlRules> rules, std::string taskName,
                                   Replicates replicates)
    : rules_(std::move(rules)), taskName_(std::move(taskName)), replicates_(std::move(replicates)) {}

bool OnlineDdlTracker::replicatesAny(const filter::ClassifiedStatement& statement) const {
    if (!replicates_) {
        return true;
    }
    for (const filter::TableReference& reference : statement.tables) {
        if (reference.role != TableRole::Changed && reference.role != TableRole::RenamedTo) {
            continue;
        }
        const TableName& table = reference.name;
        if (replicates_(roleOf(table) == OnlineDdlRole::Real ? table : realOf(table))) {
            return true;
        }
    }
    return false;
}

void OnlineDdlTracker::load(const std::vector<checkpoint::OnlineDdlEntry>& entries) {
    for (const checkpoint::OnlineDdlEntry& entry : entries) {
        TableName shadow{entry.shadowSchema, entry.shadowTable};
        changes_[shadow] = Change{entry, 0, {}};
        ++viewVersion_;
        spdlog::info("task {}: following the online schema change of {} by {} (shadow table {}, {} DDLs recorded)",
                     taskName_, TableName{entry.realSchema, entry.realTable}.quoted(), toolOf(shadow), shadow.quoted(),
                     entry.ddls.size());
    }
}

OnlineDdlRole OnlineDdlTracker::roleOfName(std::string_view table) const {
    if (table.empty()) {
        return OnlineDdlRole::Real;
    }
    auto found = roles_.find(table);
    if (found == roles_.end()) {
        found = roles_.emplace(std::string(table), rules_->roleOf(table)).first;
    }
    return found->second;
}

TableName OnlineDdlTracker::realOf(const TableName& shadowOrTrash) const {
    return {shadowOrTrash.schema, rules_->realNameOf(shadowOrTrash.table)};
}

bool OnlineDdlTracker::ignoresRowsOf(std::string_view schema, std::string_view table, size_t rows) {
    OnlineDdlRole role = roleOfName(table);
    if (role == OnlineDdlRole::Shadow) {
        if (auto found = changes_.find(TableName{std::string(schema), std::string(table)}); found != changes_.end()) {
            found->second.rowsCopied += rows;
            ++viewVersion_;
        }
    }
    return role != OnlineDdlRole::Real;
}

OnlineDdlStep OnlineDdlTracker::onStatement(const filter::ClassifiedStatement& statement, std::string_view sql,
                                            const binlog::Location& at) {
    if (!statement.isDdl() || !replicatesAny(statement)) {
        return {};  // its usual way: the block-allow list leaves it out
    }
    if (statement.kind == StatementKind::RenameTable) {
        return onRename(statement, at);
    }
    std::vector<TableName> shadows, trash, real;
    for (const TableName& table : statement.tablesIn(TableRole::Changed)) {
        switch (roleOf(table)) {
            case OnlineDdlRole::Shadow:
                shadows.push_back(table);
                break;
            case OnlineDdlRole::Trash:
                trash.push_back(table);
                break;
            case OnlineDdlRole::Real:
                real.push_back(table);
                break;
        }
    }
    if (shadows.empty() && trash.empty()) {
        return {};
    }
    const TableName& tool = shadows.empty() ? trash.front() : shadows.front();
    if (!real.empty()) {
        return error("the statement names both " + real.front().quoted() + " and " + tool.quoted() +
                     ", a table of an online schema change tool (online-ddl is on); run its part on " +
                     real.front().quoted() + " downstream by hand, then skip it");
    }
    if (shadows.empty()) {
        return ignore("on " + tool.quoted() + ", a trash table of " + toolOf(tool) + " (online-ddl)");
    }
    if (shadows.size() > 1 && statement.kind != StatementKind::DropTable) {
        return error("the statement names two shadow tables, " + shadows[0].quoted() + " and " + shadows[1].quoted() +
                     " (online-ddl is on); no online schema change tool writes that");
    }
    switch (statement.kind) {
        case StatementKind::CreateTable:
            begin(shadows.front(), at);
            return ignore("created " + shadows.front().quoted() + ", the shadow table of " + toolOf(shadows.front()) +
                          " for " + realOf(shadows.front()).quoted() + " (online-ddl)");
        case StatementKind::DropTable:
            for (const TableName& shadow : shadows) {
                end(shadow);
            }
            return ignore("dropped " + shadows.front().quoted() + ", the shadow table of " + toolOf(shadows.front()) +
                          ": its change ended without a swap (online-ddl)");
        case StatementKind::AlterTable:
        case StatementKind::CreateIndex:
        case StatementKind::DropIndex:
            return record(shadows.front(), statement, sql, at);
        default:
            return ignore("on " + shadows.front().quoted() + ", the shadow table of " + toolOf(shadows.front()) +
                          " (online-ddl)");
    }
}

OnlineDdlStep OnlineDdlTracker::record(const TableName& shadow, const filter::ClassifiedStatement& statement,
                                       std::string_view sql, const binlog::Location& at) {
    auto found = changes_.find(shadow);
    if (found == changes_.end()) {
        begin(shadow, at);  // created before this task's start point: its ALTERs from here on are read
        found = changes_.find(shadow);
    }
    // Every name written out in full: the statement no longer needs the event's default schema.
    std::string ddl =
        filter::DdlClassifier::rewriteTables(sql, statement, [](const TableName& table) { return table; });
    checkpoint::OnlineDdlEntry& entry = found->second.entry;
    if (!entry.ddls.empty() && entry.ddls.back() == ddl) {
        // Read again after a resume from before it (DM's rule: an equal last DDL is not recorded twice).
        return ignore("recorded before on " + shadow.quoted() + " (online-ddl)");
    }
    entry.ddls.push_back(ddl);
    changed(shadow);
    return ignore("recorded on " + shadow.quoted() + ", the shadow table of " + toolOf(shadow) + "; it runs on " +
                  TableName{entry.realSchema, entry.realTable}.quoted() + " when the tool swaps it in (online-ddl)");
}

OnlineDdlStep OnlineDdlTracker::onRename(const filter::ClassifiedStatement& statement, const binlog::Location& at) {
    std::vector<std::pair<TableName, TableName>> pairs;
    const TableName* from = nullptr;
    for (const filter::TableReference& reference : statement.tables) {
        if (reference.role == TableRole::Changed) {
            from = &reference.name;
        } else if (reference.role == TableRole::RenamedTo && from != nullptr) {
            pairs.emplace_back(*from, reference.name);
        }
    }
    // DM's check of the rules: a tool's swap renames the real table to trash and the shadow to the real
    // table; a statement that matches one half only means a rule does not fit the tool's names.
    if (pairs.size() == 2) {
        bool toTrash = roleOf(pairs[0].first) == OnlineDdlRole::Real && roleOf(pairs[0].second) == OnlineDdlRole::Trash;
        bool shadowIn =
            roleOf(pairs[1].first) == OnlineDdlRole::Shadow && roleOf(pairs[1].second) == OnlineDdlRole::Real;
        bool plain = roleOf(pairs[0].first) == OnlineDdlRole::Real && roleOf(pairs[0].second) == OnlineDdlRole::Real;
        bool plainSecond =
            roleOf(pairs[1].first) == OnlineDdlRole::Real && roleOf(pairs[1].second) == OnlineDdlRole::Real;
        if (toTrash && plainSecond) {
            return error("the statement renames " + pairs[0].first.quoted() + " to the trash table " +
                         pairs[0].second.quoted() + " but " + pairs[1].first.quoted() +
                         " is not a shadow table: shadow-table-rules do not match the tool's names");
        }
        if (shadowIn && plain) {
            return error("the statement swaps in the shadow table " + pairs[1].first.quoted() + " but " +
                         pairs[0].second.quoted() +
                         " is not a trash table: trash-table-rules do not match the tool's "
                         "names");
        }
    }
    std::vector<std::pair<TableName, TableName>> plain;
    std::optional<std::pair<TableName, TableName>> swap;
    std::vector<std::string> ignored;
    for (const auto& [old, renamed] : pairs) {
        OnlineDdlRole oldRole = roleOf(old);
        OnlineDdlRole newRole = roleOf(renamed);
        if (oldRole == OnlineDdlRole::Real && newRole == OnlineDdlRole::Real) {
            plain.emplace_back(old, renamed);
        } else if (oldRole == OnlineDdlRole::Real && newRole == OnlineDdlRole::Shadow) {
            return error("the statement renames " + old.quoted() + " to " + renamed.quoted() +
                         ", a shadow table of an online schema change tool (online-ddl is on); no tool does that");
        } else if (oldRole == OnlineDdlRole::Shadow && newRole == OnlineDdlRole::Real) {
            if (swap) {
                return error("the statement swaps in two shadow tables, " + swap->first.quoted() + " and " +
                             old.quoted() + "; apply their changes downstream by hand, then skip it");
            }
            swap.emplace(old, renamed);
        } else if (newRole == OnlineDdlRole::Shadow) {
            return error("the statement renames " + old.quoted() + " to the shadow table " + renamed.quoted() +
                         " (online-ddl is on); no online schema change tool does that");
        } else {
            if (oldRole == OnlineDdlRole::Shadow) {
                end(old);  // a shadow moved to trash: its change ended without a swap
            }
            ignored.push_back(old.quoted() + " to " + renamed.quoted());
        }
    }
    if (swap && !plain.empty()) {
        return error("the statement swaps in the shadow table " + swap->first.quoted() + " and also renames " +
                     plain.front().first.quoted() + "; apply it downstream by hand, then skip it");
    }
    if (swap) {
        return swapIn(swap->first, swap->second, at);
    }
    if (plain.empty()) {
        std::string what;
        for (const std::string& pair : ignored) {
            what += (what.empty() ? "" : ", ") + pair;
        }
        return ignore("renames " + what + ", tables of an online schema change tool (online-ddl)");
    }
    OnlineDdlStep step;
    if (!ignored.empty()) {
        step.sql = "RENAME TABLE ";
        for (size_t i = 0; i < plain.size(); ++i) {
            step.sql += (i == 0 ? "" : ", ") + plain[i].first.quoted() + " TO " + plain[i].second.quoted();
        }
    }
    return step;
}

OnlineDdlStep OnlineDdlTracker::swapIn(const TableName& shadow, const TableName& real, const binlog::Location& at) {
    auto found = changes_.find(shadow);
    if (found == changes_.end()) {
        return error("the online schema change of " + real.quoted() + " by " + toolOf(shadow) + " swaps in " +
                     shadow.quoted() + " at " + at.toString() +
                     ", but the DDLs run on that shadow table were never read: this task started (or resumed from) "
                     "a point after them, so " +
                     real.quoted() +
                     " downstream would keep its old definition. Resume from a point before the shadow table was "
                     "created, or run the change on " +
                     real.quoted() + " downstream by hand and skip this statement");
    }
    OnlineDdlStep step;
    step.kind = OnlineDdlStep::Kind::Swap;
    step.shadow = shadow;
    step.real = real;
    step.swapBefore = found->second.entry.swapBefore;
    for (const std::string& ddl : found->second.entry.ddls) {
        filter::ClassifiedStatement statement = filter::DdlClassifier::classify(ddl, shadow.schema);
        step.ddls.push_back(filter::DdlClassifier::rewriteTables(
            ddl, statement, [&](const TableName& table) { return table == shadow ? real : table; }));
    }
    return step;
}

void OnlineDdlTracker::swapStarting(const TableName& shadow, const std::string& downstreamDefinition) {
    if (auto found = changes_.find(shadow); found != changes_.end()) {
        found->second.entry.swapBefore = downstreamDefinition;
        changed(shadow);
    }
}

void OnlineDdlTracker::swapped(const TableName& shadow) {
    end(shadow);
}

void OnlineDdlTracker::begin(const TableName& shadow, const binlog::Location& at) {
    TableName real = realOf(shadow);
    changes_[shadow] = Change{{shadow.schema, shadow.table, real.schema, real.table, {}, {}}, 0, at.toString()};
    changed(shadow);
}

void OnlineDdlTracker::end(const TableName& shadow) {
    if (changes_.erase(shadow) != 0) {
        changed(shadow);
    }
}

void OnlineDdlTracker::changed(const TableName& shadow) {
    dirty_.insert(shadow);
    ++viewVersion_;
}

std::vector<checkpoint::OnlineDdlWrite> OnlineDdlTracker::takeWrites() {
    std::vector<checkpoint::OnlineDdlWrite> writes;
    for (const TableName& shadow : dirty_) {
        checkpoint::OnlineDdlWrite write{shadow.schema, shadow.table, std::nullopt};
        if (auto found = changes_.find(shadow); found != changes_.end()) {
            write.entry = found->second.entry;
        }
        writes.push_back(std::move(write));
    }
    dirty_.clear();
    return writes;
}

std::vector<OnlineChangeView> OnlineDdlTracker::view() const {
    std::vector<OnlineChangeView> views;
    for (const auto& [shadow, change] : changes_) {
        views.push_back({{change.entry.realSchema, change.entry.realTable},
                         shadow,
                         toolOf(shadow),
                         change.entry.ddls,
                         change.rowsCopied,
                         change.since});
    }
    return views;
}

}  // namespace syncscope::task
