// DM's block-allow-list semantics: do-dbs before ignore-dbs, do-tables before ignore-tables, wildcards,
// `~` regexes, case folding, schema-level statements, and system schemas never replicated.
#include <QtTest>

#include "engine/filter/block_allow_list.h"
#include "engine/filter/filter_error.h"
#include "engine/filter/name_pattern.h"

using namespace syncscope::filter;

namespace {

// "do-dbs=a,~^b;ignore-tables=s.t*" -> rules (tables written schema.table).
BlockAllowRules parseRules(const QString& spec) {
    BlockAllowRules rules;
    for (const QString& part : spec.split(';', Qt::SkipEmptyParts)) {
        const QString key = part.section('=', 0, 0);
        const QStringList values = part.section('=', 1).split(',', Qt::SkipEmptyParts);
        for (const QString& value : values) {
            const std::string text = value.toStdString();
            const auto dot = text.find('.');
            const TableName table{text.substr(0, dot), dot == std::string::npos ? "" : text.substr(dot + 1)};
            if (key == "do-dbs")
                rules.doDbs.push_back(text);
            if (key == "ignore-dbs")
                rules.ignoreDbs.push_back(text);
            if (key == "do-tables")
                rules.doTables.push_back(table);
            if (key == "ignore-tables")
                rules.ignoreTables.push_back(table);
        }
    }
    return rules;
}

}  // namespace

class TestBlockAllowList : public QObject {
    Q_OBJECT

private slots:
    void decidesLikeDm_data() {
        QTest::addColumn<QString>("rules");
        QTest::addColumn<bool>("caseSensitive");
        QTest::addColumn<QString>("schema");
        QTest::addColumn<QString>("table");
        QTest::addColumn<bool>("allowed");

        QTest::newRow("no rules: any table") << "" << false << "shop"
                                             << "orders" << true;
        QTest::newRow("no rules: system schema never") << "" << false << "mysql"
                                                       << "user" << false;
        QTest::newRow("system schema in any case") << "" << false << "Performance_Schema"
                                                   << "x" << false;
        QTest::newRow("do-dbs: listed db") << "do-dbs=test" << false << "test"
                                           << "test1" << true;
        QTest::newRow("do-dbs: other db") << "do-dbs=test" << false << "other"
                                          << "test1" << false;
        QTest::newRow("do-dbs: CREATE DATABASE of listed db") << "do-dbs=test" << false << "test"
                                                              << "" << true;
        QTest::newRow("do-dbs: CREATE DATABASE of other db") << "do-dbs=test" << false << "other"
                                                             << "" << false;
        QTest::newRow("ignore-dbs: listed db") << "ignore-dbs=scratch" << false << "scratch"
                                               << "t" << false;
        QTest::newRow("ignore-dbs: other db") << "ignore-dbs=scratch" << false << "shop"
                                              << "t" << true;
        QTest::newRow("do-dbs wins, ignore-dbs unused") << "do-dbs=a;ignore-dbs=a" << false << "a"
                                                        << "t" << true;
        QTest::newRow("do-tables: listed table") << "do-tables=shop.orders" << false << "shop"
                                                 << "orders" << true;
        QTest::newRow("do-tables: other table") << "do-tables=shop.orders" << false << "shop"
                                                << "customers" << false;
        QTest::newRow("do-tables: schema-level statement passes") << "do-tables=shop.orders" << false << "shop"
                                                                  << "" << true;
        QTest::newRow("ignore-tables: wildcard match") << "ignore-tables=shop.tmp_*" << false << "shop"
                                                       << "tmp_1" << false;
        QTest::newRow("ignore-tables: no match") << "ignore-tables=shop.tmp_*" << false << "shop"
                                                 << "orders" << true;
        QTest::newRow("do-tables before ignore-tables")
            << "do-tables=shop.o*;ignore-tables=shop.orders" << false << "shop"
            << "orders" << true;
        QTest::newRow("do-dbs gate before do-tables") << "do-dbs=a;do-tables=b.t" << false << "b"
                                                      << "t" << false;
        QTest::newRow("do-dbs passes but do-tables misses") << "do-dbs=a;do-tables=b.t" << false << "a"
                                                            << "x" << false;
        QTest::newRow("regex db anchored") << "do-dbs=~^shop_[0-9]+$" << false << "shop_12"
                                           << "t" << true;
        QTest::newRow("regex db anchored, no match") << "do-dbs=~^shop_[0-9]+$" << false << "shop_x"
                                                     << "t" << false;
        QTest::newRow("regex matches anywhere unless anchored") << "do-dbs=~shop" << false << "myshop2"
                                                                << "t" << true;
        QTest::newRow("regex table with wildcard db") << "do-tables=s*.~^log_[0-9]{4}$" << false << "sales"
                                                      << "log_2024" << true;
        QTest::newRow("question mark is one character") << "do-dbs=shop_?" << false << "shop_12"
                                                        << "t" << false;
        QTest::newRow("question mark matches one") << "do-dbs=shop_?" << false << "shop_1"
                                                   << "t" << true;
        QTest::newRow("character set") << "do-dbs=[a-c]db" << false << "bdb"
                                       << "t" << true;
        QTest::newRow("character set miss") << "do-dbs=[a-c]db" << false << "ddb"
                                            << "t" << false;
        QTest::newRow("negated set") << "do-dbs=[!a-c]db" << false << "ddb"
                                     << "t" << true;
        QTest::newRow("case-insensitive by default") << "do-dbs=Test" << false << "TEST"
                                                     << "t1" << true;
        QTest::newRow("case-insensitive regex") << "do-dbs=~^Shop$" << false << "SHOP"
                                                << "t1" << true;
        QTest::newRow("case-sensitive when asked") << "do-dbs=Test" << true << "test"
                                                   << "t1" << false;
        QTest::newRow("unicode names") << "do-tables=库.表*" << false << "库"
                                       << "表一" << true;
        QTest::newRow("unicode question mark is one character") << "do-tables=库.表?" << false << "库"
                                                                << "表一" << true;
        QTest::newRow("names with spaces and backticks") << "do-tables=my db.a`b c" << false << "my db"
                                                         << "a`b c" << true;
    }

    void decidesLikeDm() {
        QFETCH(QString, rules);
        QFETCH(bool, caseSensitive);
        QFETCH(QString, schema);
        QFETCH(QString, table);
        QFETCH(bool, allowed);
        const BlockAllowList list(parseRules(rules), caseSensitive);
        QCOMPARE(list.allows({schema.toStdString(), table.toStdString()}), allowed);
    }

    void badEntriesAreRefusedWithTheirName() {
        BlockAllowRules rules;
        rules.doDbs = {"~^(shop"};
        try {
            BlockAllowList list(rules, false);
            QFAIL("a bad regex was accepted");
        } catch (const FilterError& error) {
            QVERIFY2(QString(error.what()).contains("do-dbs entry '~^(shop'"), error.what());
        }
        QCOMPARE(NamePattern::problemWith("do*c").empty(), false);
        QCOMPARE(NamePattern::problemWith("doc*").empty(), true);
        QCOMPARE(NamePattern::problemWith("[]x").empty(), false);
    }
};

QTEST_GUILESS_MAIN(TestBlockAllowList)
#include "test_block_allow_list.moc"
