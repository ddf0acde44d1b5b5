// The task's shard DDL locks (engine/task/shard_ddl_locks.h), without servers: a DDL waits until every shard table
// of its group has read it, the arrival that completes the lock runs it, the lock is kept in the ledger before any
// source passes it and goes once every arrival is passed; an arrival read again after it ran is passed over (also
// from the ledger after a restart); different DDLs are a conflict naming both shards; the status names who arrived
// and who is waited for.
#include <QtTest>

#include "engine/task/shard_ddl_locks.h"

using namespace syncscope;
using namespace syncscope::task;

namespace {

class MemoryLedger : public ShardLockLedger {
public:
    std::vector<ExecutedShardLock> kept;
    std::vector<ExecutedShardLock> load() override { return kept; }
    void record(const ExecutedShardLock& lock) override { kept.push_back(lock); }
    std::vector<ShardLockView> waiting;
    void keepWaiting(const ShardLockView& lock) override { waiting.push_back(lock); }
    void remove(const ExecutedShardLock& lock) override {
        std::erase_if(kept, [&](const ExecutedShardLock& k) {
            return k.target == lock.target && k.arrivals.front().position == lock.arrivals.front().position;
        });
    }
};

const TableName kTarget{"sm", "t"};
const ShardTable kA{"first", {"sm_1", "t"}};
const ShardTable kB{"first", {"sm_2", "t"}};
const ShardTable kC{"second", {"sm_3", "t"}};
const std::vector<std::string> kAdd{"ALTER TABLE `sm`.`t` ADD COLUMN c INT"};

binlog::Location at(uint64_t pos) {
    return binlog::Location(binlog::BinlogPosition("bin.000001", pos));
}

std::vector<ShardGroup> groups() {
    return {{kTarget, {kA, kB, kC}}};
}

using Kind = ShardDdlLocks::Verdict::Kind;

// Whether `shard` waits in a lock that has not run, as the status shows it.
bool waits(const ShardDdlLocks& locks, const ShardTable& shard) {
    for (const ShardLockView& lock : locks.view()) {
        for (const ShardArrival& arrival : lock.arrived) {
            if (!lock.executed && arrival.shard == shard) {
                return true;
            }
        }
    }
    return false;
}

class TestShardDdlLocks : public QObject {
    Q_OBJECT

private slots:
    void theLastArrivalRunsItAndTheLockGoesOnceEveryArrivalIsPassed() {
        auto ledger = std::make_shared<MemoryLedger>();
        ShardDdlLocks locks("t", groups(), ledger);
        QCOMPARE(locks.targetOf("first", {"sm_2", "t"}), std::optional<TableName>(kTarget));
        QCOMPARE(locks.targetOf("second", {"sm_2", "t"}), std::optional<TableName>());

        QVERIFY(locks.arrive(kA, kTarget, kAdd, at(100)).kind == Kind::Wait);
        QCOMPARE(ledger->waiting.size(), size_t{1});
        QCOMPARE(ledger->waiting.back().waitingFor.size(), size_t{2});
        QVERIFY(waits(locks, kA));
        QVERIFY(!waits(locks, kB));
        // Read again (a restart of its source): the same arrival, still waiting.
        QVERIFY(locks.arrive(kA, kTarget, kAdd, at(100)).kind == Kind::Wait);
        // The same DDL written differently (case, spaces) is the same DDL.
        QVERIFY(locks.arrive(kC, kTarget, {"alter  table `sm`.`t`\n add column C int;"}, at(50)).kind == Kind::Wait);
        std::vector<ShardLockStatus> status = shardLockStatus(locks.view());
        QCOMPARE(status.size(), size_t{1});
        QCOMPARE(status[0].arrived.size(), size_t{2});
        QCOMPARE(status[0].waitingFor.size(), size_t{1});
        QCOMPARE(status[0].waitingFor[0].table, kB.table);
        QVERIFY(!status[0].ranDownstream);

        const uint64_t before = locks.version();
        QVERIFY(locks.arrive(kB, kTarget, kAdd, at(300)).kind == Kind::Execute);
        QVERIFY(ledger->kept.empty());
        locks.executed(kTarget);
        QVERIFY(locks.version() != before);
        QCOMPARE(ledger->kept.size(), size_t{1});
        QCOMPARE(ledger->kept[0].arrivals.size(), size_t{3});
        QVERIFY(!waits(locks, kA));
        QCOMPARE(locks.executedArrivalsOf("first").size(), size_t{2});
        QCOMPARE(locks.executedArrivalsOf("second").size(), size_t{1});
        QVERIFY(shardLockStatus(locks.view())[0].ranDownstream);

        // Read again before its source passed it: passed over.
        QVERIFY(locks.arrive(kC, kTarget, kAdd, at(50)).kind == Kind::Done);
        locks.passed(kA, at(100).toString());
        locks.passed(kB, at(300).toString());
        QCOMPARE(locks.executedArrivalsOf("first").size(), size_t{0});
        QCOMPARE(ledger->kept.size(), size_t{1});
        locks.passed(kC, at(50).toString());
        QVERIFY(ledger->kept.empty());
        QVERIFY(locks.view().empty());
    }

    void aLockThatRanIsPassedOverAfterARestartFromTheLedger() {
        auto ledger = std::make_shared<MemoryLedger>();
        {
            ShardDdlLocks locks("t", groups(), ledger);
            locks.arrive(kA, kTarget, kAdd, at(100));
            locks.arrive(kB, kTarget, kAdd, at(300));
            QVERIFY(locks.arrive(kC, kTarget, kAdd, at(50)).kind == Kind::Execute);
            locks.executed(kTarget);
            locks.passed(kC, at(50).toString());
        }
        // A kill: a new process reads the ledger; the arrivals read again are passed over, never run twice.
        ShardDdlLocks again("t", groups(), ledger);
        QCOMPARE(again.view().size(), size_t{1});
        QVERIFY(again.arrive(kA, kTarget, kAdd, at(100)).kind == Kind::Done);
        QVERIFY(again.arrive(kB, kTarget, kAdd, at(300)).kind == Kind::Done);
        // Arrivals kept only in the ledger are not handed out until read again with their point.
        QCOMPARE(again.executedArrivalsOf("second").size(), size_t{0});
        QCOMPARE(again.executedArrivalsOf("first").size(), size_t{2});
        again.passed(kA, at(100).toString());
        again.passed(kB, at(300).toString());
        again.passed(kC, at(50).toString());  // its table point covered it when read again
        QVERIFY(ledger->kept.empty());
        // A later DDL at another point is a new lock, not a repeat.
        QVERIFY(again.arrive(kA, kTarget, kAdd, at(900)).kind == Kind::Wait);
    }

    void differentDdlsAreAConflictNamingBothShards() {
        ShardDdlLocks locks("t", groups(), nullptr);
        QVERIFY(locks.arrive(kA, kTarget, kAdd, at(100)).kind == Kind::Wait);
        ShardDdlLocks::Verdict verdict = locks.arrive(kC, kTarget, {"ALTER TABLE `sm`.`t` ADD COLUMN d INT"}, at(70));
        QVERIFY(verdict.kind == Kind::Conflict);
        QVERIFY2(verdict.reason.find("second:sm_3.t") != std::string::npos &&
                     verdict.reason.find("first:sm_1.t") != std::string::npos &&
                     verdict.reason.find("ADD COLUMN d") != std::string::npos,
                 verdict.reason.c_str());
        // The conflict changed nothing: the lock still waits for sm_2 and sm_3.
        QCOMPARE(shardLockStatus(locks.view())[0].waitingFor.size(), size_t{2});
    }

    void comparableDdlFoldsOutsideQuotesOnly() {
        QCOMPARE(comparableDdl("ALTER  TABLE t\tADD c INT DEFAULT 'Ab  C';"),
                 std::string("alter table t add c int default 'Ab  C'"));
    }
};

}  // namespace

QTEST_GUILESS_MAIN(TestShardDdlLocks)
#include "test_shard_ddl_locks.moc"
