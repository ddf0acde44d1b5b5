// The precheck's rules on facts written by hand (no server): which table shapes give which finding
// and which do not, the fixes they print, grant patterns, binlog file order, retention and exit codes.
#include <QtTest>

#include "engine/precheck/grants.h"
#include "engine/precheck/precheck_report.h"
#include "engine/precheck/shard_tables.h"
#include "engine/precheck/table_rules.h"
#include "engine/precheck/upstream_checks.h"

using namespace syncscope;
using namespace syncscope::precheck;

namespace {

ColumnFacts intColumn(const std::string& name, bool nullable = false) {
    return {name, "int(11)", "int", nullable, "", "", false, std::nullopt, false};
}

ColumnFacts textColumn(const std::string& name, const std::string& collation) {
    return {name,      "varchar(20)", "varchar",    false, collation.substr(0, collation.find('_')),
            collation, false,         std::nullopt, false};
}

TableFacts table(const std::string& name, std::vector<ColumnFacts> columns, std::vector<IndexFacts> indexes = {}) {
    return {{"shop", name}, "BASE TABLE", "InnoDB", "utf8mb4_general_ci", std::move(columns), std::move(indexes), {}};
}

std::vector<std::string> checks(const std::vector<Finding>& findings) {
    std::vector<std::string> out;
    for (const auto& finding : findings) {
        out.push_back(finding.check);
    }
    return out;
}

// The shard table `schema`.t with `id` INT as its primary key and `v` INT NULL.
TableFacts shard(const std::string& schema) {
    ColumnFacts v = intColumn("v", true);
    v.defaultValue = "NULL";
    TableFacts t = table("t", {intColumn("id"), v}, {{"PRIMARY", true, false, {"id"}}});
    t.name.schema = schema;
    return t;
}

// Every table of `facts` routed into shop.t.
std::vector<TableMapping> mergedIntoShopT(const ServerFacts& facts) {
    std::vector<TableMapping> mappings;
    for (const auto& t : facts.tables) {
        mappings.push_back({t.name, {"shop", "t"}});
    }
    return mappings;
}

std::vector<TableMapping> identity(const ServerFacts& facts) {
    std::vector<TableMapping> mappings;
    for (const auto& t : facts.tables) {
        mappings.push_back({t.name, t.name});
    }
    return mappings;
}

}  // namespace

class PrecheckRulesTest : public QObject {
    Q_OBJECT

private slots:
    void upstreamTableFindings_data() {
        QTest::addColumn<int>("shape");
        QTest::addColumn<QStringList>("expected");
        QTest::addRow("primary key: nothing") << 0 << QStringList{};
        QTest::addRow("no key at all: no_key") << 1 << QStringList{"table.no_key"};
        QTest::addRow("only a nullable unique key: no_key and nullable_unique_key")
            << 2 << QStringList{"table.no_key", "table.nullable_unique_key"};
        QTest::addRow("not-null unique key is a row key: nothing") << 3 << QStringList{};
        QTest::addRow("_ci text primary key: ci_key note") << 4 << QStringList{"table.ci_key"};
        QTest::addRow("_bin text primary key: nothing") << 5 << QStringList{};
        QTest::addRow("sequence: sequence only") << 6 << QStringList{"table.sequence"};
        QTest::addRow("unknown column type: unsupported_type") << 7 << QStringList{"table.unsupported_type"};
    }

    void upstreamTableFindings() {
        QFETCH(int, shape);
        QFETCH(QStringList, expected);
        const IndexFacts primary{"PRIMARY", true, false, {"id"}};
        ServerFacts facts;
        switch (shape) {
            case 0:
                facts.tables.push_back(table("t", {intColumn("id")}, {primary}));
                break;
            case 1:
                facts.tables.push_back(table("t", {intColumn("a", true)}));
                break;
            case 2:
                facts.tables.push_back(table("t", {intColumn("a", true)}, {{"uk_a", true, false, {"a"}}}));
                break;
            case 3:
                facts.tables.push_back(table("t", {intColumn("a")}, {{"uk_a", true, false, {"a"}}}));
                break;
            case 4:
                facts.tables.push_back(table("t", {textColumn("id", "utf8mb4_general_ci")}, {primary}));
                break;
            case 5:
                facts.tables.push_back(table("t", {textColumn("id", "utf8mb4_bin")}, {primary}));
                break;
            case 6: {
                TableFacts sequence = table("seq", {intColumn("next_not_cached_value")});
                sequence.tableType = "SEQUENCE";
                facts.tables.push_back(sequence);
                break;
            }
            case 7: {
                ColumnFacts odd = intColumn("v");
                odd.dataType = "hologram";
                facts.tables.push_back(table("t", {intColumn("id"), odd}, {primary}));
                break;
            }
        }
        std::vector<std::string> want;
        for (const auto& check : expected) {
            want.push_back(check.toStdString());
        }
        QCOMPARE(checks(checkUpstreamTables(facts, identity(facts))), want);
    }

    void nullableUniqueKeyFixMakesTheColumnsNotNull() {
        ServerFacts facts;
        facts.tables.push_back(table("t", {intColumn("id"), intColumn("code", true)},
                                     {{"PRIMARY", true, false, {"id"}}, {"uk_code", true, false, {"code"}}}));
        auto findings = checkUpstreamTables(facts, identity(facts));
        QCOMPARE(findings.size(), size_t(1));
        QCOMPARE(findings[0].fixStatements,
                 std::vector<std::string>{"ALTER TABLE `shop`.`t` MODIFY `code` int(11) NOT NULL"});
        QCOMPARE(findings[0].fixTarget, FixTarget::Upstream);
    }

    void routesMergingTwoTablesAreFlaggedOnce() {
        std::vector<TableMapping> mappings{{{"shop", "orders_1"}, {"shop", "orders"}},
                                           {{"shop", "orders_2"}, {"shop", "orders"}},
                                           {{"shop", "items"}, {"shop", "items"}}};
        auto findings = checkRoutes(mappings);
        QCOMPARE(findings.size(), size_t(1));
        QCOMPARE(findings[0].subject, std::string("`shop`.`orders`"));
        QVERIFY(findings[0].problem.find("`shop`.`orders_2`") != std::string::npos);
    }

    void downstreamDifferences_data() {
        QTest::addColumn<int>("shape");
        QTest::addColumn<QStringList>("expected");
        QTest::addRow("equal tables: nothing") << 0 << QStringList{};
        QTest::addRow("missing table") << 1 << QStringList{"downstream.table_missing"};
        QTest::addRow("missing column") << 2 << QStringList{"downstream.column_missing"};
        QTest::addRow("wider type upstream") << 3 << QStringList{"downstream.column_type"};
        QTest::addRow("generated downstream") << 4 << QStringList{"downstream.generated_column"};
        QTest::addRow("extra nullable column downstream: nothing") << 5 << QStringList{};
        QTest::addRow("trigger and MyISAM") << 6 << QStringList{"downstream.trigger", "downstream.engine"};
        QTest::addRow("other collation") << 7 << QStringList{"downstream.collation"};
    }

    void downstreamDifferences() {
        QFETCH(int, shape);
        QFETCH(QStringList, expected);
        const IndexFacts primary{"PRIMARY", true, false, {"id"}};
        ServerFacts up;
        up.tables.push_back(
            table("t", {intColumn("id"), intColumn("v", true), textColumn("s", "utf8mb4_bin")}, {primary}));
        ServerFacts down = up;
        TableFacts& twin = down.tables.front();
        switch (shape) {
            case 1:
                down.tables.clear();
                break;
            case 2:
                twin.columns.pop_back();
                break;
            case 3:
                up.tables.front().columns[1].columnType = "bigint(20)";
                break;
            case 4:
                twin.columns[1].generated = true;
                break;
            case 5:
                twin.columns.push_back(intColumn("extra", true));
                break;
            case 6:
                twin.triggers.push_back({"t_bi", "BEFORE", "INSERT"});
                twin.engine = "MyISAM";
                break;
            case 7:
                twin.columns[2] = textColumn("s", "latin1_swedish_ci");
                break;
            default:
                break;
        }
        std::vector<std::string> want;
        for (const auto& check : expected) {
            want.push_back(check.toStdString());
        }
        QCOMPARE(checks(checkDownstreamTables(up, down, identity(up), {})), want);
    }

    void cascadingForeignKeyIsFlaggedUnlessChecksAreOn() {
        ServerFacts up;
        up.tables.push_back(table("parent", {intColumn("id")}, {{"PRIMARY", true, false, {"id"}}}));
        ServerFacts down = up;
        down.foreignKeys.push_back({"fk", {"shop", "child"}, {"shop", "parent"}, "RESTRICT", "CASCADE"});
        QCOMPARE(checks(checkDownstreamTables(up, down, identity(up), {})),
                 std::vector<std::string>{"downstream.foreign_key_cascade"});
        DownstreamRuleSettings checksOn;
        checksOn.foreignKeyChecks = true;
        QVERIFY(checkDownstreamTables(up, down, identity(up), checksOn).empty());
        down.foreignKeys.front().deleteRule = "RESTRICT";
        QVERIFY(checkDownstreamTables(up, down, identity(up), {}).empty());
    }

    void firstStructureDifferenceNamesBothShards_data() {
        QTest::addColumn<int>("shape");
        QTest::addColumn<QString>("expected");
        QTest::addRow("equal: none") << 0 << "";
        QTest::addRow("extra column in the second")
            << 1 << "`sm_2`.`t` has column `c` int(11) NOT NULL DEFAULT 7 where `sm_1`.`t` has none";
        QTest::addRow("column missing in the second") << 2
                                                      << "`sm_1`.`t` has column `v` int(11) NULL DEFAULT NULL "
                                                         "where `sm_2`.`t` has none";
        QTest::addRow("other type") << 3
                                    << "`sm_2`.`t` has column `v` bigint(20) NULL DEFAULT NULL where `sm_1`.`t` has "
                                       "`v` int(11) NULL DEFAULT NULL";
        QTest::addRow("other nullability") << 4
                                           << "`sm_2`.`t` has column `v` int(11) NOT NULL where `sm_1`.`t` has `v` "
                                              "int(11) NULL DEFAULT NULL";
        QTest::addRow("other default") << 5
                                       << "`sm_2`.`t` has column `v` int(11) NULL DEFAULT 3 where `sm_1`.`t` has `v` "
                                          "int(11) NULL DEFAULT NULL";
        QTest::addRow("other order") << 6
                                     << "`sm_2`.`t` has column `v` int(11) NULL DEFAULT NULL as column 1 where "
                                        "`sm_1`.`t` has `id` int(11) NOT NULL";
        QTest::addRow("other primary key") << 7
                                           << "`sm_2`.`t` has primary key (`id`, `v`) where `sm_1`.`t` has primary "
                                              "key (`id`)";
        QTest::addRow("no primary key in the second")
            << 8 << "`sm_1`.`t` has primary key (`id`) where `sm_2`.`t` has none";
        QTest::addRow("extra unique key in the second")
            << 9 << "`sm_2`.`t` has unique key `uk_v` (`v`) where `sm_1`.`t` has no unique key over (`v`)";
        QTest::addRow("unique key of another name: none") << 10 << "";
        QTest::addRow("auto-increment in the second only")
            << 11
            << "`sm_2`.`t` has column `id` int(11) NOT NULL AUTO_INCREMENT where `sm_1`.`t` has `id` int(11) "
               "NOT NULL";
    }

    void firstStructureDifferenceNamesBothShards() {
        QFETCH(int, shape);
        QFETCH(QString, expected);
        TableFacts first = shard("sm_1");
        TableFacts second = shard("sm_2");
        switch (shape) {
            case 1: {
                ColumnFacts c = intColumn("c");
                c.defaultValue = "7";
                second.columns.push_back(c);
                break;
            }
            case 2:
                second.columns.pop_back();
                break;
            case 3:
                second.columns[1].columnType = "bigint(20)";
                break;
            case 4:
                second.columns[1].nullable = false;
                second.columns[1].defaultValue.reset();
                break;
            case 5:
                second.columns[1].defaultValue = "3";
                break;
            case 6:
                std::swap(second.columns[0], second.columns[1]);
                break;
            case 7:
                second.indexes[0].columns.push_back("v");
                break;
            case 8:
                second.indexes.clear();
                break;
            case 9:
                second.indexes.push_back({"uk_v", true, false, {"v"}});
                break;
            case 10:
                first.indexes.push_back({"uk_v", true, false, {"v"}});
                second.indexes.push_back({"v_unique", true, false, {"v"}});
                break;
            case 11:
                second.columns[0].autoIncrement = true;
                break;
            default:
                break;
        }
        QCOMPARE(QString::fromStdString(firstStructureDifference(first, second)), expected);
    }

    void shardChecksOfMergedTables_data() {
        QTest::addColumn<int>("shape");
        QTest::addColumn<QStringList>("expected");
        QTest::addRow("equal shard tables: nothing") << 0 << QStringList{};
        QTest::addRow("differing shard tables: table_structure") << 1 << QStringList{"shard.table_structure"};
        QTest::addRow("auto-increment primary key: auto_increment") << 2 << QStringList{"shard.auto_increment"};
        QTest::addRow("auto-increment outside any key: nothing") << 3 << QStringList{};
        QTest::addRow("no key: no_unique_key") << 4 << QStringList{"shard.no_unique_key"};
        QTest::addRow("one shard without its key: table_structure and no_unique_key")
            << 5 << QStringList{"shard.table_structure", "shard.no_unique_key"};
    }

    void shardChecksOfMergedTables() {
        QFETCH(int, shape);
        QFETCH(QStringList, expected);
        ServerFacts facts;
        facts.tables = {shard("sm_1"), shard("sm_2")};
        switch (shape) {
            case 1:
                facts.tables[1].columns[1].columnType = "bigint(20)";
                break;
            case 2:
                facts.tables[0].columns[0].autoIncrement = true;
                facts.tables[1].columns[0].autoIncrement = true;
                break;
            case 3:
                for (auto& t : facts.tables) {
                    t.columns[1].autoIncrement = true;
                }
                break;
            case 4:
                for (auto& t : facts.tables) {
                    t.indexes.clear();
                }
                break;
            case 5:
                facts.tables[1].indexes.clear();
                break;
            default:
                break;
        }
        std::vector<std::string> want;
        for (const auto& check : expected) {
            want.push_back(check.toStdString());
        }
        auto findings = checkShardTables(facts, mergedIntoShopT(facts), "upstream repl@127.0.0.1:3306", "mysql-1");
        QCOMPARE(checks(findings), want);
        for (const auto& finding : findings) {
            QCOMPARE(finding.subject, std::string("`shop`.`t`"));
            QVERIFY2(finding.problem.find("upstream repl@127.0.0.1:3306") != std::string::npos,
                     finding.problem.c_str());
            QVERIFY2(finding.problem.find("`sm_2`.`t`") != std::string::npos, finding.problem.c_str());
        }
    }

    void tablesNotMergedHaveNoShardFinding() {
        ServerFacts facts;
        facts.tables = {shard("sm_1"), shard("sm_2")};
        facts.tables[1].indexes.clear();
        QVERIFY(checkShardTables(facts, identity(facts), "upstream", "mysql-1").empty());
        QVERIFY(mergedTables(identity(facts)).empty());
    }

    void grantPatterns_data() {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("schema");
        QTest::addColumn<bool>("matches");
        QTest::addRow("exact") << "shop"
                               << "shop" << true;
        QTest::addRow("other") << "shop"
                               << "shop2" << false;
        QTest::addRow("percent") << "shop%"
                                 << "shop_eu" << true;
        QTest::addRow("underscore is any char") << "shop_eu"
                                                << "shopXeu" << true;
        QTest::addRow("escaped underscore is literal") << "shop\\_eu"
                                                       << "shopXeu" << false;
        QTest::addRow("escaped underscore matches itself") << "shop\\_eu"
                                                           << "shop_eu" << true;
    }

    void grantPatterns() {
        QFETCH(QString, pattern);
        QFETCH(QString, schema);
        QFETCH(bool, matches);
        QCOMPARE(schemaPatternMatches(pattern.toStdString(), schema.toStdString()), matches);
    }

    void grantHoldsGloballyOrBySchema() {
        GrantFacts grants;
        grants.global = {"SELECT"};
        grants.bySchemaPattern["shop%"] = {"INSERT"};
        QVERIFY(grants.holds("SELECT", "anything"));
        QVERIFY(grants.holds("INSERT", "shop_eu"));
        QVERIFY(!grants.holds("INSERT", "billing"));
    }

    void binlogFileNumbersAndRetention() {
        QCOMPARE(binlogFileNumber("mariadb-bin.000012"), 12LL);
        QCOMPARE(binlogFileNumber("noext"), -1LL);
        QCOMPARE(recommendedRetention(std::chrono::hours(24)), std::chrono::seconds(7 * 24 * 3600));
        QCOMPARE(recommendedRetention(std::chrono::hours(24 * 10)), std::chrono::seconds(20 * 24 * 3600));
    }

    void exitCodeFollowsTheWorstFinding() {
        PrecheckReport report;
        QCOMPARE(report.exitCode(), 0);
        report.findings.push_back({"table.ci_key", Severity::Note, "", "", "", "", FixTarget::Upstream, {}});
        QCOMPARE(report.exitCode(), 0);
        report.findings.push_back({"table.no_key", Severity::Warning, "", "", "", "", FixTarget::Upstream, {}});
        QCOMPARE(report.exitCode(), 1);
        report.findings.push_back({"upstream.log_bin", Severity::Error, "", "", "", "", FixTarget::ServerConfig, {}});
        QCOMPARE(report.exitCode(), 2);
        auto json = toJson(report);
        QCOMPARE(json["errors"].get<int>(), 1);
        QCOMPARE(json["findings"].size(), size_t(3));
        QVERIFY(toText(report).find("1 error, 1 warning, 1 note") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(PrecheckRulesTest)
#include "test_precheck_rules.moc"
