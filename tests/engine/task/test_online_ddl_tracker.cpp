// online-ddl as DM's plugin defines it (dm/syncer/online-ddl-tools), statement by statement: pt-online-schema-
// change's and gh-ost's sequences (as their documentation and DM's describe them), custom tools' rules, what
// is refused and why, the rows persisted with the flush, and the store's JSON in DM's shape.
#include <QtTest>

#include <memory>
#include <string>
#include <vector>

#include "engine/checkpoint/online_ddl_store.h"
#include "engine/filter/ddl_classifier.h"
#include "engine/filter/filter_error.h"
#include "engine/filter/online_ddl_rules.h"
#include "engine/task/online_ddl_tracker.h"

using namespace syncscope;
using task::OnlineDdlStep;
using task::OnlineDdlTracker;
using Kind = OnlineDdlStep::Kind;

namespace {

binlog::Location at(uint64_t offset) {
    return binlog::Location(binlog::BinlogPosition("up-bin.000001", offset));
}

struct Follow {
    explicit Follow(std::shared_ptr<const filter::OnlineDdlRules> rules = std::make_shared<filter::OnlineDdlRules>())
        : tracker(std::move(rules), "t") {}
    OnlineDdlStep operator()(const std::string& sql, const std::string& schema = "shop") {
        offset += 100;
        return tracker.onStatement(filter::DdlClassifier::classify(sql, schema), sql, at(offset));
    }
    OnlineDdlTracker tracker;
    uint64_t offset = 4;
};

std::string kinds(const std::vector<checkpoint::OnlineDdlWrite>& writes) {
    std::string text;
    for (const auto& write : writes) {
        text += (text.empty() ? "" : ",") + write.shadowTable + ":" +
                (write.entry ? std::to_string(write.entry->ddls.size()) : std::string("end"));
    }
    return text;
}

}  // namespace

class OnlineDdlTrackerTest : public QObject {
    Q_OBJECT

private slots:
    void rulesAreDmsDefaultsAnchoredWithOneGroup() {
        filter::OnlineDdlRules rules;
        QCOMPARE(int(rules.roleOf("_orders_new")), int(filter::OnlineDdlRole::Shadow));
        QCOMPARE(int(rules.roleOf("_orders_gho")), int(filter::OnlineDdlRole::Shadow));
        for (const char* trash : {"_orders_old", "_orders_del", "_orders_ghc"}) {
            QCOMPARE(int(rules.roleOf(trash)), int(filter::OnlineDdlRole::Trash));
        }
        for (const char* real : {"orders", "orders_new", "_orders_new_x", "x_orders_gho", "_new"}) {
            QVERIFY2(rules.roleOf(real) == filter::OnlineDdlRole::Real, real);
        }
        QCOMPARE(rules.realNameOf("_orders_gho"), std::string("orders"));
        QCOMPARE(rules.realNameOf("_a_b_new"), std::string("a_b"));
        QCOMPARE(rules.realNameOf("orders"), std::string("orders"));
        QCOMPARE(filter::OnlineDdlRules::toolOf("_t_new"), std::string("pt-online-schema-change"));
        QCOMPARE(filter::OnlineDdlRules::toolOf("_t_gho"), std::string("gh-ost"));
        QCOMPARE(filter::OnlineDdlRules::anchored("_(.+)_x"), std::string("^_(.+)_x$"));
        QCOMPARE(filter::OnlineDdlRules::anchored("^_(.+)_x$"), std::string("^_(.+)_x$"));
        QVERIFY(filter::OnlineDdlRules::problemWith("^_(.+)_(x)$").find("2 capturing groups") != std::string::npos);
        QVERIFY(filter::OnlineDdlRules::problemWith("^_(.+$").find("does not compile") != std::string::npos);
        QVERIFY_THROWS_EXCEPTION(filter::FilterError, filter::OnlineDdlRules({"^_.+_s$"}, {}));
        // Custom rules replace the defaults.
        filter::OnlineDdlRules custom({"_(.+)_shadow"}, {"_(.+)_trash"});
        QCOMPARE(int(custom.roleOf("_t_shadow")), int(filter::OnlineDdlRole::Shadow));
        QCOMPARE(int(custom.roleOf("_t_trash")), int(filter::OnlineDdlRole::Trash));
        QCOMPARE(int(custom.roleOf("_t_new")), int(filter::OnlineDdlRole::Real));
    }

    // pt-osc: CREATE the shadow, ALTER it, triggers, the copy, the swap, the old table dropped.
    void ptOscsSequenceRunsTheAlterOnTheRealTableAtTheSwap() {
        Follow follow;
        QCOMPARE(int(follow("SELECT 1").kind), int(Kind::Pass));
        QCOMPARE(int(follow("ALTER TABLE orders ADD COLUMN x INT").kind), int(Kind::Pass));
        OnlineDdlStep created = follow("CREATE TABLE `shop`.`_orders_new` (id INT PRIMARY KEY, v INT)");
        QCOMPARE(int(created.kind), int(Kind::Ignore));
        QCOMPARE(kinds(follow.tracker.takeWrites()), std::string("_orders_new:0"));
        QCOMPARE(int(follow("ALTER TABLE `_orders_new` ADD COLUMN c INT NOT NULL DEFAULT 7").kind), int(Kind::Ignore));
        QCOMPARE(int(follow("ALTER TABLE _orders_new ADD INDEX v_idx (v)").kind), int(Kind::Ignore));
        // Read again after a resume: DM's rule, an equal last DDL is not recorded twice.
        QCOMPARE(int(follow("ALTER TABLE _orders_new ADD INDEX v_idx (v)").kind), int(Kind::Ignore));
        auto writes = follow.tracker.takeWrites();
        QCOMPARE(kinds(writes), std::string("_orders_new:2"));
        QCOMPARE(writes.front().entry->realTable, std::string("orders"));
        QCOMPARE(writes.front().entry->ddls.front(),
                 std::string("ALTER TABLE `shop`.`_orders_new` ADD COLUMN c INT NOT NULL DEFAULT 7"));
        // The tool's triggers are never replicated (DM's skip list), with or without online-ddl.
        QCOMPARE(int(follow("CREATE TRIGGER `pt_osc_shop_orders_ins` AFTER INSERT ON `shop`.`orders` FOR EACH ROW "
                            "REPLACE INTO `shop`.`_orders_new` (`id`, `v`) VALUES (NEW.`id`, NEW.`v`)")
                         .kind),
                 int(Kind::Pass));
        QVERIFY(filter::DdlClassifier::classify("CREATE TRIGGER x AFTER INSERT ON t FOR EACH ROW SET @a = 1", "shop")
                    .kind == filter::StatementKind::NotReplicated);
        QVERIFY(follow.tracker.ignoresRowsOf("shop", "_orders_new", 500));
        QVERIFY(follow.tracker.ignoresRowsOf("shop", "_orders_old", 3));
        QVERIFY(!follow.tracker.ignoresRowsOf("shop", "orders", 3));
        auto views = follow.tracker.view();
        QCOMPARE(views.size(), size_t(1));
        QCOMPARE(views.front().rowsCopied, uint64_t(500));
        QCOMPARE(views.front().tool, std::string("pt-online-schema-change"));
        QCOMPARE(views.front().real, (filter::TableName{"shop", "orders"}));

        OnlineDdlStep swap = follow(
            "RENAME TABLE `shop`.`orders` TO `shop`.`_orders_old`, `shop`.`_orders_new` TO "
            "`shop`.`orders`");
        QCOMPARE(int(swap.kind), int(Kind::Swap));
        QCOMPARE(swap.shadow, (filter::TableName{"shop", "_orders_new"}));
        QCOMPARE(swap.real, (filter::TableName{"shop", "orders"}));
        QCOMPARE(swap.ddls, (std::vector<std::string>{"ALTER TABLE `shop`.`orders` ADD COLUMN c INT NOT NULL DEFAULT 7",
                                                      "ALTER TABLE `shop`.`orders` ADD INDEX v_idx (v)"}));
        QVERIFY(follow.tracker.takeWrites().empty());  // the change ends once its DDLs ran, not before
        follow.tracker.swapStarting(swap.shadow, "CREATE TABLE `orders` (`id` int)");
        auto starting = follow.tracker.takeWrites();
        QCOMPARE(kinds(starting), std::string("_orders_new:2"));
        QCOMPARE(starting.front().entry->swapBefore, std::string("CREATE TABLE `orders` (`id` int)"));
        follow.tracker.swapped(swap.shadow);
        QCOMPARE(kinds(follow.tracker.takeWrites()), std::string("_orders_new:end"));
        QCOMPARE(int(follow("DROP TABLE IF EXISTS `shop`.`_orders_old`").kind), int(Kind::Ignore));
        QVERIFY(follow.tracker.view().empty());
    }

    // gh-ost: the changelog, the ghost created LIKE the table and altered, the sentry, the cut-over.
    void ghOstsSequenceRunsTheAlterOnTheRealTableAtTheCutOver() {
        Follow follow;
        QCOMPARE(int(follow("DROP TABLE IF EXISTS `shop`.`_orders_gho`").kind), int(Kind::Ignore));
        QCOMPARE(int(follow("DROP TABLE IF EXISTS `shop`.`_orders_del`").kind), int(Kind::Ignore));
        QCOMPARE(int(follow("create /* gh-ost */ table `shop`.`_orders_ghc` (id bigint auto_increment, hint "
                            "varchar(64), value varchar(4096), primary key(id))")
                         .kind),
                 int(Kind::Ignore));
        QCOMPARE(int(follow("create /* gh-ost */ table `shop`.`_orders_gho` like `shop`.`orders`").kind),
                 int(Kind::Ignore));
        QCOMPARE(int(follow("alter /* gh-ost */ table `shop`.`_orders_gho` modify v bigint").kind), int(Kind::Ignore));
        QVERIFY(follow.tracker.ignoresRowsOf("shop", "_orders_ghc", 1));
        QCOMPARE(int(follow("create /* gh-ost */ table `shop`.`_orders_del` (id int auto_increment primary key) "
                            "engine=InnoDB comment='ghost-cut-over-sentry'")
                         .kind),
                 int(Kind::Ignore));
        QCOMPARE(int(follow("drop /* gh-ost */ table if exists `shop`.`_orders_del`").kind), int(Kind::Ignore));
        OnlineDdlStep swap = follow(
            "rename /* gh-ost */ table `shop`.`orders` to `shop`.`_orders_del`, `shop`.`_orders_gho` to "
            "`shop`.`orders`");
        QCOMPARE(int(swap.kind), int(Kind::Swap));
        QCOMPARE(swap.ddls, std::vector<std::string>{"alter /* gh-ost */ table `shop`.`orders` modify v bigint"});
        follow.tracker.swapped(swap.shadow);
        QCOMPARE(int(follow("drop /* gh-ost */ table if exists `shop`.`_orders_ghc`").kind), int(Kind::Ignore));
        QCOMPARE(kinds(follow.tracker.takeWrites()), std::string("_orders_gho:end"));
    }

    void aCustomToolsNamesFollowTheRules() {
        Follow follow(std::make_shared<filter::OnlineDdlRules>(std::vector<std::string>{"_(.+)_shadow"},
                                                               std::vector<std::string>{"_(.+)_trash"}));
        QCOMPARE(int(follow("CREATE TABLE _orders_shadow LIKE orders").kind), int(Kind::Ignore));
        QCOMPARE(int(follow("ALTER TABLE _orders_shadow DROP COLUMN v").kind), int(Kind::Ignore));
        // pt-osc's names are ordinary tables under these rules.
        QCOMPARE(int(follow("CREATE TABLE _orders_new LIKE orders").kind), int(Kind::Pass));
        OnlineDdlStep swap = follow("RENAME TABLE orders TO _orders_trash, _orders_shadow TO orders");
        QCOMPARE(int(swap.kind), int(Kind::Swap));
        QCOMPARE(swap.ddls, std::vector<std::string>{"ALTER TABLE `shop`.`orders` DROP COLUMN v"});
    }

    void whatNoToolDoesIsRefusedNamingTheTables_data() {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("named");
        QTest::addRow("a swap whose DDLs were never read")
            << "RENAME TABLE orders TO _orders_old, _orders_new TO orders"
            << "never read";
        QTest::addRow("a real table renamed to a shadow") << "RENAME TABLE orders TO _orders_new"
                                                          << "`shop`.`_orders_new`";
        QTest::addRow("a shadow renamed to a shadow") << "RENAME TABLE _a_new TO _b_gho"
                                                      << "`shop`.`_b_gho`";
        QTest::addRow("a real and a trash table in one DROP") << "DROP TABLE orders, _orders_old"
                                                              << "`shop`.`orders`";
        QTest::addRow("the shadow rule misses the tool's shadow")
            << "RENAME TABLE orders TO _orders_old, _orders_shadow TO orders"
            << "shadow-table-rules";
        QTest::addRow("the trash rule misses the tool's trash")
            << "RENAME TABLE orders TO _orders_gone, _orders_new TO orders"
            << "trash-table-rules";
    }
    void whatNoToolDoesIsRefusedNamingTheTables() {
        QFETCH(QString, sql);
        QFETCH(QString, named);
        Follow follow;
        OnlineDdlStep step = follow(sql.toStdString());
        QCOMPARE(int(step.kind), int(Kind::Error));
        QVERIFY2(step.reason.find(named.toStdString()) != std::string::npos, step.reason.c_str());
        QVERIFY(follow.tracker.takeWrites().empty());
    }

    // Tables the task does not replicate are none of its business: their statements go their usual way
    // (the block-allow list leaves them out), even a swap it never read the DDLs of.
    void tablesTheTaskDoesNotReplicateAreLeftToTheFilters() {
        OnlineDdlTracker tracker(std::make_shared<filter::OnlineDdlRules>(), "t",
                                 [](const filter::TableName& table) { return table.schema == "shop"; });
        const std::string swap = "RENAME TABLE other.orders TO other._orders_old, other._orders_new TO other.orders";
        QCOMPARE(int(tracker.onStatement(filter::DdlClassifier::classify(swap, "other"), swap, at(10)).kind),
                 int(Kind::Pass));
        const std::string alter = "ALTER TABLE other._orders_new ADD COLUMN c INT";
        QCOMPARE(int(tracker.onStatement(filter::DdlClassifier::classify(alter, "other"), alter, at(20)).kind),
                 int(Kind::Pass));
        QVERIFY(tracker.takeWrites().empty());
        const std::string own = "ALTER TABLE shop._orders_new ADD COLUMN c INT";
        QCOMPARE(int(tracker.onStatement(filter::DdlClassifier::classify(own, "shop"), own, at(30)).kind),
                 int(Kind::Ignore));
    }

    void plainRenamesPassAndATrashPairIsLeftOut() {
        Follow follow;
        OnlineDdlStep plain = follow("RENAME TABLE a TO b, c TO d");
        QCOMPARE(int(plain.kind), int(Kind::Pass));
        QVERIFY(plain.sql.empty());  // the statement as it is
        OnlineDdlStep mixed = follow("RENAME TABLE a TO b, _x_old TO _x_del, c TO d");
        QCOMPARE(int(mixed.kind), int(Kind::Pass));
        QCOMPARE(mixed.sql, std::string("RENAME TABLE `shop`.`a` TO `shop`.`b`, `shop`.`c` TO `shop`.`d`"));
        QCOMPARE(int(follow("RENAME TABLE orders TO _orders_old").kind), int(Kind::Ignore));
    }

    // A DROP of the shadow (the tool gave up) ends the change; the store's state is read at start.
    void aDroppedShadowEndsTheChangeAndALoadedOneSwapsIn() {
        Follow follow;
        follow("CREATE TABLE _orders_new LIKE orders");
        follow("ALTER TABLE _orders_new ADD COLUMN c INT");
        follow.tracker.takeWrites();
        follow("DROP TABLE IF EXISTS _orders_new");
        QCOMPARE(kinds(follow.tracker.takeWrites()), std::string("_orders_new:end"));
        QCOMPARE(int(follow("RENAME TABLE orders TO _orders_old, _orders_new TO orders").kind), int(Kind::Error));

        Follow resumed;
        resumed.tracker.load(
            {{"shop", "_orders_gho", "shop", "orders", {"ALTER TABLE `shop`.`_orders_gho` ADD c INT"}, {}}});
        QVERIFY(resumed.tracker.follows({"shop", "_orders_gho"}));
        OnlineDdlStep swap = resumed("RENAME TABLE orders TO _orders_del, _orders_gho TO orders");
        QCOMPARE(swap.ddls, std::vector<std::string>{"ALTER TABLE `shop`.`orders` ADD c INT"});
    }

    // DM's `ddls` column: {"schema", "table", "ddls"}; what DM wrote is read, and what cannot be is named.
    void theStoresJsonIsDms() {
        checkpoint::OnlineDdlEntry entry{
            "shop", "_orders_gho", "shop", "orders", {"ALTER TABLE `shop`.`_orders_gho` ADD c INT"}, {}};
        std::string json = checkpoint::OnlineDdlStore::toJson(entry);
        QCOMPARE(
            json,
            std::string(R"({"ddls":["ALTER TABLE `shop`.`_orders_gho` ADD c INT"],"schema":"shop","table":"orders"})"));
        QCOMPARE(checkpoint::OnlineDdlStore::fromJson("shop", "_orders_gho", json), entry);
        // The definition kept for a replay of the swap rides along under a name of its own.
        entry.swapBefore = "CREATE TABLE `orders` (\n  `id` int(11) NOT NULL,\n  PRIMARY KEY (`id`)\n)";
        std::string withBefore = checkpoint::OnlineDdlStore::toJson(entry);
        QVERIFY(withBefore.find("\"syncscope_swap_before\":") != std::string::npos);
        QCOMPARE(checkpoint::OnlineDdlStore::fromJson("shop", "_orders_gho", withBefore), entry);
        auto fromDm = checkpoint::OnlineDdlStore::fromJson(
            "db", "_t_new", R"({"schema":"db","table":"t","ddls":["ALTER TABLE `db`.`_t_new` ADD COLUMN `c` INT"]})");
        QCOMPARE(fromDm.realTable, std::string("t"));
        QCOMPARE(fromDm.ddls.size(), size_t(1));
        QCOMPARE(checkpoint::OnlineDdlStore::fromJson("db", "_t_new", R"({"schema":"db","table":"t","ddls":null})")
                     .ddls.size(),
                 size_t(0));
        for (const char* bad : {"", "[]", R"({"schema":"db"})", R"({"schema":"db","table":"t","ddls":[1]})"}) {
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, checkpoint::OnlineDdlStore::fromJson("db", "_t_new", bad));
        }
    }
};

QTEST_APPLESS_MAIN(OnlineDdlTrackerTest)
#include "test_online_ddl_tracker.moc"
