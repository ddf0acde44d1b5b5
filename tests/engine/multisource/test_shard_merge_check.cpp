// DM's shard merge is refused (no server): which downstream tables two sources would share, through each
// source's block-allow list and routes, and how the message names the table and the sources.
#include <QtTest>

#include "engine/filter/block_allow_list.h"
#include "engine/filter/table_router.h"
#include "engine/multisource/shard_merge_check.h"

using syncscope::TableName;
using namespace syncscope::multisource;

namespace {

syncscope::task::TaskSetup setupFor(const std::string& sourceId, const std::string& database,
                                    const std::vector<syncscope::filter::RouteRule>& routes = {}) {
    syncscope::task::TaskSetup setup;
    setup.sourceId = sourceId;
    syncscope::filter::BlockAllowRules rules;
    rules.doDbs = {database};
    setup.blockAllow = std::make_shared<const syncscope::filter::BlockAllowList>(rules, false);
    setup.router = std::make_shared<const syncscope::filter::TableRouter>(routes, false);
    return setup;
}

const std::vector<TableName> kUpstream{
    {"shop_eu", "orders"}, {"shop_us", "orders"}, {"mysql", "user"}, {"other", "orders"}};

}  // namespace

class ShardMergeCheckTest : public QObject {
    Q_OBJECT

private slots:
    void sourcesWithTablesOfTheirOwnShareNothing() {
        std::vector<SourceTables> sources{routedTables(setupFor("eu", "shop_eu"), kUpstream),
                                          routedTables(setupFor("us", "shop_us"), kUpstream)};
        QCOMPARE(sources[0].tables.size(), size_t{1});  // the block-allow list keeps shop_eu only
        QCOMPARE(sharedDownstreamTables(sources, false), std::string());
    }

    void theSameTableOnTwoSourcesWithoutARouteIsNamedWithBothSources() {
        std::vector<SourceTables> sources{routedTables(setupFor("eu", "shop_eu"), kUpstream),
                                          routedTables(setupFor("us", "shop_eu"), kUpstream)};
        QCOMPARE(sharedDownstreamTables(sources, false),
                 std::string("downstream table shop_eu.orders would be written by source 'eu' (shop_eu.orders) and "
                             "source 'us' (shop_eu.orders)"));
    }

    void aRouteThatMergesTwoSourcesIsNamedWithTheUpstreamTables() {
        std::vector<syncscope::filter::RouteRule> merge{{"merge", "shop_*", "orders", "shop", "orders"}};
        std::vector<SourceTables> sources{routedTables(setupFor("eu", "shop_eu", merge), kUpstream),
                                          routedTables(setupFor("us", "shop_us", merge), kUpstream)};
        QCOMPARE(sharedDownstreamTables(sources, false),
                 std::string("downstream table shop.orders would be written by source 'eu' (shop_eu.orders) and "
                             "source 'us' (shop_us.orders)"));
    }

    void namesDifferingInCaseCollideUnlessTheTaskIsCaseSensitive() {
        std::vector<SourceTables> sources{{"eu", {{{"a", "T"}, {"a", "T"}}}}, {"us", {{{"a", "t"}, {"a", "t"}}}}};
        QVERIFY(!sharedDownstreamTables(sources, false).empty());
        QVERIFY(sharedDownstreamTables(sources, true).empty());
    }
};

QTEST_GUILESS_MAIN(ShardMergeCheckTest)
#include "test_shard_merge_check.moc"
