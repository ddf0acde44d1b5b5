// DM's mydumpers / loaders sections drive a real load through `syncscope-cli run` (no SYNCSCOPE_LOAD_*
// in the environment): mydumper threads and loader pool-size give the workers (the smaller), rows the
// chunks, statement-size the INSERTs; and loaders' on-duplicate-logical decides what a row the target
// already holds becomes: replace when unset (DM's default) or set (the upstream's row), error (stops, naming the key
// to set), ignore (the target's row), with each load method; every rule names the targets that held rows.
#include <QtTest>

#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>

#include "engine/source/upstream_connection.h"
#include "tests/integration/load/load_fixture.h"
#include "tests/support/test_env.h"

using syncscope::source::UpstreamConnection;

namespace {

constexpr int kRows = 3000;
constexpr int kDuplicateRows = 300;
constexpr int kRunTimeoutMs = 120000;
constexpr const char* kChangedItem = "17";  // a loadsrc.items id changed downstream between two loads

UpstreamConnection upstreamRoot() {
    return UpstreamConnection(syncscope::test::engineSettings(syncscope::test::upstreamRoot()));
}
UpstreamConnection downstreamRoot() {
    return UpstreamConnection(syncscope::test::engineSettings(syncscope::test::downstreamRoot()));
}

struct RunResult {
    int exitCode = -1;
    QString errors;
};

// The task file alone tunes the load: SYNCSCOPE_LOAD_* are removed from the environment (the method
// too, unless given).
RunResult runToEnd(const syncscope::test::TaskFiles& files, const QString& logDir, const QString& loadMethod = {},
                   const QStringList& extra = {}) {
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"SYNCSCOPE_LOAD_THREADS", "SYNCSCOPE_LOAD_CHUNK_ROWS", "SYNCSCOPE_LOAD_METHOD"}) {
        environment.remove(QString::fromLatin1(name));
    }
    if (!loadMethod.isEmpty()) {
        environment.insert(QStringLiteral("SYNCSCOPE_LOAD_METHOD"), loadMethod);
    }
    QProcess run;
    run.setProcessEnvironment(environment);
    run.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"),
              QStringList{QStringLiteral("run"), QString::fromStdString(files.task), QStringLiteral("--source"),
                          QString::fromStdString(files.source), QStringLiteral("--log-dir"), logDir} +
                  extra);
    RunResult result;
    if (!run.waitForFinished(kRunTimeoutMs)) {
        run.kill();
        run.waitForFinished();
        result.errors = QStringLiteral("timed out: ") + QString::fromUtf8(run.readAllStandardError().right(3000));
        return result;
    }
    result.exitCode = run.exitCode();
    result.errors = QString::fromUtf8(run.readAllStandardError());
    return result;
}

uint64_t insertsSoFar(UpstreamConnection& down) {
    auto rows = down.query("SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_insert', 'Com_replace')");
    uint64_t total = 0;
    for (const auto& row : rows) {
        total += std::stoull(row[1].value_or("0"));
    }
    return total;
}

// Loads the data set with the task's extra instance and top-level YAML; returns the INSERT and
// REPLACE statements the target ran meanwhile.
uint64_t loadWith(const std::string& instanceExtra, const std::string& topLevelExtra, QString& errors) {
    UpstreamConnection up = upstreamRoot();
    UpstreamConnection down = downstreamRoot();
    syncscope::test::createLoadSource(up, down, kRows);
    auto options = syncscope::test::loadTaskOptions("load-sections", "full");
    options.instanceExtra += instanceExtra;
    options.topLevelExtra += topLevelExtra;
    QTemporaryDir dir;
    auto files = syncscope::test::writeTaskFiles(dir.path().toStdString(), options);
    uint64_t before = insertsSoFar(down);
    RunResult run = runToEnd(files, dir.filePath(QStringLiteral("logs")));
    errors = run.errors;
    if (run.exitCode != 0) {
        errors = QStringLiteral("exit %1: ").arg(run.exitCode) + errors.right(3000);
        return 0;
    }
    if (syncscope::test::tableChecksums(down, false) != syncscope::test::tableChecksums(up, true)) {
        errors = QStringLiteral("not equal after the load: ") + errors.right(3000);
        return 0;
    }
    return insertsSoFar(down) - before;
}

}  // namespace

class LoadTaskSectionsTest : public QObject {
    Q_OBJECT

private slots:
    void mydumperAndLoaderSectionsTuneTheLoad() {
        QString errors;
        uint64_t small = loadWith("    mydumper-config-name: \"dump\"\n    loader: {pool-size: 2}\n",
                                  "mydumpers:\n  dump: {threads: 3, rows: 700, statement-size: 4096}\n", errors);
        QVERIFY2(small > 0, qPrintable(errors));
        // Two workers: pool-size 2 is smaller than threads 3.
        QVERIFY2(errors.contains(QStringLiteral("for 2 connections")), qPrintable(errors.right(3000)));
        QVERIFY2(errors.contains(QStringLiteral("chunks of about 700 rows")), qPrintable(errors.right(3000)));
        // rows 700: the composite key is walked 700 rows at a time, so 3000 rows make exactly 5 chunks.
        UpstreamConnection down = downstreamRoot();
        QCOMPARE(down.queryValue("SELECT COUNT(*) FROM dm_meta.`load-sections_loader_checkpoint` WHERE cp_table = "
                                 "'pairs'"),
                 std::optional<std::string>("5"));

        // Without statement-size one INSERT takes a whole chunk (4 MiB), so far fewer statements ran.
        uint64_t whole =
            loadWith("    mydumper-config-name: \"dump\"\n", "mydumpers:\n  dump: {threads: 3, rows: 700}\n", errors);
        QVERIFY2(whole > 0, qPrintable(errors));
        QVERIFY2(errors.contains(QStringLiteral("for 3 connections")), qPrintable(errors.right(3000)));
        QVERIFY2(small > 5 * whole,
                 qPrintable(QStringLiteral("statement-size 4096: %1 INSERTs, default: %2").arg(small).arg(whole)));
    }

    void onDuplicateDecidesWhatATargetRowBecomes_data() {
        QTest::addColumn<QString>("rule");
        QTest::addColumn<QString>("loadMethod");
        for (const char* method : {"prepared", "insert", "load-data"}) {
            for (const char* rule : {"", "error", "replace", "ignore"}) {
                QTest::addRow("%s_%s", *rule ? rule : "unset_is_replace_as_in_dm", method) << rule << method;
            }
        }
    }

    void onDuplicateDecidesWhatATargetRowBecomes() {
        QFETCH(QString, rule);
        QFETCH(QString, loadMethod);
        UpstreamConnection up = upstreamRoot();
        UpstreamConnection down = downstreamRoot();
        syncscope::test::createLoadSource(up, down, kDuplicateRows);
        auto options = syncscope::test::loadTaskOptions("load-duplicates", "full");
        if (!rule.isEmpty()) {
            options.instanceExtra += "    loader: {on-duplicate-logical: " + rule.toStdString() + "}\n";
        }
        QTemporaryDir dir;
        auto files = syncscope::test::writeTaskFiles(dir.path().toStdString(), options);
        RunResult first = runToEnd(files, dir.filePath(QStringLiteral("logs")), loadMethod);
        QVERIFY2(first.exitCode == 0, qPrintable(first.errors.right(3000)));
        const std::string upstream = syncscope::test::tableChecksums(up, true);
        QCOMPARE(syncscope::test::tableChecksums(down, false), upstream);

        // The target now holds every keyed row, one of them changed; the table without a key is emptied
        // (it has no key to find a duplicate by). A second load from scratch meets the duplicates.
        down.execute(std::string("UPDATE loaddst.items_copy SET name = 'target-only' WHERE id = ") + kChangedItem);
        down.execute("TRUNCATE TABLE loaddst.nokey");
        RunResult second =
            runToEnd(files, dir.filePath(QStringLiteral("logs")), loadMethod, {QStringLiteral("--remove-meta")});
        const auto changedName = [&] {
            return down.queryValue(std::string("SELECT name FROM loaddst.items_copy WHERE id = ") + kChangedItem);
        };
        // Whatever the rule, the DBA is told which targets held rows before the load.
        QVERIFY2(second.errors.contains(QStringLiteral("target tables already hold rows before the load: "
                                                       "`loaddst`.`items_copy`, `loaddst`.`pairs`.")),
                 qPrintable(second.errors.right(3000)));
        if (rule == QStringLiteral("error")) {
            QVERIFY2(second.exitCode != 0, qPrintable(second.errors.right(3000)));
            QVERIFY2(second.errors.contains(QStringLiteral("already held this row before the load")) &&
                         second.errors.contains(QStringLiteral("on-duplicate-logical: replace")),
                     qPrintable(second.errors.right(3000)));
            QCOMPARE(changedName(), std::optional<std::string>("target-only"));  // its chunk rolled back
        } else if (rule.isEmpty() || rule == QStringLiteral("replace")) {
            // Unset is DM's default, replace: an unchanged DM task file loads as under DM.
            QVERIFY2(second.exitCode == 0, qPrintable(second.errors.right(3000)));
            QCOMPARE(syncscope::test::tableChecksums(down, false), upstream);
        } else {
            QVERIFY2(second.exitCode == 0, qPrintable(second.errors.right(3000)));
            QCOMPARE(changedName(), std::optional<std::string>("target-only"));
            // Everything else equals the upstream: the row put back is the only difference.
            std::string name =
                up.queryValue(std::string("SELECT HEX(name) FROM loadsrc.items WHERE id = ") + kChangedItem)
                    .value_or("");
            down.execute("UPDATE loaddst.items_copy SET name = CONVERT(UNHEX('" + name +
                         "') USING utf8mb4) WHERE id = " + kChangedItem);
            QCOMPARE(syncscope::test::tableChecksums(down, false), upstream);
        }
    }
};

QTEST_GUILESS_MAIN(LoadTaskSectionsTest)
#include "test_load_task_sections.moc"
