// What the suites of this folder that drive `syncscope-cli run --listen` on the private MariaDB pair share: the
// pair connected with a database made afresh (and the task's checkpoint table dropped), the run started, the
// one-shot commands of syncscope-cli, and the SQL they read and replay on the servers. Header-only: these suites
// link the engine, the support library does not.
#pragma once

#include <QtTest>

#include <QProcess>
#include <QStringList>

#include <initializer_list>
#include <memory>
#include <sstream>
#include <string>

#include "engine/source/upstream_connection.h"
#include "tests/support/test_env.h"

namespace syncscope::test::control_run {

struct CliResult {
    int exitCode = -1;  // -1 when it did not finish in time
    std::string out;
    std::string err;
};

// Runs syncscope-cli with `args` to its end, killed after `timeoutMs`.
inline CliResult runCli(const QStringList& args, int timeoutMs) {
    QProcess process;
    process.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"), args);
    CliResult result;
    if (process.waitForFinished(timeoutMs)) {
        result.exitCode = process.exitCode();
    } else {
        process.kill();
        process.waitForFinished();
    }
    result.out = process.readAllStandardOutput().toStdString();
    result.err = process.readAllStandardError().toStdString();
    return result;
}

// The pair as root, with `database` made afresh on both servers outside their binlogs (the tables
// `createTables`, CREATE TABLE statements) and the checkpoint table of task `taskName` dropped downstream.
inline void connectFresh(std::unique_ptr<source::UpstreamConnection>& up,
                         std::unique_ptr<source::UpstreamConnection>& down, const std::string& database,
                         std::initializer_list<const char*> createTables, const std::string& taskName) {
    up = std::make_unique<source::UpstreamConnection>(engineSettings(upstreamRoot()));
    down = std::make_unique<source::UpstreamConnection>(engineSettings(downstreamRoot()));
    for (source::UpstreamConnection* server : {up.get(), down.get()}) {
        server->execute("SET SESSION sql_log_bin = 0");
        server->execute("DROP DATABASE IF EXISTS " + database);
        server->execute("CREATE DATABASE " + database);
        for (const char* createTable : createTables) {
            server->execute(createTable);
        }
        server->execute("SET SESSION sql_log_bin = 1");
    }
    down->execute("CREATE DATABASE IF NOT EXISTS dm_meta");
    down->execute("DROP TABLE IF EXISTS dm_meta.`" + taskName + "_syncer_checkpoint`");
}

// `syncscope-cli run TASK --source SOURCE --log-dir LOGDIR --listen CONTROL` in `run`, its stderr into
// LOGDIR/run-stderr.txt. A failure to start is the test's: the caller checks QTest::currentTestFailed().
inline void startRun(QProcess& run, const std::string& taskFile, const std::string& sourceFile,
                     const std::string& logDir, const QString& control) {
    run.setStandardErrorFile(QString::fromStdString(logDir + "/run-stderr.txt"));
    run.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"),
              {QStringLiteral("run"), QString::fromStdString(taskFile), QStringLiteral("--source"),
               QString::fromStdString(sourceFile), QStringLiteral("--log-dir"), QString::fromStdString(logDir),
               QStringLiteral("--listen"), control});
    QVERIFY(run.waitForStarted());
}

// For cleanupTestCase: a run still going stopped gracefully (SIGTERM), killed when it takes over `timeoutMs`.
inline void stopRun(QProcess& run, int timeoutMs) {
    if (run.state() == QProcess::Running) {
        run.terminate();  // SIGTERM: a graceful stop
        if (!run.waitForFinished(timeoutMs)) {
            run.kill();
            run.waitForFinished();
        }
    }
}

// CHECKSUM TABLE's value for `table` (DB.TABLE); throws when the server refuses.
inline std::string checksum(source::UpstreamConnection& server, const std::string& table) {
    return server.query("CHECKSUM TABLE " + table).front()[1].value_or("NULL");
}

// Executes each line of `sql` on `server`, but for empty lines and "--" comments.
inline void runSqlLines(source::UpstreamConnection& server, const std::string& sql) {
    std::istringstream lines(sql);
    for (std::string line; std::getline(lines, line);) {
        if (!line.empty() && !line.starts_with("--")) {
            server.execute(line);
        }
    }
}

}  // namespace syncscope::test::control_run
