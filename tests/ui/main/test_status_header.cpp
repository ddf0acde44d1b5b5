// The status header while the binlog connection is lost and resumed in place: the line under the task's
// name says "Reconnecting to the upstream, attempt N" with the last error, in the warning colour, and
// goes back to the stage's reason once the stream reads again. Saved as a screenshot at 1280 px.
#include <QtTest>

#include <QLabel>

#include "tests/support/test_env.h"
#include "ui/pages/status_header.h"

using namespace syncscope;
using namespace syncscope::ui;

namespace {

std::shared_ptr<task::StatusSnapshot> running() {
    auto snapshot = std::make_shared<task::StatusSnapshot>();
    snapshot->taskName = "orders";
    snapshot->sourceId = "mysql-01";
    snapshot->stage = task::Stage::Running;
    snapshot->stageReason = "replicating";
    snapshot->takenAt = task::Clock::now();
    snapshot->globalPersisted = {"mariadb-bin.000003", 4711, {}, {}};
    return snapshot;
}

}  // namespace

class StatusHeaderTest : public QObject {
    Q_OBJECT

private slots:
    void howFarBehindAndWhichTablesAreAheadReadAtAGlance() {
        StatusHeader header;
        auto snapshot = running();
        snapshot->read = {"mariadb-bin.000003", 9000, {}, {}};
        snapshot->catchUp.behindBytes = 3 * 1024 * 1024 / 2;
        snapshot->readQueueDepth = 300;
        snapshot->workerQueueDepths = {20, 20};
        header.setSnapshot(snapshot);
        QCOMPARE(header.behindText(), QStringLiteral("1.5 MiB, 340 rows queued"));
        QCOMPARE(header.aheadText(), QStringLiteral("none"));
        QVERIFY(header.aheadDetails().contains(QStringLiteral("skips nothing")));
        for (const auto& [name, bytes, events] : {std::tuple{"t1", 2400, 12}, std::tuple{"t8", 1200000, 340}}) {
            task::TablePointView table;
            table.schema = "shop";
            table.table = name;
            table.aheadOfGlobal = true;
            table.bytesFromGlobal = bytes;
            table.eventsFromGlobal = uint64_t(events);
            table.persisted = {"mariadb-bin.000003", 4711 + uint64_t(bytes), {}, {}};
            snapshot->tables.push_back(table);
        }
        header.setSnapshot(snapshot);
        // How many, and the farthest ahead; the details list what a resume would skip.
        QCOMPARE(header.aheadText(), QStringLiteral("2 tables, shop.t8 +1.1 MiB"));
        const QString details = header.aheadDetails();
        QVERIFY2(details.contains(QStringLiteral("shop.t8: 340 events, up to mariadb-bin.000003:1204711")),
                 qPrintable(details));
        QVERIFY2(details.contains(QStringLiteral("shop.t1: 12 events")), qPrintable(details));
        // Safe mode names the end of the window it is in, and has none when the task asks for it throughout.
        snapshot->safeMode = true;
        snapshot->safeModeUntil = {"mariadb-bin.000003", 8000, {}, {}};
        snapshot->exitSafe = {"mariadb-bin.000003", 67117576, {}, {}};
        header.setSnapshot(snapshot);
        QCOMPARE(header.safeModeText(), QStringLiteral("on until mariadb-bin.000003:8000"));
        snapshot->safeModeUntil = {};
        header.setSnapshot(snapshot);
        QCOMPARE(header.safeModeText(), QStringLiteral("on"));
    }

    void aLostStreamShowsItsReconnectAttempts() {
        StatusHeader header;
        header.resize(1280, header.sizeHint().height());
        header.show();
        QVERIFY(QTest::qWaitForWindowExposed(&header));

        auto first = running();
        first->stream.reconnecting = true;
        first->stream.attempt = 1;
        first->stream.lastCut = "lost at mariadb-bin.000003:4711: Lost connection to server during query [2013]";
        header.setSnapshot(first);
        QVERIFY2(header.reasonText().startsWith(QStringLiteral("Reconnecting to the upstream, attempt 1 (lost at "
                                                               "mariadb-bin.000003:4711")),
                 qPrintable(header.reasonText()));

        auto third = running();
        third->stream.reconnecting = true;
        third->stream.attempt = 3;
        third->stream.lastError = "Can't connect to server on '127.0.0.1' (111) [2002]";
        header.setSnapshot(third);
        QCOMPARE(header.reasonText(), QStringLiteral("Reconnecting to the upstream, attempt 3; last error: Can't "
                                                     "connect to server on '127.0.0.1' (111) [2002]"));
        QVERIFY(header.grab().save(QString::fromStdString(syncscope::test::outputDir("ui")) +
                                   "/status_header_reconnecting.png"));

        auto back = running();
        back->stream.reconnects = 3;
        header.setSnapshot(back);
        QCOMPARE(header.reasonText(), QStringLiteral("replicating"));
    }

    // A start that failed before anything was read (a wrong upstream password): lag, rates and
    // transactions are unknown, not 'Lag 0.0 s' and 'Transactions 0 of 1'.
    void aFailedStartShowsNoFiguresItNeverHad() {
        StatusHeader header;
        auto failed = std::make_shared<task::StatusSnapshot>();
        failed->taskName = "demo";
        failed->stage = task::Stage::Error;
        failed->lastError = "upstream 127.0.0.1:3307: Access denied for user 'repl'@'localhost' [1045]";
        failed->takenAt = task::Clock::now();
        failed->applyConcurrency.busy = 0;
        failed->applyConcurrency.allowed = 1;
        failed->applyConcurrency.ceiling = 16;
        header.setSnapshot(failed);
        QCOMPARE(header.lagText(), QStringLiteral("-"));
        QCOMPARE(header.rowsText(), QStringLiteral("-"));
        QCOMPARE(header.workersText(), QStringLiteral("-"));
        QVERIFY2(header.reasonText().contains(QStringLiteral("Access denied")), qPrintable(header.reasonText()));

        auto running = std::make_shared<task::StatusSnapshot>(*failed);  // once it reads, the figures show
        running->stage = task::Stage::Paused;
        running->read = {"mariadb-bin.000001", 400, {}, {}};
        header.setSnapshot(running);
        QCOMPARE(header.workersText(), QStringLiteral("0 of 1 (max 16)"));
        QVERIFY(header.lagText() != QStringLiteral("-"));

        auto idle = std::make_shared<task::StatusSnapshot>(*failed);  // running, caught up, nothing read yet
        idle->stage = task::Stage::Running;
        header.setSnapshot(idle);
        QVERIFY2(header.lagText().startsWith(QStringLiteral("0")), qPrintable(header.lagText()));
    }
};

QTEST_MAIN(StatusHeaderTest)
#include "test_status_header.moc"
