// The downstream half of table_rules.h: each replicated table compared with its target, and what
// the target does on its own (triggers, cascading foreign keys, generated columns, its engine).
#include <algorithm>
#include <array>
#include <set>
#include <string_view>

#include "engine/precheck/table_rules.h"

namespace syncscope::precheck {

namespace {

constexpr std::array<std::string_view, 2> kTransactionalEngines = {"InnoDB", "ROCKSDB"};

bool isCascading(const std::string& rule) {
    return rule == "CASCADE" || rule == "SET NULL" || rule == "SET DEFAULT";
}

std::string quote(const std::string& name) {
    return filter::TableName::quote(name);
}

void compareColumns(const TableFacts& up, const TableFacts& down, std::vector<Finding>& findings) {
    const std::string target = down.name.quoted();
    for (const auto& column : up.columns) {
        const ColumnFacts* twin = down.column(column.name);
        ColumnFacts plain = column;
        plain.generated = false;
        if (!twin) {
            findings.push_back(sqlFinding(
                "downstream.column_missing", Severity::Error, target,
                "column " + quote(column.name) + " of " + up.name.quoted() + " is missing downstream",
                "every row change names all of the upstream's columns: the first one fails with 1054 (unknown column) "
                "and the task pauses",
                FixTarget::Downstream,
                {"ALTER TABLE " + target + " ADD COLUMN " + quote(column.name) + " " + plain.definition()}));
            continue;
        }
        if (twin->generated) {
            // MariaDB cannot MODIFY a generated column into a stored one (1907): drop it and add it back in place.
            std::string place = "FIRST";
            for (size_t i = 1; i < down.columns.size(); ++i) {
                if (down.columns[i].name == column.name) {
                    place = "AFTER " + quote(down.columns[i - 1].name);
                }
            }
            findings.push_back(sqlFinding(
                "downstream.generated_column", Severity::Warning, target,
                "column " + quote(column.name) + " is generated downstream but a plain column upstream",
                "the engine leaves a generated column out of what it writes, so the downstream computes its own "
                "value there instead of keeping the upstream's: the two can differ",
                FixTarget::Downstream,
                {"ALTER TABLE " + target + " DROP COLUMN " + quote(column.name) + ", ADD COLUMN " + quote(column.name) +
                 " " + plain.definition() + " " + place},
                "the upstream's computed values are then stored as they are"));
            continue;
        }
        if (twin->columnType != column.columnType) {
            findings.push_back(
                sqlFinding("downstream.column_type", Severity::Warning, target,
                           "column " + quote(column.name) + " is " + twin->columnType + " downstream but " +
                               column.columnType + " upstream",
                           "values that fit the upstream's type may be cut, rounded or refused (1264, 1406) downstream",
                           FixTarget::Downstream,
                           {"ALTER TABLE " + target + " MODIFY " + quote(column.name) + " " + plain.definition()}));
        } else if (twin->collation != column.collation || twin->charset != column.charset) {
            findings.push_back(sqlFinding(
                "downstream.collation", Severity::Warning, target,
                "column " + quote(column.name) + " is " + twin->charset + "/" + twin->collation + " downstream but " +
                    column.charset + "/" + column.collation + " upstream",
                "characters the upstream stores may not fit downstream (1366), and keys compare differently: two "
                "values the upstream keeps apart can collide downstream (1062), or the reverse",
                FixTarget::Downstream,
                {"ALTER TABLE " + target + " MODIFY " + quote(column.name) + " " + plain.definition()}));
        }
    }
    for (const auto& column : down.columns) {
        if (up.column(column.name) || column.nullable || column.generated) {
            continue;
        }
        findings.push_back(sqlFinding(
            "downstream.extra_column", Severity::Warning, target,
            "column " + quote(column.name) + " exists only downstream and is NOT NULL",
            "an insert that does not name it fails with 1364 when it has no default (and in safe mode an upsert "
            "fails where an UPDATE would work)",
            FixTarget::Downstream,
            {"ALTER TABLE " + target + " MODIFY " + quote(column.name) + " " + column.columnType + " NULL"},
            "or give it a DEFAULT"));
    }
    if (!up.collation.empty() && !down.collation.empty() && up.collation != down.collation) {
        std::string charset = up.collation.substr(0, up.collation.find('_'));
        findings.push_back(sqlFinding(
            "downstream.table_collation", Severity::Warning, target,
            "the table's default collation is " + down.collation + " downstream but " + up.collation + " upstream",
            "a column that a replicated ALTER TABLE adds without a collation gets different ones on the two sides",
            FixTarget::Downstream,
            {"ALTER TABLE " + target + " DEFAULT CHARACTER SET " + charset + " COLLATE " + up.collation}));
    }
}

void checkBehaviour(const TableFacts& down, std::vector<Finding>& findings) {
    const std::string target = down.name.quoted();
    for (const auto& trigger : down.triggers) {
        findings.push_back(sqlFinding(
            "downstream.trigger", Severity::Warning, target,
            "trigger " + quote(trigger.name) + " (" + trigger.timing + " " + trigger.event +
                ") fires on the rows the "
                "engine applies",
            "what an upstream trigger changed is already in the binlog as rows: a downstream trigger applies it a "
            "second time or fails the row; the engine also keeps such tables out of multiple-rows upserts",
            FixTarget::Downstream, {"DROP TRIGGER " + quote(down.name.schema) + "." + quote(trigger.name)}));
    }
    if (!down.engine.empty() && std::find(kTransactionalEngines.begin(), kTransactionalEngines.end(), down.engine) ==
                                    kTransactionalEngines.end()) {
        findings.push_back(sqlFinding(
            "downstream.engine", Severity::Warning, target,
            "the table uses the " + down.engine + " engine, which has no transactions",
            "a batch that fails half-way cannot be rolled back, so rows may be applied again after a resume; the "
            "checkpoint cannot be written atomically with them",
            FixTarget::Downstream, {"ALTER TABLE " + target + " ENGINE=InnoDB"}));
    }
}

}  // namespace

std::vector<Finding> checkDownstreamTables(const ServerFacts& upstream, const ServerFacts& downstream,
                                           const std::vector<TableMapping>& mappings,
                                           const DownstreamRuleSettings& settings) {
    std::vector<Finding> findings;
    std::set<std::string> targetsSeen;
    for (const auto& mapping : mappings) {
        const TableFacts* up = upstream.table(mapping.upstream);
        if (!up || up->tableType == "SEQUENCE") {
            continue;
        }
        const TableFacts* down = downstream.table(mapping.downstream);
        if (!down) {
            std::string create = settings.createStatementFor ? settings.createStatementFor(mapping) : std::string();
            Finding finding = sqlFinding(
                "downstream.table_missing", Severity::Error, mapping.downstream.quoted(),
                "the table " + mapping.downstream.quoted() + " that rows of " + mapping.upstream.quoted() +
                    " go to does not exist downstream",
                "an incremental task does not copy existing tables: the first row change fails with 1146 and the "
                "task pauses",
                FixTarget::Downstream, create.empty() ? std::vector<std::string>{} : std::vector<std::string>{create},
                "then load the existing rows (e.g. mariadb-dump of the upstream table at the start position)");
            if (create.empty()) {
                finding.fix = "create " + mapping.downstream.quoted() + " as SHOW CREATE TABLE " +
                              mapping.upstream.quoted() + " shows it upstream";
            }
            findings.push_back(std::move(finding));
            continue;
        }
        compareColumns(*up, *down, findings);
        if (targetsSeen.insert(down->name.quoted()).second) {
            checkBehaviour(*down, findings);
        }
    }
    if (!settings.foreignKeyChecks) {
        for (const auto& fk : downstream.foreignKeys) {
            if (!isCascading(fk.deleteRule) && !isCascading(fk.updateRule)) {
                continue;
            }
            findings.push_back({"downstream.foreign_key_cascade",
                                Severity::Note,
                                fk.child.quoted(),
                                "foreign key " + quote(fk.name) + " of " + fk.child.quoted() + " on " +
                                    fk.parent.quoted() + " is ON DELETE " + fk.deleteRule + " ON UPDATE " +
                                    fk.updateRule,
                                "changes an upstream cascade makes are not in the binlog: the engine applies the "
                                "tables tied by cascading keys in binlog order on one worker and runs the parent's "
                                "DELETE and UPDATE with the upstream session's foreign_key_checks, so the downstream "
                                "cascades as the upstream did; these tables do not apply in parallel, and a parent "
                                "the task does not replicate never cascades",
                                "nothing to do; replicate the parent and child tables together",
                                FixTarget::TaskFile,
                                {}});
        }
    }
    return findings;
}

}  // namespace syncscope::precheck
