#include "tests/integration/differential/case_runner.h"

#include <array>

#include <nlohmann/json.hpp>

#include <chrono>
#include <iostream>
#include <memory>
#include <set>
#include <thread>

#include "tests/integration/differential/checkpoint_check.h"
#include "tests/integration/differential/engine_driver.h"
#include "tests/integration/differential/fault_injector.h"
#include "tests/integration/differential/shard_compare.h"
#include "tests/integration/differential/sql_session.h"
#include "tests/integration/differential/table_compare.h"

namespace syncscope::differential {

namespace {

constexpr int kReplicaWaitSliceSeconds = 5;
constexpr int kPollMs = 250;
constexpr int kSettleMs = 5000;
constexpr int kBinlogSettleMs = 30000;
constexpr int kLockWaitSeconds = 3;
constexpr size_t kBoundariesKept = 8;

const std::string kDatabase = kCaseDatabase;

void ignoreErrors(SqlSession& session, const std::string& sql) {
    try {
        session.execute(sql);
    } catch (const SqlFailure&) {
        // best effort: the statement's failure changes nothing the case depends on
    }
}

// The shard group's tables apart from the others: the shards on the upstream and the replica, the target
// downstream (an incremental task needs it there before it starts).
std::set<std::string> shardTables(const ShardGroup& group) {
    std::set<std::string> names;
    if (group.present()) {
        auto shards = group.shardNames();
        names.insert(shards.begin(), shards.end());
        names.insert(group.targetTable().name);
    }
    return names;
}

// The same database and tables on the three servers, outside the upstream's binlog.
void createCaseDatabase(SqlSession& server, const CaseSpec& spec, bool upstream, bool downstream) {
    if (upstream) {
        server.execute("SET SESSION sql_log_bin = 0");
        for (const auto& row : server.query("XA RECOVER")) {
            ignoreErrors(server, "XA ROLLBACK '" + row[3].value_or("") + "'");
        }
    }
    // A table of another database that references one of the case's would make the DROP fail, and every
    // later case with it: such a table is named (it is no table any case creates) and the drop goes on
    // without foreign key checks, so that one odd state costs one case at most.
    for (const auto& row : server.query("SELECT CONCAT(TABLE_SCHEMA, '.', TABLE_NAME, ' -> ', REFERENCED_TABLE_SCHEMA, "
                                        "'.', REFERENCED_TABLE_NAME) "
                                        "FROM information_schema.KEY_COLUMN_USAGE WHERE REFERENCED_TABLE_SCHEMA = '" +
                                        kDatabase + "' AND TABLE_SCHEMA <> '" + kDatabase + "'")) {
        std::cerr << "fuzz: a table outside `" << kDatabase << "` references it: " << row[0].value_or("?") << "\n";
    }
    server.execute("SET SESSION foreign_key_checks = 0");
    server.execute("DROP DATABASE IF EXISTS `" + kDatabase + "`");
    server.execute("SET SESSION foreign_key_checks = 1");
    server.execute("CREATE DATABASE `" + kDatabase + "`");
    server.execute("USE `" + kDatabase + "`");
    for (const auto& table : spec.tables) {
        server.execute(table.createSql());
    }
    if (spec.shardGroup.present() && downstream) {
        server.execute(spec.shardGroup.targetTable().createSql());
    }
    for (int shard = 1; spec.shardGroup.present() && !downstream && shard <= spec.shardGroup.count; ++shard) {
        server.execute(spec.shardGroup.shardTable(shard).createSql());
    }
    server.execute("CREATE TABLE `_fuzz_marker` (`id` INT AUTO_INCREMENT PRIMARY KEY, `note` VARCHAR(40))");
    if (upstream) {
        server.execute("SET SESSION sql_log_bin = 1");
    }
}

void pointReplicaAt(SqlSession& replica, const BinlogPoint& start) {
    test::ServerSettings up = test::upstreamReplication();
    replica.execute("SET GLOBAL gtid_slave_pos = '" + start.gtid + "'");
    replica.execute("CHANGE MASTER TO MASTER_HOST = '127.0.0.1', MASTER_PORT = " + std::to_string(up.port) +
                    ", MASTER_USER = '" + up.user + "', MASTER_PASSWORD = '" + up.password +
                    "', MASTER_USE_GTID = slave_pos, MASTER_CONNECT_RETRY = 1");
    replica.execute("START SLAVE");
}

std::string replicaError(SqlSession& replica) {
    // Last_Error is the 20th column of SHOW SLAVE STATUS in MariaDB 10.x.
    constexpr size_t kLastError = 19;
    try {
        auto position = replica.value("SELECT @@gtid_slave_pos").value_or("");
        auto status = replica.query("SHOW SLAVE STATUS");
        std::string error = !status.empty() && status.front().size() > kLastError
                                ? status.front()[kLastError].value_or("")
                                : std::string("no slave status");
        return "replica at '" + position + "': " + error;
    } catch (const SqlFailure& e) {
        return e.what();
    }
}

BinlogPoint pointOf(const nlohmann::json& point) {
    if (!point.is_object()) {
        return {};
    }
    BinlogPoint p;
    p.file = point.value("binlog_name", std::string());
    p.pos = point.value("binlog_pos", uint64_t{0});
    p.gtid = point.value("binlog_gtid", std::string());
    return p;
}

// Waits until the native replica has applied up to `end`: "" when it did, else what went wrong. It may take
// as long as its SQL thread keeps working (MariaDB's replica scans a keyless table once per deleted row:
// soak seed 160045's oracle took over 120 s), up to `capSeconds`; idle short of the end for `stallSeconds`,
// or its SQL thread stopped, is a problem of the oracle, and the case proves nothing.
std::string waitForReplica(SqlSession& replica, const BinlogPoint& end, int stallSeconds, int capSeconds) {
    using Clock = std::chrono::steady_clock;
    const auto started = Clock::now();
    auto lastProgress = started;
    std::string position;
    while (true) {
        auto waited = replica.value("SELECT MASTER_GTID_WAIT('" + end.gtid + "', " +
                                    std::to_string(kReplicaWaitSliceSeconds) + ")");
        if (waited.value_or("-1") == "0") {
            return {};
        }
        auto state =
            replica.value("SELECT IFNULL(STATE, '') FROM information_schema.PROCESSLIST WHERE COMMAND = 'Slave_SQL'");
        if (!state) {
            return "its SQL thread is not running, " + replicaError(replica);
        }
        std::string now = replica.value("SELECT @@gtid_slave_pos").value_or("");
        const bool busy = state->find("read all relay log") == std::string::npos;
        if (busy || now != position) {
            position = now;
            lastProgress = Clock::now();
        }
        if (Clock::now() - lastProgress >= std::chrono::seconds(stallSeconds)) {
            return "idle for " + std::to_string(stallSeconds) + " s short of it, " + replicaError(replica);
        }
        if (Clock::now() - started >= std::chrono::seconds(capSeconds)) {
            return "still short of it after " + std::to_string(capSeconds) + " s (" + *state + "), " +
                   replicaError(replica);
        }
    }
}

// What the engine's status says it has done: any change is progress.
std::string progressOf(const nlohmann::json& status) {
    if (!status.is_object() || !status.contains("points")) {
        return {};
    }
    return std::to_string(status.value("total_rows", uint64_t{0})) + " " + status["points"]["read"].dump() + " " +
           status["points"]["applied"].dump();
}

struct CatchUp {
    bool reached = false;
    double seconds = 0;
    uint64_t rows = 0;
};

// Waits until the engine has applied up to `end`; a divergence when it stopped on an error, made no progress
// for `stallSeconds`, or was still short of the end after `capSeconds`.
CatchUp waitForEngine(EngineDriver& engine, const BinlogPoint& end, int stallSeconds, int capSeconds,
                      Divergences& found) {
    using Clock = std::chrono::steady_clock;
    const auto started = Clock::now();
    const auto cap = started + std::chrono::seconds(capSeconds);
    auto lastProgress = started;
    std::string progress;
    uint64_t firstRows = 0;
    bool haveFirstRows = false;
    nlohmann::json status;
    CatchUp result;
    auto finish = [&] {
        result.seconds = std::chrono::duration<double>(Clock::now() - started).count();
        uint64_t rows = status.is_object() ? status.value("total_rows", uint64_t{0}) : 0;
        result.rows = rows >= firstRows ? rows - firstRows : rows;  // a restart fault resets the count
        return result;
    };
    while (Clock::now() < cap && Clock::now() - lastProgress < std::chrono::seconds(stallSeconds)) {
        if (!engine.running()) {
            found.push_back({"engine-exited", "the engine exited before catching up: " + engine.stderrTail()});
            return finish();
        }
        status = engine.process().status();
        if (status.is_object()) {
            if (!haveFirstRows) {
                firstRows = status.value("total_rows", uint64_t{0});
                haveFirstRows = true;
            }
            const std::string reason = status.value("stage_reason", std::string());
            // A retryable error (the downstream restarting) is auto-resumed: only a stop that waits for the
            // DBA ends the wait. The session that retries runs with the last failure still in the status
            // (failed_event) until it gets somewhere: Running is not a stop (soak seed 90078).
            const bool retrying = reason.find("retrying") != std::string::npos;
            if (!retrying && status.value("stage", std::string()) == "Error") {
                const auto& failed = status["failed_event"];
                std::string code = failed.is_object() ? std::to_string(failed.value("error_code", 0)) : "?";
                found.push_back({"engine-error " + code,
                                 "the engine stopped: " + status.value("stage_reason", std::string()) + "\n    " +
                                     (failed.is_object() ? failed.dump() : status.value("last_error", std::string()))});
                return finish();
            }
            if (status.contains("points") && comparePoints(pointOf(status["points"]["applied"]), end) >= 0) {
                result.reached = true;
                return finish();
            }
            std::string now = progressOf(status);
            if (now != progress) {
                progress = now;
                lastProgress = Clock::now();
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(kPollMs));
    }
    finish();
    const bool stalled = Clock::now() - lastProgress >= std::chrono::seconds(stallSeconds);
    found.push_back(
        {"not-caught-up",
         "the engine did not reach the upstream's end " + end.text() +
             (stalled ? ": nothing moved for " + std::to_string(stallSeconds) + " s"
                      : ": still short of it after " + std::to_string(capSeconds) + " s, " +
                            std::to_string(result.rows) + " rows applied meanwhile") +
             "; status: " +
             (status.is_object() ? status["points"].dump() + " stage " + status.value("stage", std::string()) + " " +
                                       status.value("stage_reason", std::string())
                                 : std::string("no answer"))});
    return result;
}

struct UpstreamSessions {
    std::array<std::unique_ptr<SqlSession>, 3> open;  // by UpstreamSession
    SqlSession& session(int which) {
        auto& slot = open.at(static_cast<size_t>(which));
        if (!slot) {
            slot = std::make_unique<SqlSession>(test::upstreamRoot(), kDatabase);
            slot->execute("SET SESSION innodb_lock_wait_timeout = " + std::to_string(kLockWaitSeconds));
            if (which == kToolSession) {
                slot->execute(
                    "SET SESSION sql_mode = CONCAT_WS(',', NULLIF(@@SESSION.sql_mode, ''), 'NO_AUTO_VALUE_ON_ZERO')");
            }
        }
        return *slot;
    }
};

// Runs a step's statements; false when the upstream refused one (the step's cleanup then ran).
bool runStatements(UpstreamSessions& sessions, const Step& step, bool verbose) {
    for (const auto& statement : step.statements) {
        try {
            sessions.session(statement.session).execute(statement.sql);
        } catch (const SqlFailure& e) {
            if (verbose) {
                std::cerr << "    upstream refused: " << e.what() << "\n";
            }
            for (const auto& cleanup : step.onFailure) {
                ignoreErrors(sessions.session(cleanup.session), cleanup.sql);
            }
            return false;
        }
    }
    return true;
}

}  // namespace

CaseOutcome runCase(const CaseSpec& spec, const std::vector<int>& keep, const RunOptions& options) {
    CaseOutcome outcome;
    auto started = std::chrono::steady_clock::now();
    std::set<int> kept(keep.begin(), keep.end());

    auto upSession = std::make_unique<SqlSession>(test::upstreamRoot());
    SqlSession down(test::downstreamRoot());
    SqlSession replica(replicaRoot());
    ignoreErrors(replica, "STOP SLAVE");
    ignoreErrors(replica, "RESET SLAVE ALL");
    createCaseDatabase(*upSession, spec, true, false);
    createCaseDatabase(down, spec, false, true);
    createCaseDatabase(replica, spec, false, false);
    const std::set<std::string> apart = shardTables(spec.shardGroup);
    down.execute("CREATE DATABASE IF NOT EXISTS `dm_meta`");
    for (const auto& row : down.query("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = "
                                      "'dm_meta' AND TABLE_NAME LIKE '" +
                                      std::string(kTaskName) + "\\_%'")) {
        down.execute("DROP TABLE `dm_meta`.`" + row[0].value_or("") + "`");
    }
    BinlogPoint start = upstreamEnd(*upSession);
    pointReplicaAt(replica, start);

    EngineDriver engine(options.workDir, spec.engine, start, kDatabase);
    if (!engine.start()) {
        outcome.divergences.push_back({"engine-start-failed", "the engine did not start: " + engine.stderrTail()});
        return outcome;
    }
    FaultInjector faults(engine, spec.features, spec.seed ^ 0x5EEDFA17ULL);
    UpstreamSessions sessions;
    std::vector<BinlogPoint> boundaries{start};
    for (const auto& step : spec.steps) {
        if (!kept.empty() && kept.count(step.number) == 0) {
            continue;
        }
        if (options.verbose) {
            std::cerr << "  step " << step.number << ": " << step.label << "\n";
        }
        if (step.fault != FaultKind::None) {
            faults.inject(step.fault, step.number, boundaries, outcome.divergences);
            ++outcome.faults;
            if (step.fault == FaultKind::UpstreamRestart) {  // the workload's connections did not survive it
                sessions = UpstreamSessions{};
                upSession = std::make_unique<SqlSession>(test::upstreamRoot());
            }
            continue;
        }
        ++outcome.stepsRun;
        if (!runStatements(sessions, step, options.verbose)) {
            ++outcome.stepsFailedUpstream;
        }
        boundaries.push_back(upstreamEnd(*upSession));
        if (boundaries.size() > kBoundariesKept) {
            boundaries.erase(boundaries.begin());
        }
        if (!engine.running()) {
            outcome.divergences.push_back({"engine-exited", "the engine exited at step " + std::to_string(step.number) +
                                                                ": " + engine.stderrTail()});
            engine.start();
        }
    }
    sessions.session(kMainSession).execute("INSERT INTO `_fuzz_marker` (`note`) VALUES ('end')");
    // The end is read once the upstream stopped writing on its own (its last binlog checkpoint event).
    bool endSettled = test::waitFor([&] { return upstreamEndSettled(*upSession); }, kBinlogSettleMs);
    if (!endSettled) {
        std::cerr << "seed " << spec.seed << ": the upstream wrote no binlog checkpoint event for its current file in "
                  << kBinlogSettleMs << " ms; the global-end check is skipped\n";
    }
    BinlogPoint end = upstreamEnd(*upSession);

    std::string replicaProblem = waitForReplica(replica, end, options.catchUpSeconds, options.catchUpCapSeconds);
    if (!replicaProblem.empty()) {
        outcome.oracleProblem = "the native replica did not reach " + end.text() + ": " + replicaProblem;
        engine.terminate();
        return outcome;
    }
    Divergences waiting;
    CatchUp catchUp = waitForEngine(engine, end, options.catchUpSeconds, options.catchUpCapSeconds, waiting);
    outcome.catchUpSeconds = catchUp.seconds;
    outcome.catchUpRows = catchUp.rows;
    const bool caughtUp = catchUp.reached;
    if (caughtUp) {
        // The applied point moves as workers commit: give the last commits a moment to show.
        SqlSession downNow(test::downstreamRoot());
        test::waitFor(
            [&] {
                return checksumsEqual(replica, downNow, kDatabase, apart) &&
                       (!spec.shardGroup.present() ||
                        compareShardGroup(replica, downNow, kDatabase, spec.shardGroup).empty());
            },
            kSettleMs);
        // The engine passes the last binlog checkpoint event a moment after the last commit shows.
        test::waitFor(
            [&] {
                nlohmann::json status = engine.process().status();
                return status.is_object() && status.contains("points") &&
                       comparePoints(pointOf(status["points"]["global_in_memory"]), upstreamEnd(*upSession)) >= 0;
            },
            kSettleMs);
    }
    SqlSession downAfter(test::downstreamRoot());
    outcome.divergences.insert(outcome.divergences.end(), waiting.begin(), waiting.end());
    bool engineFailed = !waiting.empty();
    if (!engineFailed) {
        // A stopped engine leaves every later row missing: its error is the divergence to report.
        Divergences tables = compareWithReplica(replica, downAfter, kDatabase, apart);
        outcome.divergences.insert(outcome.divergences.end(), tables.begin(), tables.end());
        if (spec.shardGroup.present()) {
            Divergences shards = compareShardGroup(replica, downAfter, kDatabase, spec.shardGroup);
            outcome.divergences.insert(outcome.divergences.end(), shards.begin(), shards.end());
        }
    }
    int exitCode = engine.terminate();
    if (!engineFailed) {
        if (exitCode != 0) {
            outcome.divergences.push_back(
                {"stop-exit-code", "a graceful stop exited " + std::to_string(exitCode) + ": " + engine.stderrTail()});
        }
        CheckpointExpectations expect;
        expect.afterGracefulStop = spec.features.count(Feature::ExitSafeCheck) != 0;
        expect.caughtUp = caughtUp && endSettled && spec.features.count(Feature::GlobalEndCheck) != 0;
        auto problems =
            checkCheckpoints(downAfter, kTaskName, upstreamEnd(*upSession), expect, "after the final graceful stop");
        outcome.divergences.insert(outcome.divergences.end(), problems.begin(), problems.end());
    }
    outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return outcome;
}

}  // namespace syncscope::differential
