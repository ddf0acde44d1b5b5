// DM's table routes: table-level rules beat schema-level ones, empty targets keep names, two matching
// rules of one level are an error rather than a guess.
#include <QtTest>

#include "engine/filter/filter_error.h"
#include "engine/filter/table_router.h"

using namespace syncscope::filter;

class TestTableRouter : public QObject {
    Q_OBJECT

private slots:
    void routesLikeDm_data() {
        QTest::addColumn<QString>("schema");
        QTest::addColumn<QString>("table");
        QTest::addColumn<QString>("targetSchema");
        QTest::addColumn<QString>("targetTable");
        QTest::newRow("shard table to one table") << "shop_3"
                                                  << "orders_7"
                                                  << "shop"
                                                  << "orders";
        QTest::newRow("other table of a shard: schema route") << "shop_3"
                                                              << "customers"
                                                              << "shop"
                                                              << "customers";
        QTest::newRow("CREATE DATABASE of a shard") << "shop_3"
                                                    << ""
                                                    << "shop"
                                                    << "";
        QTest::newRow("no rule: names kept") << "crm"
                                             << "leads"
                                             << "crm"
                                             << "leads";
        QTest::newRow("case folded") << "SHOP_3"
                                     << "Orders_7"
                                     << "shop"
                                     << "orders";
        QTest::newRow("empty target table keeps the name") << "audit"
                                                           << "log_2024"
                                                           << "archive"
                                                           << "log_2024";
        QTest::newRow("unicode") << "店_1"
                                 << "订单"
                                 << "店"
                                 << "订单";
    }

    void routesLikeDm() {
        QFETCH(QString, schema);
        QFETCH(QString, table);
        QFETCH(QString, targetSchema);
        QFETCH(QString, targetTable);
        const TableRouter router({{"shard-tables", "shop_*", "orders_?", "shop", "orders"},
                                  {"shard-schemas", "shop_*", "", "shop", ""},
                                  {"audit", "audit", "log_*", "archive", ""},
                                  {"unicode", "店_?", "", "店", ""}},
                                 false);
        const TableName routed = router.route({schema.toStdString(), table.toStdString()});
        QCOMPARE(QString::fromStdString(routed.schema), targetSchema);
        QCOMPARE(QString::fromStdString(routed.table), targetTable);
    }

    void twoMatchingRulesOfOneLevelAreAnError() {
        const TableRouter router({{"a", "db", "t*", "x", ""}, {"b", "db", "t1", "y", ""}}, false);
        try {
            (void)router.route({"db", "t1"});
            QFAIL("routed by a guess");
        } catch (const FilterError& error) {
            QVERIFY2(QString(error.what()).contains("'a' and 'b'"), error.what());
        }
        QCOMPARE(router.route({"db", "u"}).schema, std::string("db"));
    }

    void badRulesAreRefused() {
        QVERIFY_THROWS_EXCEPTION(FilterError, TableRouter({{"bad", "", "t", "x", ""}}, false));
        QVERIFY_THROWS_EXCEPTION(FilterError, TableRouter({{"bad", "d*b", "t", "x", ""}}, false));
    }
};

QTEST_GUILESS_MAIN(TestTableRouter)
#include "test_table_router.moc"
