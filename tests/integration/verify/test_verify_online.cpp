// verify beside a running task under sysbench load: zero false differences. Chunks whose checksums
// differ while rows are in flight are re-read row by row, and each suspect row is confirmed with its
// upstream row locked once the task's applied point (from its control API) has passed the upstream's
// position: the lock keeps the upstream row still, the applied point says the downstream has every
// change before it, so a row that still differs really differs. A real difference injected during
// the load is still found, exactly. Rounds alternate between chunks cut by key value (sysbench's
// integer id, the default) and chunks ended by a walk of the key (--walk-keys); one walked verify
// runs under the second load as well.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include "tests/integration/outage/engine_process.h"
#include "tests/integration/outage/outage_helpers.h"
#include "tests/support/task_files.h"

using namespace syncscope::test;

namespace {

const char* const kDatabase = "verify_online";
constexpr int kTables = 4;
constexpr int kTableSize = 2000;  // small tables: many rows change while a chunk is compared
constexpr int kLoadSeconds = 20;
constexpr int kSecondLoadSeconds = 10;
constexpr int kSysbenchGraceMs = 60000;
constexpr int kCliTimeoutMs = 120000;
constexpr int kCatchUpTimeoutMs = 120000;
constexpr int kIdleAppliedTimeoutMs = 20000;
constexpr int kExitEqual = 0;
constexpr int kExitDifferent = 1;
const char* const kExtraRowId = "900000";  // outside sysbench's key range: it never touches this row

QJsonObject jsonOf(const CliResult& run) {
    return QJsonDocument::fromJson(QByteArray::fromStdString(run.out)).object();
}

struct OnlineFigures {
    int differences = 0;
    int unsettled = 0;
    int rechecked = 0;
    int inFlight = 0;
    int chunks = 0;
    int settleTimeouts = 0;  // tables whose wait for the task's applied point ran out
};

OnlineFigures figuresOf(const QJsonObject& report) {
    OnlineFigures figures;
    for (const auto& tableValue : report["tables"].toArray()) {
        QJsonObject table = tableValue.toObject();
        figures.rechecked += table["chunks_rechecked"].toInt();
        figures.chunks += table["chunks_done"].toInt();
        figures.inFlight += table["rows_in_flight"].toInt();
        for (const auto& note : table["notes"].toArray()) {
            figures.settleTimeouts += note.toString().contains("did not reach") ? 1 : 0;
        }
        for (const auto& difference : table["differences"].toArray()) {
            ++figures.differences;
            figures.unsettled += difference.toObject()["settled"].toBool() ? 0 : 1;
        }
    }
    return figures;
}

}  // namespace

class VerifyOnlineTest : public QObject {
    Q_OBJECT

private slots:
    void noFalseDifferencesUnderSysbenchAndARealOneIsFound() {
        for (const ServerSettings& server : {upstreamRoot(), downstreamRoot()}) {
            auto connection = connectTo(server);
            connection->execute("SET SESSION sql_log_bin = 0");
            connection->execute(std::string("DROP DATABASE IF EXISTS ") + kDatabase);
            connection->execute(std::string("CREATE DATABASE ") + kDatabase);
        }
        connectTo(downstreamRoot())->execute("DROP DATABASE IF EXISTS dm_meta");
        auto master = connectTo(upstreamRoot())->query("SHOW MASTER STATUS");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        TaskFileOptions options;
        options.name = "verify-online";
        options.binlogName = *master.front()[0];
        options.binlogPos = std::stoull(*master.front()[1]);
        options.multipleRows = true;
        options.instanceExtra = "    block-allow-list: \"only\"\n";
        options.topLevelExtra = std::string("block-allow-list:\n  only: {do-dbs: [\"") + kDatabase + "\"]}\n";
        TaskFiles files = writeTaskFiles(dir.path().toStdString(), options);
        QProcess prepare;
        prepare.start(QStringLiteral("sysbench"), sysbenchArgs(kDatabase, kTables, kTableSize, 0, "prepare"));
        QVERIFY2(prepare.waitForFinished(kSysbenchGraceMs * 2) && prepare.exitCode() == 0,
                 prepare.readAllStandardError().constData());
        EngineProcess engine(files.task, files.source, dir.filePath("logs").toStdString());
        QVERIFY2(engine.start(), engine.stderrText().c_str());
        std::string prepared = tableFingerprint(upstreamRoot(), kDatabase, kTables);
        QVERIFY2(waitFor([&] { return tableFingerprint(downstreamRoot(), kDatabase, kTables) == prepared; },
                         kCatchUpTimeoutMs),
                 engine.stderrText().c_str());

        QStringList loadArgs = sysbenchArgs(kDatabase, kTables, kTableSize, kLoadSeconds, "run");
        loadArgs.replaceInStrings(QRegularExpression("^--rate=.*"), "--rate=300");
        QProcess load;
        load.start(QStringLiteral("sysbench"), loadArgs);
        QVERIFY(load.waitForStarted());
        std::this_thread::sleep_for(std::chrono::seconds(2));

        const QStringList verify{"verify",
                                 QString::fromStdString(files.task),
                                 "--source",
                                 QString::fromStdString(files.source),
                                 "--json",
                                 "--control",
                                 QString("127.0.0.1:%1").arg(engine.port()),
                                 "--chunk-time",
                                 "20",
                                 "--max-threads-running",
                                 "0"};
        // Full verifies one after another for as long as the load runs, alternating key-value chunks and
        // walked ones: every one must find nothing.
        OnlineFigures total;
        OnlineFigures byMode[2];
        int rounds = 0;
        // waitForFinished also lets QProcess notice that sysbench ended (no event loop runs here).
        while (!load.waitForFinished(1)) {
            const int walked = rounds % 2;
            CliResult run = runCli(walked ? QStringList(verify) << "--walk-keys" : verify, kCliTimeoutMs);
            OnlineFigures figures = figuresOf(jsonOf(run));
            ++rounds;
            if (run.exitCode != kExitEqual || figures.differences != 0) {
                qWarning("verify round %d: exit %d\n%s\n%s", rounds, run.exitCode, run.out.c_str(), run.err.c_str());
            }
            QVERIFY2(run.exitCode == kExitEqual && figures.differences == 0, "the whole report is printed above");
            // Every row in flight was confirmed once the task's applied point passed it, not after the
            // settle time ran out (the applied point was once looked for where the status never had it).
            QVERIFY2(figures.settleTimeouts == 0, run.out.c_str());
            for (OnlineFigures* sum : {&total, &byMode[walked]}) {
                sum->rechecked += figures.rechecked;
                sum->inFlight += figures.inFlight;
                sum->chunks += figures.chunks;
            }
        }
        qInfo(
            "under load: %d full verifies, %d chunks, %d of them re-read because rows were in flight, %d rows "
            "in flight confirmed equal once applied, 0 differences (chunks by key value: %d chunks, %d re-read, %d "
            "rows; walked: %d, %d, %d)",
            rounds, total.chunks, total.rechecked, total.inFlight, byMode[0].chunks, byMode[0].rechecked,
            byMode[0].inFlight, byMode[1].chunks, byMode[1].rechecked, byMode[1].inFlight);
        // Once the upstream is idle, the applied point the control API shows reaches the upstream's end
        // (what a verify waits for before it calls a row different).
        std::string masterEnd;
        std::string appliedSeen;
        bool appliedAtEnd = waitFor(
            [&] {
                auto end = connectTo(upstreamRoot())->query("SHOW MASTER STATUS");
                masterEnd = *end.front()[0] + ":" + *end.front()[1];
                nlohmann::json status = engine.status();
                const nlohmann::json applied =
                    status.is_object() ? status.value("points", nlohmann::json()).value("applied", nlohmann::json())
                                       : nlohmann::json();
                appliedSeen = applied.is_object() ? applied.value("binlog_name", std::string()) + ":" +
                                                        std::to_string(applied.value("binlog_pos", uint64_t{0}))
                                                  : std::string("(no answer)");
                return appliedSeen == masterEnd;
            },
            kIdleAppliedTimeoutMs);
        QVERIFY2(appliedAtEnd, ("the applied point stayed at " + appliedSeen + " with the idle upstream at " +
                                masterEnd + "; read point: " + engine.status()["points"]["read"].dump())
                                   .c_str());
        // The load did put rows in flight under the comparison (else this test proved nothing).
        QVERIFY2(total.rechecked > 0, "no chunk ever differed while rows were in flight: the load was too light");
        QVERIFY2(load.exitCode() == 0, load.readAllStandardError().constData());
        QStringList secondLoad = loadArgs;
        secondLoad.replaceInStrings(QRegularExpression("^--time=.*"), QString("--time=%1").arg(kSecondLoadSeconds));
        load.start(QStringLiteral("sysbench"), secondLoad);  // load again for the checks below
        QVERIFY(load.waitForStarted());

        // Without waiting for the task (settle time 0) in-flight rows show up as unsettled: what the
        // wait for the applied point removes. Not asserted: it depends on the timing of the load.
        CliResult hasty = runCli(QStringList(verify) << "--settle-seconds"
                                                     << "0",
                                 kCliTimeoutMs);
        qInfo("with --settle-seconds 0: %d unsettled differences", figuresOf(jsonOf(hasty)).unsettled);

        // Chunks ended by a walk of the key (the way for other keys) under the same load: nothing either.
        CliResult walkedRun = runCli(QStringList(verify) << "--walk-keys", kCliTimeoutMs);
        OnlineFigures walkedFigures = figuresOf(jsonOf(walkedRun));
        QVERIFY2(walkedRun.exitCode == kExitEqual && walkedFigures.differences == 0,
                 (walkedRun.out + walkedRun.err).c_str());
        qInfo("walked under the second load: %d chunks, %d re-read, %d rows in flight, 0 differences",
              walkedFigures.chunks, walkedFigures.rechecked, walkedFigures.inFlight);

        // A real difference made during the load is found, and nothing else.
        connectTo(downstreamRoot())
            ->execute(std::string("INSERT INTO ") + kDatabase + ".sbtest2 (id, k, c, pad) VALUES (" + kExtraRowId +
                      ", 1, 'extra', 'extra')");
        CliResult real = runCli(verify, kCliTimeoutMs);
        QVERIFY2(real.exitCode == kExitDifferent, (real.out + real.err).c_str());
        QJsonObject report = jsonOf(real);
        QCOMPARE(figuresOf(report).differences, 1);
        for (const auto& tableValue : report["tables"].toArray()) {
            QJsonObject table = tableValue.toObject();
            if (!table["differences"].toArray().isEmpty()) {
                QCOMPARE(table["downstream"].toString(), QString("verify_online.sbtest2"));
                QJsonObject difference = table["differences"].toArray().first().toObject();
                QCOMPARE(difference["kind"].toString(), QString("extra"));
                QCOMPARE(difference["key"].toObject()["id"].toString(), QString(kExtraRowId));
            }
        }
        QVERIFY(load.waitForFinished(kSecondLoadSeconds * 1000 + kSysbenchGraceMs));
        QVERIFY2(load.exitCode() == 0, load.readAllStandardError().constData());
        QCOMPARE(engine.terminate(), 0);
    }
};

QTEST_GUILESS_MAIN(VerifyOnlineTest)
#include "test_verify_online.moc"
