#include "tests/integration/differential/schema_model.h"

#include <algorithm>

namespace syncscope::differential {

namespace {

constexpr int kMinTables = 3;
constexpr int kMaxTables = 6;
constexpr int kNullPercent = 15;
constexpr int kUniqueNullPercent = 30;

ColumnSpec intColumn(std::string name, bool nullable = true) {
    return {std::move(name), ValueKind::Int, "INT", nullable, {}};
}
ColumnSpec textColumn(std::string name, int length, bool nullable = true) {
    return {std::move(name), ValueKind::Text, "VARCHAR(" + std::to_string(length) + ")", nullable, {}};
}

std::string quoted(const std::string& name) {
    return "`" + name + "`";
}

std::string joinQuoted(const std::vector<std::string>& names) {
    std::string list;
    for (const auto& name : names) {
        list += (list.empty() ? "" : ", ") + quoted(name);
    }
    return list;
}

enum class Shape { IntKey, CompositeKey, TextKey, NoKey, ParentChild, MyIsam };

std::vector<Shape> allowedShapes(const FeatureSet& features) {
    std::vector<Shape> shapes{Shape::IntKey};
    auto has = [&](Feature feature) { return features.count(feature) != 0; };
    if (has(Feature::CompositeKey))
        shapes.push_back(Shape::CompositeKey);
    if (has(Feature::TextKey))
        shapes.push_back(Shape::TextKey);
    if (has(Feature::NoKey))
        shapes.push_back(Shape::NoKey);
    if (has(Feature::ForeignKey))
        shapes.push_back(Shape::ParentChild);
    if (has(Feature::MyIsam))
        shapes.push_back(Shape::MyIsam);
    return shapes;
}

}  // namespace

const ColumnSpec* TableSpec::column(const std::string& wanted) const {
    for (const auto& c : columns) {
        if (c.name == wanted) {
            return &c;
        }
    }
    return nullptr;
}

bool TableSpec::isKeyColumn(const std::string& wanted) const {
    return std::count(primaryKey.begin(), primaryKey.end(), wanted) != 0 ||
           std::count(uniqueKey.begin(), uniqueKey.end(), wanted) != 0;
}

std::vector<const ColumnSpec*> TableSpec::writableColumns() const {
    std::vector<const ColumnSpec*> list;
    for (const auto& c : columns) {
        if (!c.generated()) {
            list.push_back(&c);
        }
    }
    return list;
}

std::string TableSpec::createSql() const {
    std::string sql = "CREATE TABLE " + quoted(name) + " (";
    bool first = true;
    for (const auto& c : columns) {
        sql += (first ? "" : ", ") + quoted(c.name) + " " + c.sqlType;
        if (c.generated()) {
            sql += " AS " + c.generatedAs;
        } else {
            sql += c.nullable ? " NULL" : " NOT NULL";
        }
        first = false;
    }
    if (!primaryKey.empty()) {
        sql += ", PRIMARY KEY (" + joinQuoted(primaryKey) + ")";
    }
    if (!uniqueKey.empty()) {
        sql += ", UNIQUE KEY `uk` (" + joinQuoted(uniqueKey) + ")";
    }
    if (!parentTable.empty()) {
        sql += ", KEY `pid_key` (`pid`), CONSTRAINT `fk_" + name + "` FOREIGN KEY (`pid`) REFERENCES " +
               quoted(parentTable) + " (`id`) ON DELETE CASCADE";
    }
    sql += ") ENGINE=" + engine;
    if (!collation.empty()) {
        sql += " DEFAULT CHARSET=" + collation.substr(0, collation.find('_')) + " COLLATE=" + collation;
    }
    return sql;
}

std::vector<TableSpec> generateSchema(FuzzRandom& random, const FeatureSet& features) {
    auto has = [&](Feature feature) { return features.count(feature) != 0; };
    const std::vector<Shape> shapes = allowedShapes(features);
    std::vector<TableSpec> tables;
    int count = random.range(kMinTables, kMaxTables);
    for (int i = 0; static_cast<int>(tables.size()) < count; ++i) {
        TableSpec t;
        t.name = "t" + std::to_string(i);
        bool ci = has(Feature::CiCollation) && random.chance(60);
        t.collation =
            ci ? random.pick(std::vector<std::string>{"utf8mb4_general_ci", "utf8mb4_unicode_ci", "latin1_swedish_ci"})
               : "utf8mb4_bin";
        t.caseVariants = ci;
        switch (random.pick(shapes)) {
            case Shape::IntKey:
                t.columns = {intColumn("id", false), intColumn("a"), textColumn("b", 20)};
                t.primaryKey = {"id"};
                break;
            case Shape::CompositeKey:
                t.columns = {intColumn("k1", false), textColumn("k2", 8, false), intColumn("a"), textColumn("b", 20)};
                t.primaryKey = {"k1", "k2"};
                break;
            case Shape::TextKey:
                t.columns = {textColumn("k", 16, false), intColumn("a"), textColumn("b", 20)};
                t.primaryKey = {"k"};
                break;
            case Shape::NoKey:
                t.columns = {intColumn("a"), textColumn("b", 20)};
                break;
            case Shape::ParentChild: {
                TableSpec parent;
                parent.name = t.name + "p";
                parent.columns = {intColumn("id", false), intColumn("a"), textColumn("b", 20)};
                parent.primaryKey = {"id"};
                parent.collation = t.collation;
                parent.caseVariants = t.caseVariants;
                tables.push_back(parent);
                t.name += "c";
                t.columns = {intColumn("id", false), intColumn("pid"), intColumn("a"), textColumn("b", 20)};
                t.primaryKey = {"id"};
                t.parentTable = parent.name;
                break;
            }
            case Shape::MyIsam:
                t.columns = {intColumn("id", false), intColumn("a"), textColumn("b", 20)};
                t.primaryKey = {"id"};
                t.engine = "MyISAM";
                break;
        }
        if (has(Feature::UniqueKey) && random.chance(50)) {
            t.columns.push_back(textColumn("u", 12));
            t.uniqueKey = {"u"};
        }
        if (has(Feature::GeneratedColumn) && random.chance(40)) {
            t.columns.push_back({"g", ValueKind::Int, "INT", true, "(`a` * 2) STORED"});
            t.columns.push_back({"h", ValueKind::Text, "VARCHAR(24)", true, "(CONCAT(`b`, '+')) VIRTUAL"});
        }
        tables.push_back(t);
    }
    return tables;
}

std::string randomValue(FuzzRandom& random, const TableSpec& table, const ColumnSpec& column) {
    bool unique = std::count(table.uniqueKey.begin(), table.uniqueKey.end(), column.name) != 0;
    bool key = table.isKeyColumn(column.name) || column.name == "pid";
    if (column.nullable && random.chance(unique ? kUniqueNullPercent : kNullPercent)) {
        return "NULL";
    }
    if (column.kind == ValueKind::Int) {
        return std::to_string(key ? random.range(0, kKeyDomain - 1) : random.range(0, kValueDomain));
    }
    int n = random.range(0, key ? kTextDomain - 1 : kValueDomain);
    std::string stem = column.name == "k2" ? "x" : "v";
    if (table.caseVariants) {
        // The same key to a _ci collation: 'v3', 'V3', 'vé3' style variants (é = e in the _ci ones used).
        stem = random.pick(std::vector<std::string>{"v", "V", "\xC3\xA9", "e", "E"});
    }
    return "'" + stem + std::to_string(n) + "'";
}

}  // namespace syncscope::differential
