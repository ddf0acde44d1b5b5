#include "engine/precheck/shard_tables.h"

#include <algorithm>
#include <map>

namespace syncscope::precheck {

namespace {

const char* const kPrimary = "PRIMARY";

std::string columnList(const std::vector<std::string>& columns) {
    std::string text;
    for (const auto& c : columns) {
        text += (text.empty() ? "" : ", ") + filter::TableName::quote(c);
    }
    return "(" + text + ")";
}

std::string tableList(const std::vector<filter::TableName>& tables) {
    std::string text;
    for (const auto& t : tables) {
        text += (text.empty() ? "" : ", ") + t.quoted();
    }
    return text;
}

// "`c` int(11) NOT NULL DEFAULT 7": what a DBA compares between two shard tables.
std::string columnText(const ColumnFacts& column) {
    std::string text = filter::TableName::quote(column.name) + " " + column.columnType;
    text += column.nullable ? " NULL" : " NOT NULL";
    if (column.defaultValue) {
        text += " DEFAULT " + *column.defaultValue;
    }
    if (column.autoIncrement) {
        text += " AUTO_INCREMENT";
    }
    return text;
}

bool sameColumn(const ColumnFacts& a, const ColumnFacts& b) {
    return a.name == b.name && a.columnType == b.columnType && a.nullable == b.nullable &&
           a.defaultValue == b.defaultValue && a.autoIncrement == b.autoIncrement;
}

bool hasColumn(const TableFacts& table, const std::string& name) {
    return table.column(name) != nullptr;
}

std::string keyText(const IndexFacts& key) {
    return key.name == kPrimary ? "primary key " + columnList(key.columns)
                                : "unique key " + filter::TableName::quote(key.name) + " " + columnList(key.columns);
}

// A unique key's identity between shard tables: its columns (and whether over a prefix), not its name.
bool sameKey(const IndexFacts& a, const IndexFacts& b) {
    return a.columns == b.columns && a.overPrefix == b.overPrefix;
}

std::vector<const IndexFacts*> uniqueKeys(const TableFacts& table) {
    std::vector<const IndexFacts*> keys;
    for (const auto& index : table.indexes) {
        if (index.unique && index.name != kPrimary) {
            keys.push_back(&index);
        }
    }
    return keys;
}

// The first unique key of `table` that `other` has no match for.
const IndexFacts* unmatchedKey(const TableFacts& table, const TableFacts& other) {
    const auto theirs = uniqueKeys(other);
    for (const IndexFacts* key : uniqueKeys(table)) {
        if (std::none_of(theirs.begin(), theirs.end(), [&](const IndexFacts* k) { return sameKey(*key, *k); })) {
            return key;
        }
    }
    return nullptr;
}

std::string columnDifference(const TableFacts& reference, const TableFacts& shard) {
    const std::string ref = reference.name.quoted();
    const std::string own = shard.name.quoted();
    const size_t count = std::max(reference.columns.size(), shard.columns.size());
    for (size_t i = 0; i < count; ++i) {
        const ColumnFacts* a = i < reference.columns.size() ? &reference.columns[i] : nullptr;
        const ColumnFacts* b = i < shard.columns.size() ? &shard.columns[i] : nullptr;
        if (a && b && sameColumn(*a, *b)) {
            continue;
        }
        if (b && !hasColumn(reference, b->name)) {
            return own + " has column " + columnText(*b) + " where " + ref + " has none";
        }
        if (a && !hasColumn(shard, a->name)) {
            return ref + " has column " + columnText(*a) + " where " + own + " has none";
        }
        if (a && b && a->name == b->name) {
            return own + " has column " + columnText(*b) + " where " + ref + " has " + columnText(*a);
        }
        if (a && b) {  // both tables have both columns, in another order
            return own + " has column " + columnText(*b) + " as column " + std::to_string(i + 1) + " where " + ref +
                   " has " + columnText(*a);
        }
    }
    return {};
}

std::string keyDifference(const TableFacts& reference, const TableFacts& shard) {
    const std::string ref = reference.name.quoted();
    const std::string own = shard.name.quoted();
    const IndexFacts* a = reference.primaryKey();
    const IndexFacts* b = shard.primaryKey();
    if (a && !b) {
        return ref + " has " + keyText(*a) + " where " + own + " has none";
    }
    if (b && !a) {
        return own + " has " + keyText(*b) + " where " + ref + " has none";
    }
    if (a && b && !sameKey(*a, *b)) {
        return own + " has " + keyText(*b) + " where " + ref + " has " + keyText(*a);
    }
    if (const IndexFacts* key = unmatchedKey(shard, reference)) {
        return own + " has " + keyText(*key) + " where " + ref + " has no unique key over " + columnList(key->columns);
    }
    if (const IndexFacts* key = unmatchedKey(reference, shard)) {
        return ref + " has " + keyText(*key) + " where " + own + " has no unique key over " + columnList(key->columns);
    }
    return {};
}

std::vector<const TableFacts*> shardFacts(const ServerFacts& upstream, const MergedTable& merged) {
    std::vector<const TableFacts*> facts;
    for (const auto& shard : merged.shards) {
        if (const TableFacts* table = upstream.table(shard)) {
            facts.push_back(table);
        }
    }
    return facts;
}

std::string otherSources(const std::string& sourceId) {
    return "this precheck reads source '" + sourceId +
           "' only: shard tables of the task's other sources are not compared with these";
}

void checkStructure(const MergedTable& merged, const std::vector<const TableFacts*>& shards, const std::string& server,
                    const std::string& sourceId, std::vector<Finding>& findings) {
    const TableFacts& reference = *shards.front();
    std::string first;
    std::vector<filter::TableName> differing;
    for (size_t i = 1; i < shards.size(); ++i) {
        std::string difference = firstStructureDifference(reference, *shards[i]);
        if (difference.empty()) {
            continue;
        }
        if (first.empty()) {
            first = difference;
        }
        differing.push_back(shards[i]->name);
    }
    if (differing.empty()) {
        return;
    }
    const std::string target = merged.target.quoted();
    std::string problem = "the shard tables merged into " + target + " on " + server + " differ: " + first;
    if (differing.size() > 1) {
        problem += "; " + tableList(std::vector<filter::TableName>(differing.begin() + 1, differing.end())) +
                   " differ from " + reference.name.quoted() + " too";
    }
    findings.push_back(
        {"shard.table_structure",
         Severity::Error,
         target,
         problem,
         "every shard table writes the one downstream table " + target +
             ": rows of a shard whose columns or keys differ from it fail there or land in the wrong columns, and "
             "with shard-mode a DDL waits until every shard table has run the same one, which tables that already "
             "differ never reach (DM's sharding table consistency check); " +
             otherSources(sourceId),
         "bring " + tableList(differing) + " to the definition of " + reference.name.quoted() +
             " upstream (ALTER TABLE) before the start, and create " + target + " downstream with it",
         FixTarget::Upstream,
         {}});
}

// Auto-increment columns in a primary or unique key, with the shard tables that have them there.
std::map<std::string, std::vector<filter::TableName>> autoIncrementKeyColumns(
    const std::vector<const TableFacts*>& shards) {
    std::map<std::string, std::vector<filter::TableName>> columns;
    for (const TableFacts* table : shards) {
        for (const auto& column : table->columns) {
            if (!column.autoIncrement) {
                continue;
            }
            const bool inKey = std::any_of(table->indexes.begin(), table->indexes.end(), [&](const IndexFacts& i) {
                return i.unique && std::find(i.columns.begin(), i.columns.end(), column.name) != i.columns.end();
            });
            if (inKey) {
                columns[column.name].push_back(table->name);
            }
        }
    }
    return columns;
}

void checkAutoIncrement(const MergedTable& merged, const std::vector<const TableFacts*>& shards,
                        const std::string& server, const std::string& sourceId, std::vector<Finding>& findings) {
    const std::string target = merged.target.quoted();
    for (const auto& [name, tables] : autoIncrementKeyColumns(shards)) {
        const std::string column = filter::TableName::quote(name);
        findings.push_back(
            {"shard.auto_increment",
             Severity::Warning,
             target,
             "column " + column + " is AUTO_INCREMENT and in a primary or unique key of " + tableList(tables) + " on " +
                 server + ", which routes merge into " + target,
             "each shard table counts its own ids, so one id comes from two shards: in " + target +
                 " the second row replaces or fails on the first (1062), and an update or delete of one shard's "
                 "row reaches the other's, unless the shards' id ranges never meet (DM's auto_increment ID "
                 "check); " +
                 "this precheck reads source '" + sourceId +
                 "' only: such shard tables on the task's other sources collide with these too",
             "create " + target + " downstream before the start without the AUTO_INCREMENT attribute of " + column +
                 " and with a primary key that includes a column each shard table fills with a value of its own "
                 "(e.g. PRIMARY KEY (" +
                 column +
                 ", `shard_id`)); or keep the ranges disjoint: auto_increment_increment = N with an "
                 "auto_increment_offset of its own on each upstream server (shard tables on one server share them)",
             FixTarget::Downstream,
             {}});
    }
}

void checkUniqueKeys(const MergedTable& merged, const std::vector<const TableFacts*>& shards, const std::string& server,
                     std::vector<Finding>& findings) {
    std::vector<filter::TableName> keyless;
    for (const TableFacts* table : shards) {
        if (std::none_of(table->indexes.begin(), table->indexes.end(),
                         [](const IndexFacts& index) { return index.unique; })) {
            keyless.push_back(table->name);
        }
    }
    if (keyless.empty()) {
        return;
    }
    const std::string target = merged.target.quoted();
    findings.push_back(
        {"shard.no_unique_key",
         Severity::Warning,
         target,
         "the shard tables " + tableList(keyless) + " on " + server +
             " have no primary or unique key, and routes "
             "merge them into " +
             target,
         "rows of different shards cannot be told apart in " + target +
             ": an update or delete finds its row by the full row image, so where two shards hold equal rows it "
             "changes whichever it finds first, and a replay in safe mode after an unclean stop adds duplicates "
             "that no key refuses",
         "give every shard table upstream a primary key over columns that identify a row across all shards (its "
         "DDL reaches " +
             target + " once every shard table has run it, with shard-mode), or create " + target +
             " downstream before the start with such a key",
         FixTarget::Upstream,
         {}});
}

}  // namespace

std::vector<MergedTable> mergedTables(const std::vector<TableMapping>& mappings) {
    std::map<filter::TableName, MergedTable> byTarget;
    for (const auto& mapping : mappings) {
        MergedTable& merged = byTarget[mapping.downstream];
        merged.target = mapping.downstream;
        merged.shards.push_back(mapping.upstream);
    }
    std::vector<MergedTable> merged;
    for (auto& [target, table] : byTarget) {
        if (table.shards.size() >= 2) {
            merged.push_back(std::move(table));
        }
    }
    return merged;
}

std::string firstStructureDifference(const TableFacts& reference, const TableFacts& shard) {
    std::string difference = columnDifference(reference, shard);
    return difference.empty() ? keyDifference(reference, shard) : difference;
}

std::vector<Finding> checkShardTables(const ServerFacts& upstream, const std::vector<TableMapping>& mappings,
                                      const std::string& server, const std::string& sourceId) {
    std::vector<Finding> findings;
    for (const MergedTable& merged : mergedTables(mappings)) {
        const auto shards = shardFacts(upstream, merged);
        if (shards.size() < 2) {
            continue;
        }
        checkStructure(merged, shards, server, sourceId, findings);
        checkAutoIncrement(merged, shards, server, sourceId, findings);
        checkUniqueKeys(merged, shards, server, findings);
    }
    return findings;
}

}  // namespace syncscope::precheck
