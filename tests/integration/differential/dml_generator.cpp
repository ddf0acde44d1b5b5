#include "tests/integration/differential/dml_generator.h"

#include <vector>

namespace syncscope::differential {

namespace {

constexpr int kMaxRowsPerInsert = 12;
constexpr int kRangeWidth = 6;

std::string q(const std::string& name) {
    return "`" + name + "`";
}

bool has(const FeatureSet& features, Feature feature) {
    return features.count(feature) != 0;
}

}  // namespace

std::pair<std::string, std::string> DmlGenerator::any(const TableSpec& table) {
    const bool keyed = !table.primaryKey.empty();
    for (;;) {
        int roll = random_.range(1, 100);
        if (roll <= 30) {
            return {"insert " + table.name, insert(table, "INSERT IGNORE", random_.range(1, kMaxRowsPerInsert), false)};
        }
        if (roll <= 40) {
            return {"insert-one " + table.name, insert(table, "INSERT", 1, false)};
        }
        if (roll <= 45 && keyed) {
            return {"upsert " + table.name, insert(table, "INSERT", random_.range(1, 3), true)};
        }
        if (roll <= 49 && keyed) {
            return {"replace " + table.name, insert(table, "REPLACE", random_.range(1, 3), false)};
        }
        if (roll <= 65) {
            return {"update " + table.name, updateValues(table)};
        }
        if (roll <= 69) {
            return {"update-range " + table.name, updateRange(table)};
        }
        if (roll <= 76 && keyed && has(features_, Feature::KeyMove)) {
            return {"key-move " + table.name, moveKey(table)};
        }
        if (roll <= 86 && !table.uniqueKey.empty() && has(features_, Feature::UniqueMove)) {
            return {"unique-move " + table.name, moveUnique(table)};
        }
        if (roll <= 96) {
            return {"delete " + table.name, deleteOne(table)};
        }
        if (roll <= 100) {
            return {"delete-range " + table.name, deleteRange(table)};
        }
    }
}

std::string DmlGenerator::insert(const TableSpec& table, const std::string& verb, int rows, bool upsert) {
    auto columns = table.writableColumns();
    std::string sql = verb + " INTO " + q(table.name) + " (";
    for (size_t i = 0; i < columns.size(); ++i) {
        sql += (i == 0 ? "" : ", ") + q(columns[i]->name);
    }
    sql += ") VALUES ";
    for (int r = 0; r < rows; ++r) {
        sql += r == 0 ? "(" : ", (";
        for (size_t i = 0; i < columns.size(); ++i) {
            sql += (i == 0 ? "" : ", ") + randomValue(random_, table, *columns[i]);
        }
        sql += ")";
    }
    if (upsert) {
        sql += " ON DUPLICATE KEY UPDATE `a` = COALESCE(`a`, 0) + 1, `b` = VALUES(`b`)";
    }
    return sql;
}

std::string DmlGenerator::orderAll(const TableSpec& table) {
    std::string order;
    for (const auto* c : table.writableColumns()) {
        order += (order.empty() ? "" : ", ") + q(c->name);
    }
    return order;
}

std::string DmlGenerator::whereRow(const TableSpec& table) {
    if (table.primaryKey.empty()) {
        const ColumnSpec* a = table.column("a");
        return " WHERE `a` = " + randomValue(random_, table, *a) + " ORDER BY " + orderAll(table) + " LIMIT 1";
    }
    std::string where;
    for (const auto& key : table.primaryKey) {
        where +=
            (where.empty() ? " WHERE " : " AND ") + q(key) + " = " + randomValue(random_, table, *table.column(key));
    }
    return where;
}

std::string DmlGenerator::updateValues(const TableSpec& table) {
    std::string set = "`a` = " + randomValue(random_, table, *table.column("a"));
    if (random_.chance(60)) {
        set += ", `b` = " + randomValue(random_, table, *table.column("b"));
    }
    return "UPDATE " + q(table.name) + " SET " + set + whereRow(table);
}

std::string DmlGenerator::updateRange(const TableSpec& table) {
    int low = random_.range(0, kValueDomain);
    return "UPDATE " + q(table.name) + " SET `a` = `a` + 1 WHERE `a` BETWEEN " + std::to_string(low) + " AND " +
           std::to_string(low + kRangeWidth);
}

std::string DmlGenerator::moveKey(const TableSpec& table) {
    const std::string& key = random_.pick(table.primaryKey);
    return "UPDATE " + q(table.name) + " SET " + q(key) + " = " + randomValue(random_, table, *table.column(key)) +
           whereRow(table);
}

std::string DmlGenerator::moveUnique(const TableSpec& table) {
    const ColumnSpec& unique = *table.column(table.uniqueKey.front());
    if (random_.chance(40)) {
        // Release a value (another row may take it next).
        return "UPDATE " + q(table.name) + " SET " + q(unique.name) + " = NULL WHERE " + q(unique.name) + " = " +
               randomValue(random_, table, unique);
    }
    return "UPDATE " + q(table.name) + " SET " + q(unique.name) + " = " + randomValue(random_, table, unique) +
           whereRow(table);
}

std::string DmlGenerator::deleteOne(const TableSpec& table) {
    return "DELETE FROM " + q(table.name) + whereRow(table);
}

std::string DmlGenerator::deleteRange(const TableSpec& table) {
    int low = random_.range(0, kValueDomain);
    return "DELETE FROM " + q(table.name) + " WHERE `a` BETWEEN " + std::to_string(low) + " AND " +
           std::to_string(low + kRangeWidth / 2);
}

}  // namespace syncscope::differential
