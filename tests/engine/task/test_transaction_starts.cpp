// TransactionStarts: the failed transaction's start, by number, across files and after flushes.
#include <QtTest>

#include <map>
#include <optional>
#include <random>

#include "engine/task/transaction_starts.h"

using syncscope::binlog::BinlogPosition;
using syncscope::task::TransactionStarts;

class TransactionStartsTest : public QObject {
    Q_OBJECT

private slots:
    void findsEachStartAcrossFiles() {
        TransactionStarts starts;
        starts.record(1, BinlogPosition("mariadb-bin.000001", 4));
        starts.record(2, BinlogPosition("mariadb-bin.000001", 900));
        starts.record(5, BinlogPosition("mariadb-bin.000002", 4));
        starts.record(6, BinlogPosition("mariadb-bin.000002", 256));
        QCOMPARE(starts.find(1), std::optional(BinlogPosition("mariadb-bin.000001", 4)));
        QCOMPARE(starts.find(2), std::optional(BinlogPosition("mariadb-bin.000001", 900)));
        QCOMPARE(starts.find(5), std::optional(BinlogPosition("mariadb-bin.000002", 4)));
        QCOMPARE(starts.find(6), std::optional(BinlogPosition("mariadb-bin.000002", 256)));
        QVERIFY(!starts.find(3));  // never recorded
        QVERIFY(!starts.find(0));
        QVERIFY(!starts.find(7));
    }

    void forgetsOnlyWhatTheFlushCovered() {
        TransactionStarts starts;
        for (uint64_t seq = 1; seq <= 10; ++seq) {
            starts.record(seq, BinlogPosition(seq <= 4 ? "mariadb-bin.000007" : "mariadb-bin.000008", seq * 100));
        }
        starts.forgetBefore(6);
        QCOMPARE(starts.size(), size_t(5));
        QVERIFY(!starts.find(5));
        QCOMPARE(starts.find(6), std::optional(BinlogPosition("mariadb-bin.000008", 600)));
        QCOMPARE(starts.find(10), std::optional(BinlogPosition("mariadb-bin.000008", 1000)));
        starts.forgetBefore(11);  // all committed
        QCOMPARE(starts.size(), size_t(0));
        // The file's name is kept for the next transaction, and a new file still gets its own name.
        starts.record(11, BinlogPosition("mariadb-bin.000008", 1100));
        starts.record(12, BinlogPosition("mariadb-bin.000009", 4));
        QCOMPARE(starts.find(11), std::optional(BinlogPosition("mariadb-bin.000008", 1100)));
        QCOMPARE(starts.find(12), std::optional(BinlogPosition("mariadb-bin.000009", 4)));
        starts.forgetBefore(12);
        QCOMPARE(starts.find(12), std::optional(BinlogPosition("mariadb-bin.000009", 4)));
    }

    // A number at or below the last one (a session that counts again) replaces the entries from it on.
    void aRepeatedNumberReplacesTheLaterEntries() {
        TransactionStarts starts;
        starts.record(1, BinlogPosition("mariadb-bin.000001", 4));
        starts.record(2, BinlogPosition("mariadb-bin.000001", 500));
        starts.record(3, BinlogPosition("mariadb-bin.000001", 900));
        starts.record(2, BinlogPosition("mariadb-bin.000002", 4));
        QCOMPARE(starts.size(), size_t(2));
        QCOMPARE(starts.find(1), std::optional(BinlogPosition("mariadb-bin.000001", 4)));
        QCOMPARE(starts.find(2), std::optional(BinlogPosition("mariadb-bin.000002", 4)));
        QVERIFY(!starts.find(3));
    }

    // The same answers as a map over a long random run with flushes in between (the structure it replaces).
    void agreesWithAMapOverARandomRun() {
        TransactionStarts starts;
        std::map<uint64_t, BinlogPosition> model;
        std::mt19937_64 random(20261203);
        uint64_t file = 1, offset = 4;
        for (uint64_t seq = 1; seq <= 20000; ++seq) {
            if (random() % 500 == 0) {
                ++file;
                offset = 4;
            }
            offset += 1 + random() % 1000;
            BinlogPosition at("mariadb-bin." + QString::number(file).rightJustified(6, '0').toStdString(), offset);
            starts.record(seq, at);
            model[seq] = at;
            if (random() % 300 == 0) {
                uint64_t flushed = seq - random() % 50;
                starts.forgetBefore(flushed);
                model.erase(model.begin(), model.lower_bound(flushed));
            }
            uint64_t probe = 1 + random() % seq;
            auto expected = model.find(probe);
            auto got = starts.find(probe);
            QCOMPARE(bool(got), expected != model.end());
            if (got) {
                QCOMPARE(*got, expected->second);
            }
        }
        QCOMPARE(starts.size(), model.size());
    }
};

QTEST_GUILESS_MAIN(TransactionStartsTest)
#include "test_transaction_starts.moc"
