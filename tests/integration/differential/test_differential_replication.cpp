// docs/design.md invariant 11: MariaDB's own replica is the oracle. A few fixed seeds of the differential
// generator (random schema, workload and faults against `syncscope-cli run`), restricted to the
// features the engine handles today (stableFeatures()), must leave every table of our downstream equal
// to the native replica's, with the checkpoint invariants holding at every fault and after the final
// graceful stop. A failing row prints the seed, the workload and the replay command.
#include <QProcess>
#include <QtTest>

#include "tests/integration/differential/case_report.h"
#include "tests/integration/differential/case_runner.h"
#include "tests/support/test_env.h"

using namespace syncscope::differential;

namespace {

constexpr int kScriptTimeoutMs = 120000;

bool dbpair(const QString& command, QString* output) {
    QProcess script;
    script.setProcessChannelMode(QProcess::MergedChannels);
    script.start(QStringLiteral(SYNCSCOPE_SOURCE_DIR "/scripts/dbpair"), {command});
    bool ok = script.waitForFinished(kScriptTimeoutMs) && script.exitStatus() == QProcess::NormalExit &&
              script.exitCode() == 0;
    *output = QString::fromUtf8(script.readAll());
    return ok;
}

}  // namespace

class DifferentialReplicationTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QString output;
        QVERIFY2(dbpair(QStringLiteral("start-replica"), &output), qPrintable(output));
    }

    void cleanupTestCase() {
        QString output;
        QVERIFY2(dbpair(QStringLiteral("stop-replica"), &output), qPrintable(output));
    }

    void downstreamEqualsNativeReplica_data() {
        QTest::addColumn<qulonglong>("seed");
        QTest::addColumn<QString>("features");
        // Seeds chosen to cover both modes, kills, API stop/start and pause, a downstream restart and a cut
        // stream, with and without multiple-rows (the summary line of each is printed).
        QTest::addRow("position_mode_seed_101") << qulonglong(101) << QStringLiteral("stable,-gtid");
        QTest::addRow("position_mode_seed_102") << qulonglong(102) << QStringLiteral("stable,-gtid");
        QTest::addRow("gtid_or_position_seed_103") << qulonglong(103) << QStringLiteral("stable");
        QTest::addRow("gtid_or_position_seed_104") << qulonglong(104) << QStringLiteral("stable");
        // Keyless tables with SIGKILLs, cut streams and downstream restarts: replays that only the applied
        // marks keep from doubling rows (engine/apply/applied_marks.h); and without faults.
        QTest::addRow("keyless_tables_with_faults_seed_107") << qulonglong(107) << QStringLiteral("stable,no-key");
        // Shard merge (three shard tables routed into one, compared as the union of the replica's shards): DDL
        // sequences reaching the shards between faults, in both shard modes (seeds of clean soaks with 5 faults).
        QTest::addRow("shard_merge_pessimistic_seed_610003")
            << qulonglong(610003) << QStringLiteral("stable,shard-merge");
        QTest::addRow("shard_merge_optimistic_seed_600009")
            << qulonglong(600009) << QStringLiteral("stable,shard-optimistic");
        QTest::addRow("keyless_tables_no_faults_seed_105")
            << qulonglong(105)
            << QStringLiteral(
                   "stable,no-key,-kill,-dump-cut,-downstream-restart,"
                   "-resume-from,-resume-from-earlier,-stop-start,-pause-resume,-safe-mode");
    }

    void downstreamEqualsNativeReplica() {
        QFETCH(qulonglong, seed);
        QFETCH(QString, features);
        WorkloadSize size;
        size.minSteps = 40;
        size.maxSteps = 70;
        size.maxFaults = 3;
        CaseSpec spec = generateCase(seed, parseFeatures(features.toStdString()), size);
        qInfo("seed %llu: %s", seed, caseSummary(spec).c_str());
        RunOptions options;
        options.workDir = syncscope::test::outputDir("differential") + "/seed-" + std::to_string(seed);
        options.catchUpSeconds = 90;
        options.catchUpCapSeconds = 600;
        CaseOutcome outcome = runCase(spec, {}, options);
        QVERIFY2(outcome.oracleProblem.empty(), outcome.oracleProblem.c_str());
        qInfo("  %d steps (%d refused upstream), %d faults, %.0f s", outcome.stepsRun, outcome.stepsFailedUpstream,
              outcome.faults, outcome.seconds);
        QVERIFY2(outcome.passed(), divergenceReport(spec, {}, outcome, 0, "this build").c_str());
    }
};

QTEST_GUILESS_MAIN(DifferentialReplicationTest)
#include "test_differential_replication.moc"
