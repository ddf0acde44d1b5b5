// The event browser's events under online-ddl: each event of a tool's table says what the task does with
// it (never applied, recorded on the shadow, the swap), and nothing is said without the key or for an
// ordinary table.
#include <QtTest>

#include <memory>

#include "engine/filter/online_ddl_rules.h"
#include "ui/models/event_browser_model.h"

using namespace syncscope;
using ui::EventBrowserModel;

namespace {

browse::BrowsedEvent rowsEvent(const std::string& table) {
    browse::BrowsedEvent event;
    event.file = "mariadb-bin.000003";
    event.pos = 400;
    event.type = "WRITE_ROWS_EVENT_V1";
    event.schema = "shop";
    event.table = table;
    event.operation = "insert";
    event.rowCount = 1000;
    return event;
}

browse::BrowsedEvent ddlEvent(const std::string& sql) {
    browse::BrowsedEvent event;
    event.file = "mariadb-bin.000003";
    event.pos = 200;
    event.type = "QUERY_EVENT";
    event.schema = "shop";
    event.operation = "ddl";
    event.summary = sql;
    return event;
}

}  // namespace

class EventBrowserModelTest : public QObject {
    Q_OBJECT

private slots:
    void aToolsEventsSayWhatTheTaskDoesWithThem() {
        EventBrowserModel model;
        const auto copy = rowsEvent("_orders_new");
        const auto ordinary = rowsEvent("orders");
        const auto alter = ddlEvent("ALTER TABLE `_orders_new` ADD COLUMN note VARCHAR(20)");
        const auto swap = ddlEvent("RENAME TABLE `orders` TO `_orders_old`, `_orders_new` TO `orders`");
        const auto drop = ddlEvent("DROP TABLE IF EXISTS `_orders_old`");
        const auto changelog = rowsEvent("_orders_ghc");
        for (const auto* event : {&copy, &ordinary, &alter, &swap, &drop, &changelog}) {
            QVERIFY(model.onlineDdlNote(*event).isEmpty());  // online-ddl off
        }
        model.setOnlineDdlRules(std::make_shared<filter::OnlineDdlRules>());
        QCOMPARE(
            model.onlineDdlNote(copy),
            QStringLiteral("shadow table of pt-online-schema-change for `shop`.`orders`: never applied (online-ddl)"));
        QVERIFY(model.onlineDdlNote(ordinary).isEmpty());
        QVERIFY(model.onlineDdlNote(ddlEvent("ALTER TABLE orders ADD INDEX (a)")).isEmpty());
        QCOMPARE(model.onlineDdlNote(alter),
                 QStringLiteral("recorded on the shadow `shop`.`_orders_new`: runs on `shop`.`orders` at the swap "
                                "(online-ddl)"));
        QCOMPARE(model.onlineDdlNote(swap),
                 QStringLiteral("the swap of `shop`.`orders`: the DDLs recorded on `shop`.`_orders_new` run on "
                                "`shop`.`orders`; the rename is not run (online-ddl)"));
        QVERIFY2(model.onlineDdlNote(drop).contains(QStringLiteral("not run downstream")),
                 qPrintable(model.onlineDdlNote(drop)));
        QVERIFY2(model.onlineDdlNote(changelog).startsWith(QStringLiteral("trash table of gh-ost")),
                 qPrintable(model.onlineDdlNote(changelog)));

        // In the page: the note beside the table or statement, and in its tooltip.
        browse::BrowsedTransaction trx;
        trx.file = "mariadb-bin.000003";
        trx.pos = 100;
        trx.endFile = trx.file;
        trx.endPos = 900;
        trx.complete = true;
        trx.events = {copy, ordinary};
        model.setPage({trx}, std::nullopt, {});
        const QModelIndex parent = model.index(0, 0);
        const QString shown = model.index(0, EventBrowserModel::TableColumn, parent).data().toString();
        QVERIFY2(shown.startsWith(QStringLiteral("shop._orders_new  [shadow table of pt-online-schema-change")),
                 qPrintable(shown));
        QCOMPARE(model.index(1, EventBrowserModel::TableColumn, parent).data().toString(),
                 QStringLiteral("shop.orders"));
    }
};

QTEST_MAIN(EventBrowserModelTest)
#include "test_event_browser_model.moc"
