// What the GUI benchmarks share: waiting on the GUI thread's event loop, and the benchmark tables (id, v, n, at)
// with the multi-row INSERTs that fill them.
#pragma once

#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "engine/source/upstream_connection.h"
#include "engine/task/task.h"
#include "tests/support/task_files.h"
#include "tests/ui/support/real_task.h"

namespace syncscope::bench {

// Waits on the GUI thread's event loop (never blocking it) until the condition holds or the timeout.
inline bool waitInEventLoop(const std::function<bool()>& condition, int timeoutMs, int pollMs) {
    QElapsedTimer clock;
    clock.start();
    while (!condition()) {
        if (clock.elapsed() > timeoutMs) {
            return false;
        }
        QEventLoop loop;
        QTimer::singleShot(pollMs, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return true;
}

inline std::string benchTableName(const std::string& schema, int table) {
    return schema + ".t" + std::to_string(table);
}

// Drops and creates `schema` with `tables` tables on the server, outside its binary log.
inline void createBenchTables(source::UpstreamConnection& server, const std::string& schema, int tables) {
    server.execute("SET SESSION sql_log_bin = 0");
    server.execute("DROP DATABASE IF EXISTS " + schema);
    server.execute("CREATE DATABASE " + schema);
    for (int table = 0; table < tables; ++table) {
        server.execute("CREATE TABLE " + benchTableName(schema, table) +
                       " (id INT PRIMARY KEY, v VARCHAR(40), n BIGINT, at DATETIME(6))");
    }
    server.execute("SET SESSION sql_log_bin = 1");
}

// Rows first .. first + count - 1 in one INSERT, into the table the row numbers take turns over.
inline std::string benchInsert(const std::string& schema, int tables, int first, int count) {
    std::string sql = "INSERT INTO " + benchTableName(schema, (first / count) % tables) + " VALUES ";
    for (int id = first; id < first + count; ++id) {
        sql += (id == first ? "(" : ",(") + std::to_string(id) + ", 'row " + std::to_string(id) + "', " +
               std::to_string(int64_t(id) * 7919) + ", NOW(6))";
    }
    return sql;
}

// The benchmark tables made afresh on both servers of the private pair and a task over them that starts at the
// upstream's end, its files and audit log in `dir`. Throws on a server error.
inline std::shared_ptr<task::Task> openBenchTask(const std::string& schema, int tables, const std::string& taskName,
                                                 const std::string& dir) {
    auto up = test::connectUpstream();
    auto down = test::connectDownstream();
    createBenchTables(*up, schema, tables);
    createBenchTables(*down, schema, tables);
    down->execute("CREATE DATABASE IF NOT EXISTS dm_meta");
    down->execute("DROP TABLE IF EXISTS dm_meta.`" + taskName + "_syncer_checkpoint`");
    const auto [file, pos] = test::masterPosition(*up);
    test::TaskFileOptions options;
    options.name = taskName;
    options.binlogName = file;
    options.binlogPos = pos;
    options.instanceExtra = "    block-allow-list: \"only-bench\"\n";
    options.topLevelExtra = "block-allow-list:\n  only-bench: {do-dbs: [\"" + schema + "\"]}\n";
    const test::TaskFiles files = test::writeTaskFiles(dir, options);
    return test::openRealTask(files.task, files.source, dir + "/audit.jsonl");
}

}  // namespace syncscope::bench
