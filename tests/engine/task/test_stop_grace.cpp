// How a pause or stop ends the reading (engine/task/stop_grace.h), and the DBA's skip of one transaction
// (engine/task/transaction_skip.h), each alone: no stream is open, so a cut is seen on the reader.
#include <QtTest>

#include <atomic>

#include "engine/task/stop_grace.h"
#include "engine/task/stream_reader.h"
#include "engine/task/transaction_skip.h"

using namespace syncscope;
using binlog::BinlogPosition;
using task::StopGrace;
using task::StreamReader;
using task::TransactionSkip;

namespace {

const BinlogPosition kStart("mariadb-bin.000001", 400);

}  // namespace

class StopGraceTest : public QObject {
    Q_OBJECT

private slots:
    void noRequestKeepsReading() {
        StreamReader reader("t");
        StopGrace grace("t", reader);
        std::atomic<bool> interrupt{false};
        QVERIFY(grace.keepsReading(interrupt, false, kStart));
        QVERIFY(grace.keepsReading(interrupt, true, kStart));
        QVERIFY(grace.mayOpenTransaction(interrupt));
    }

    // Between transactions a request cuts the stream at once and the reader stops.
    void aRequestBetweenTransactionsCutsAtOnce() {
        StreamReader reader("t");
        StopGrace grace("t", reader);
        std::atomic<bool> interrupt{false};
        grace.transactionOpen(false);
        grace.request();
        QVERIFY(reader.wasCut());
        QVERIFY(!grace.keepsReading(interrupt, false, kStart));
        QVERIFY(!grace.mayOpenTransaction(interrupt));  // no new transaction begins
    }

    // Inside a transaction the first request lets the reader finish it; a second one cuts.
    void aRequestInsideATransactionWaitsForItsEnd() {
        StreamReader reader("t");
        StopGrace grace("t", reader);
        std::atomic<bool> interrupt{false};
        QVERIFY(grace.mayOpenTransaction(interrupt));
        grace.request();
        QVERIFY(!reader.wasCut());
        QVERIFY(grace.keepsReading(interrupt, true, kStart));    // within the grace
        QVERIFY(!grace.keepsReading(interrupt, false, kStart));  // the transaction ended: stop there
        grace.request();
        QVERIFY(reader.wasCut());
        QVERIFY(!grace.keepsReading(interrupt, true, kStart));  // cut: inside it or not, the reader stops
    }

    // The task's own interrupt (a stop of the whole task) counts as a request.
    void theTasksInterruptCountsAsARequest() {
        StreamReader reader("t");
        StopGrace grace("t", reader);
        std::atomic<bool> interrupt{true};
        QVERIFY(!grace.mayOpenTransaction(interrupt));
        QVERIFY(!grace.keepsReading(interrupt, false, kStart));
        QVERIFY(grace.keepsReading(interrupt, true, kStart));
    }

    void onlyTheRequestedTransactionIsSkippedOnce() {
        TransactionSkip skip("t");
        skip.transactionOpened(kStart);
        QVERIFY(!skip.skipping());  // nothing asked
        skip.ask(task::SkipRequest{kStart});
        skip.transactionOpened(BinlogPosition("mariadb-bin.000001", 100));
        QVERIFY(!skip.skipping());
        skip.transactionEnded();
        skip.transactionOpened(kStart);
        QVERIFY(skip.skipping());
        skip.transactionEnded();
        QVERIFY(!skip.skipping());
        skip.transactionOpened(kStart);  // read again (a later replay): the request is spent
        QVERIFY(!skip.skipping());
    }
};

QTEST_GUILESS_MAIN(StopGraceTest)
#include "test_stop_grace.moc"
