// DM's binlog event filter: which rules match a table, how event names and sql-patterns decide, and the
// precedence of Ignore, Error and Do.
#include <QtTest>

#include <string>

#include "engine/filter/event_filter.h"
#include "engine/filter/event_type.h"
#include "engine/filter/filter_error.h"

using namespace syncscope::filter;

Q_DECLARE_METATYPE(FilterAction)

namespace {

EventFilterRule rule(std::string name, std::string schema, std::string table, std::vector<std::string> events,
                     FilterAction action, std::vector<std::string> sqlPatterns = {}) {
    return {std::move(name), std::move(schema), std::move(table), std::move(events), std::move(sqlPatterns), action};
}

std::vector<EventFilterRule> sharedRules() {
    return {
        rule("ignore-ddl-test1", "test", "test1", {"all ddl"}, FilterAction::Ignore),
        rule("shop-orders-dml-only", "shop*", "orders", {"all dml"}, FilterAction::Do),
        rule("no-drop-database", "*", "", {"drop database"}, FilterAction::Error),
        rule("ignore-partition-adds", "logs", "", {}, FilterAction::Ignore,
             {"^ALTER\\s+TABLE\\s+\\S+\\s+ADD\\s+PARTITION"}),
        rule("legacy-incompatible", "legacy", "", {"incompatible ddl changes"}, FilterAction::Error),
        rule("none-listed", "quiet", "", {"none"}, FilterAction::Ignore),
    };
}

}  // namespace

class TestEventFilter : public QObject {
    Q_OBJECT

private slots:
    void decidesLikeDm_data() {
        QTest::addColumn<QString>("schema");
        QTest::addColumn<QString>("table");
        QTest::addColumn<QString>("event");
        QTest::addColumn<QString>("sql");
        QTest::addColumn<FilterAction>("action");
        QTest::addColumn<QString>("rule");

        QTest::newRow("the DM bug: ALTER on test1 ignored")
            << "test"
            << "test1"
            << "alter table"
            << "ALTER TABLE test1 ADD c4 INT" << FilterAction::Ignore << "ignore-ddl-test1";
        QTest::newRow("rows of test1 pass") << "test"
                                            << "test1"
                                            << "insert"
                                            << "" << FilterAction::Do << "";
        QTest::newRow("DDL on test2 passes") << "test"
                                             << "test2"
                                             << "create table"
                                             << "" << FilterAction::Do << "";
        QTest::newRow("index DDL is DDL too") << "test"
                                              << "test1"
                                              << "create index"
                                              << "" << FilterAction::Ignore << "ignore-ddl-test1";
        QTest::newRow("drop table is an (incompatible) DDL") << "test"
                                                             << "test1"
                                                             << "drop table"
                                                             << "" << FilterAction::Ignore << "ignore-ddl-test1";
        QTest::newRow("case folded") << "TEST"
                                     << "Test1"
                                     << "alter table"
                                     << "" << FilterAction::Ignore << "ignore-ddl-test1";
        QTest::newRow("Do rule lists the event: continue, then Do") << "shop_1"
                                                                    << "orders"
                                                                    << "update"
                                                                    << "" << FilterAction::Do << "";
        QTest::newRow("Do rule does not list it: Ignore") << "shop_1"
                                                          << "orders"
                                                          << "alter table"
                                                          << "" << FilterAction::Ignore << "shop-orders-dml-only";
        QTest::newRow("Do rule on another table: no effect") << "shop_1"
                                                             << "customers"
                                                             << "alter table"
                                                             << "" << FilterAction::Do << "";
        QTest::newRow("schema-level Error rule") << "anything"
                                                 << ""
                                                 << "drop database"
                                                 << "" << FilterAction::Error << "no-drop-database";
        QTest::newRow("sql-pattern matches: Ignore")
            << "logs"
            << "t"
            << "alter table"
            << "alter table t add partition (partition p9 values less than (9))" << FilterAction::Ignore
            << "ignore-partition-adds";
        QTest::newRow("sql-pattern does not match") << "logs"
                                                    << "t"
                                                    << "alter table"
                                                    << "ALTER TABLE t ADD c INT" << FilterAction::Do << "";
        QTest::newRow("sql-pattern rules do not touch rows") << "logs"
                                                             << "t"
                                                             << "insert"
                                                             << "" << FilterAction::Do << "";
        QTest::newRow("incompatible ddl changes: drop") << "legacy"
                                                        << "t"
                                                        << "drop table"
                                                        << "" << FilterAction::Error << "legacy-incompatible";
        QTest::newRow("incompatible ddl changes: not create") << "legacy"
                                                              << "t"
                                                              << "create table"
                                                              << "" << FilterAction::Do << "";
        QTest::newRow("none matches nothing") << "quiet"
                                              << "t"
                                              << "insert"
                                              << "" << FilterAction::Do << "";
        QTest::newRow("SQL only, no event kind")
            << "logs"
            << "t"
            << ""
            << "ALTER TABLE x ADD PARTITION p" << FilterAction::Ignore << "ignore-partition-adds";
    }

    void decidesLikeDm() {
        QFETCH(QString, schema);
        QFETCH(QString, table);
        QFETCH(QString, event);
        QFETCH(QString, sql);
        QFETCH(FilterAction, action);
        QFETCH(QString, rule);
        const EventFilter filter(sharedRules(), false);
        const auto decision =
            filter.decide({schema.toStdString(), table.toStdString()}, event.toStdString(), sql.toStdString());
        QCOMPARE(decision.action, action);
        QCOMPARE(QString::fromStdString(decision.ruleName), rule);
    }

    void schemaLevelRulesComeBeforeTableLevelRules() {
        // Listed in the opposite order on purpose: DM's selector puts schema-level rules first.
        const EventFilter filter({rule("table-ignore", "app", "t", {"insert"}, FilterAction::Ignore),
                                  rule("schema-allow", "app", "", {"insert", "delete"}, FilterAction::Do)},
                                 false);
        QCOMPARE(filter.decide({"app", "t"}, "insert").ruleName, std::string("table-ignore"));
        QCOMPARE(filter.decide({"app", "t"}, "update").ruleName, std::string("schema-allow"));
        QCOMPARE(filter.decide({"app", "t"}, "update").action, FilterAction::Ignore);
        QCOMPARE(filter.decide({"app", "u"}, "delete").action, FilterAction::Do);
    }

    void theFirstDecisiveRuleWins() {
        const EventFilter filter({rule("stop", "db", "", {"all ddl"}, FilterAction::Error),
                                  rule("skip", "db", "t", {"alter table"}, FilterAction::Ignore)},
                                 false);
        QCOMPARE(filter.decide({"db", "t"}, "alter table").action, FilterAction::Error);  // first decisive rule
        QCOMPARE(filter.decide({"db", "u"}, "create table").action, FilterAction::Error);
    }

    void badRulesAreRefused() {
        QVERIFY_THROWS_EXCEPTION(FilterError, EventFilter({rule("a", "db", "t", {"insert"}, FilterAction::Ignore),
                                                           rule("b", "db", "t", {"delete"}, FilterAction::Ignore)},
                                                          false));
        QVERIFY_THROWS_EXCEPTION(FilterError,
                                 EventFilter({rule("a", "db", "t", {"inserts"}, FilterAction::Ignore)}, false));
        QVERIFY_THROWS_EXCEPTION(FilterError,
                                 EventFilter({rule("a", "db", "t", {}, FilterAction::Ignore, {"(("})}, false));
        QVERIFY_THROWS_EXCEPTION(FilterError, EventFilter({rule("a", "d*b", "t", {}, FilterAction::Ignore)}, false));
        const EventFilter filter(sharedRules(), false);
        QVERIFY_THROWS_EXCEPTION(FilterError, filter.decide({"a", "b"}, "all ddl"));
    }

    void aHugeStatementDoesNotOverflowTheRegexStack() {
        // std::regex recursed once per character here and crashed at about 10 kB of SQL.
        const EventFilter filter({rule("big", "db", "", {}, FilterAction::Ignore, {"^CREATE\\s+TABLE.*ENGINE=MyISAM"})},
                                 false);
        std::string sql = "CREATE TABLE t (a TEXT COMMENT '" + std::string(4 << 20, 'x') + "') ENGINE=MyISAM";
        QCOMPARE(filter.decide({"db", "t"}, "create table", sql).action, FilterAction::Ignore);
    }

    void eventNamesAreDms() {
        QCOMPARE(canonicalEventName("Create Schema").value_or(""), std::string("create database"));
        QCOMPARE(canonicalEventName("ALL DDL").value_or(""), std::string("all ddl"));
        QVERIFY(!canonicalEventName("all dmll").has_value());
        QCOMPARE(eventClassOf("truncate table"), std::optional<EventClass>(EventClass::IncompatibleDdl));
        QCOMPARE(eventClassOf("alter table"), std::optional<EventClass>(EventClass::Ddl));
        QCOMPARE(eventClassOf("insert"), std::optional<EventClass>(EventClass::Dml));
    }
};

QTEST_GUILESS_MAIN(TestEventFilter)
#include "test_event_filter.moc"
