// The downstream's CPU per row for each statement shape an apply worker can send a group of key-keeping
// UPDATEs in, on the catch-up's table shape (sysbench's sbtest with a unique key on c), against the shape
// the workers use (the row's UPDATE bound over arrays, MariaDB's bulk execution) in the same invocation.
// Not a CTest test: run scripts/bench-update-shapes, which starts a private server and passes its PID.
//
// Shapes, each committing one transaction per group of `group` rows (a worker's batch of one table):
//   array        UPDATE ... WHERE id = ? bound over the group's rows: one statement per row in the server
//   case         UPDATE ... SET col = CASE id WHEN ? THEN ? ... END WHERE id IN (...): one statement
//   row by row   one UPDATE per row, sent pipelined (one round trip)
//   derived join UPDATE t JOIN (SELECT ?, ... UNION ALL SELECT ...) AS r ON t.id = r.k SET ...: one statement
//                (not a shape the engine sends; measured as the candidate for merging a round's updates)
// The first three are built by the engine's DmlBuilder and run by its DmlExecutor; every run checks that
// each UPDATE found its row and that the table then holds every value it wrote.
//
// Server CPU is the server process's user + system time (/proc/PID/stat) from a run's start until its
// purge is done (InnoDB's history list back to where it was), so a shape pays for its own purge.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <mysql.h>

#include "engine/apply/causality_keys.h"
#include "engine/apply/dml_builder.h"
#include "engine/apply/dml_executor.h"
#include "engine/apply/downstream_connection.h"

using namespace syncscope;
using namespace syncscope::apply;

namespace {

constexpr const char* kDatabase = "bench_update_shapes";
constexpr int kTableRows = 100000;

std::string env(const char* name, const std::string& fallback) {
    const char* value = std::getenv(name);
    return value && *value ? std::string(value) : fallback;
}

// A whole number from the environment, at least `least`; throws naming the variable otherwise.
int envNumber(const char* name, int fallback, int least) {
    const std::string text = env(name, std::to_string(fallback));
    size_t used = 0;
    int value = 0;
    try {
        value = std::stoi(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != text.size() || value < least) {
        throw std::runtime_error(std::string(name) + " must be a whole number of at least " + std::to_string(least) +
                                 ", not '" + text + "'");
    }
    return value;
}

double serverCpuSeconds(int pid) {
    std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    size_t end = stat.rfind(')');
    if (end == std::string::npos) {
        throw std::runtime_error("cannot read /proc/" + std::to_string(pid) + "/stat: is the server running?");
    }
    std::istringstream fields(stat.substr(end + 2));
    std::string field;
    double ticks = 0;
    for (int i = 0; i < 13 && fields >> field; ++i) {
        if (i == 11 || i == 12) {  // utime, stime (fields 14 and 15 of proc(5))
            ticks += std::stod(field);
        }
    }
    return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double clientCpuSeconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

std::shared_ptr<const schema::TableSchema> sbtest() {
    std::vector<schema::SchemaColumn> columns{
        {"id", binlog::ColumnType::Long, "int", false, false},
        {"k", binlog::ColumnType::Long, "int", false, false},
        {"c", binlog::ColumnType::String, "char", false, false, false, false, "utf8mb4_bin"},
        {"pad", binlog::ColumnType::String, "char", false, false, false, false, "utf8mb4_bin"}};
    schema::TableSchema made(schema::TableName{kDatabase, "sbtest"}, columns, {0}, {}, schema::SchemaOrigin::TableMap);
    schema::TableSchema downstream = made;
    downstream.setDownstreamUniqueIndexes({{"id"}, {"c"}});
    made.adoptDownstreamFacts(downstream);
    made.judgeRowKeyAgainst(downstream);
    return std::make_shared<const schema::TableSchema>(std::move(made));
}

ServerSettings settings() {
    ServerSettings server;
    server.port = std::stoi(env("SYNCSCOPE_DOWN_PORT", "3308"));
    server.user = "root";
    server.password = env("SYNCSCOPE_ROOT_PASSWORD", "syncscope-root");
    return server;
}

// One number from a query on a connection of its own.
uint64_t queryNumber(st_mysql* mysql, const std::string& sql) {
    if (mysql_query(mysql, sql.c_str()) != 0) {
        throw std::runtime_error(sql + ": " + mysql_error(mysql));
    }
    MYSQL_RES* result = mysql_store_result(mysql);
    MYSQL_ROW row = result ? mysql_fetch_row(result) : nullptr;
    uint64_t value = row && row[0] ? std::stoull(row[0]) : 0;
    if (result) {
        mysql_free_result(result);
    }
    return value;
}

void prepareTable(DmlExecutor& executor) {
    executor.executeText(std::string("DROP DATABASE IF EXISTS `") + kDatabase + "`");
    executor.executeText(std::string("CREATE DATABASE `") + kDatabase + "`");
    executor.executeText(std::string("CREATE TABLE `") + kDatabase +
                         "`.`sbtest` (`id` INT NOT NULL PRIMARY KEY, `k` INT NOT NULL, "
                         "`c` CHAR(120) COLLATE utf8mb4_bin NOT NULL, `pad` CHAR(60) COLLATE utf8mb4_bin NOT NULL, "
                         "KEY `k_1` (`k`), UNIQUE KEY `c_1` (`c`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4");
    executor.executeText(std::string("INSERT INTO `") + kDatabase +
                         "`.`sbtest` SELECT seq, seq * 7 % 100000, CONCAT(LPAD(seq, 11, '0'), '-', MD5(seq), '-', "
                         "MD5(seq + 1)), CONCAT(MD5(seq), '-', LPAD(seq, 20, 'x')) FROM `" +
                         std::string(kDatabase) + "`.`seq_1_to_" + std::to_string(kTableRows) + "`");
    executor.commit();
}

// The candidate: one UPDATE joined with a derived table of the group's key and values.
DmlStatement derivedJoin(const std::vector<RowChange>& changes) {
    DmlStatement statement;
    std::string table = std::string("`") + kDatabase + "`.`sbtest`";
    statement.sql = "UPDATE " + table + " JOIN (";
    for (size_t row = 0; row < changes.size(); ++row) {
        statement.sql +=
            row == 0 ? "SELECT ? AS `r0`, ? AS `r1`, ? AS `r2`, ? AS `r3`" : " UNION ALL SELECT ?, ?, ?, ?";
        for (size_t column = 0; column < 4; ++column) {
            statement.params.push_back(&changes[row].after[column]);
        }
    }
    statement.sql += ") AS `r` ON " + table + ".`id` = `r`.`r0` SET " + table + ".`k` = `r`.`r1`, " + table +
                     ".`c` = `r`.`r2`, " + table + ".`pad` = `r`.`r3`";
    statement.rowCount = changes.size();
    statement.mustMatch = changes.size();
    return statement;
}

struct Figures {
    double wall = 0;
    double serverCpu = 0;
    double clientCpu = 0;
};

class Bench {
public:
    Bench(int serverPid, int rowsPerRun) : serverPid_(serverPid), rowsPerRun_(rowsPerRun), table_(sbtest()) {
        executor_ = std::make_unique<DmlExecutor>(connectDownstreamNative(settings()));
        probe_ = connectDownstreamNative(settings());
        prepareTable(*executor_);
        ids_.resize(kTableRows);
        for (int i = 0; i < kTableRows; ++i) {
            ids_[i] = i + 1;
        }
    }

    Figures run(const std::string& shape, size_t group) {
        std::mt19937 random(++generation_);
        std::shuffle(ids_.begin(), ids_.end(), random);
        waitForPurge();
        const uint64_t historyBefore = history();
        const double server0 = serverCpuSeconds(serverPid_);
        const double client0 = clientCpuSeconds();
        const auto started = std::chrono::steady_clock::now();
        size_t next = 0;
        uint64_t found = 0;
        std::vector<uint64_t> affected;
        const std::string tag = "g" + std::to_string(generation_) + "-";
        for (int done = 0; done + static_cast<int>(group) <= rowsPerRun_; done += static_cast<int>(group)) {
            std::vector<RowChange> changes = groupOf(group, next, done, tag);
            std::vector<DmlStatement> statements = statementsFor(shape, changes);
            executor_->executeAll(statements, affected);
            for (uint64_t rows : affected) {
                found += rows;
            }
            executor_->commit();
        }
        Figures figures;
        figures.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        figures.clientCpu = clientCpuSeconds() - client0;
        waitForPurge(historyBefore);
        figures.serverCpu = serverCpuSeconds(serverPid_) - server0;
        const uint64_t rows = rowsPerRun_ / group * group;
        const uint64_t written = queryNumber(probe_.get(), std::string("SELECT COUNT(*) FROM `") + kDatabase +
                                                               "`.`sbtest` WHERE `c` LIKE '" + tag + "%'");
        if (found != rows || written != rows) {
            throw std::runtime_error(shape + ": " + std::to_string(rows) + " updates found " + std::to_string(found) +
                                     " rows and left " + std::to_string(written) + " rows with their values");
        }
        rows_ = rows;
        return figures;
    }

    uint64_t rowsPerRun() const { return rows_; }

private:
    std::vector<RowChange> groupOf(size_t group, size_t& next, int done, const std::string& tag) {
        std::vector<RowChange> changes(group);
        for (size_t i = 0; i < group; ++i) {
            RowChange& change = changes[i];
            const int id = ids_[next++ % ids_.size()];
            change.table = table_;
            change.op = RowOp::Update;
            change.before = {SqlValue::signedInt(id), SqlValue::null(), SqlValue::null(), SqlValue::null()};
            change.after = {SqlValue::signedInt(id), SqlValue::signedInt((id * 13 + generation_) % kTableRows),
                            SqlValue::text(tag + std::to_string(done + i) + std::string(80, 'q')),
                            SqlValue::text(tag + std::string(50, 'z'))};
            // The before image is read for the row key (the WHERE) and the causality keys only: its c stands for
            // the old value (a unique key of its own), the other columns are not needed.
            change.before[2] = SqlValue::text("before-" + std::to_string(id));
            carryKeys(change, causalityKeys(change));
        }
        return changes;
    }

    std::vector<DmlStatement> statementsFor(const std::string& shape, const std::vector<RowChange>& changes) {
        std::vector<DmlStatement> statements;
        if (shape == "array") {
            statements = DmlBuilder(true).build(changes, true);
        } else if (shape == "case") {
            statements = DmlBuilder(true).build(changes, false);
        } else if (shape == "row by row") {
            statements = DmlBuilder(false).build(changes, false);
        } else {
            statements.push_back(derivedJoin(changes));
        }
        const size_t expected = shape == "row by row" ? changes.size() : 1;
        const bool arrays = shape == "array";
        if (statements.size() != expected || (statements.front().arrayRows > 0) != arrays ||
            statements.front().sql.rfind("UPDATE", 0) != 0) {
            throw std::runtime_error(shape + ": the builder did not make the shape measured (" +
                                     std::to_string(statements.size()) +
                                     " statements, first: " + statements.front().sql.substr(0, 80) + ")");
        }
        return statements;
    }

    // InnoDB's history list, as adaptive concurrency reads it (between transactions).
    uint64_t history() {
        std::optional<uint64_t> backlog = executor_->readPurgeBacklog();
        if (!backlog) {
            throw std::runtime_error("the downstream did not say its history list length (Innodb_history_list_length)");
        }
        return *backlog;
    }

    // Until InnoDB's history list is back to `floor` (or has stopped shrinking for a second).
    void waitForPurge(uint64_t floor = 0) {
        uint64_t last = history();
        int still = 0;
        while (last > floor && still < 10) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            uint64_t now = history();
            still = now < last ? 0 : still + 1;
            last = now;
        }
    }

    int serverPid_;
    int rowsPerRun_;
    std::shared_ptr<const schema::TableSchema> table_;
    std::unique_ptr<DmlExecutor> executor_;
    NativeConnection probe_;
    std::vector<int> ids_;
    unsigned generation_ = 0;
    uint64_t rows_ = 0;
};

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    size_t middle = values.size() / 2;
    return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

}  // namespace

int main() {
    try {
        const int serverPid = envNumber("BENCH_SERVER_PID", 0, 1);  // the downstream server's process
        const int rounds = envNumber("BENCH_ROUNDS", 3, 1);
        const int rowsPerRun = envNumber("BENCH_RUN_ROWS", 64000, 64);
        std::vector<size_t> groups;
        const std::string groupText = env("BENCH_GROUPS", "12 64");
        std::istringstream groupList(groupText);
        for (std::string word; groupList >> word;) {
            const size_t group = word.find_first_not_of("0123456789") == std::string::npos ? std::stoul(word) : 0;
            if (group < 2 || group > DmlBuilder::kDefaultMaxRowsPerStatement) {
                throw std::runtime_error("BENCH_GROUPS must list rows a group from 2 to " +
                                         std::to_string(DmlBuilder::kDefaultMaxRowsPerStatement) + ", not '" +
                                         groupText + "'");
            }
            groups.push_back(group);
        }
        if (groups.empty()) {
            throw std::runtime_error("BENCH_GROUPS lists no group size");
        }
        const std::vector<std::string> shapes{"array", "case", "row by row", "derived join"};
        Bench bench(serverPid, rowsPerRun);
        std::map<std::pair<size_t, std::string>, std::vector<Figures>> figures;
        for (int round = 0; round < rounds; ++round) {
            for (size_t group : groups) {
                for (size_t i = 0; i < shapes.size(); ++i) {
                    const std::string& shape = shapes[(i + round) % shapes.size()];  // order rotates by round
                    Figures run = bench.run(shape, group);
                    std::printf("round %d, %zu rows a group, %-12s %6.2f s, server %6.2f us/row, client %5.2f us/row\n",
                                round + 1, group, shape.c_str(), run.wall, run.serverCpu * 1e6 / bench.rowsPerRun(),
                                run.clientCpu * 1e6 / bench.rowsPerRun());
                    std::fflush(stdout);
                    figures[{group, shape}].push_back(run);
                }
            }
        }
        const double rows = static_cast<double>(bench.rowsPerRun());
        std::printf("\nmedians of %d rounds, %.0f updates a run (server CPU includes the run's purge):\n", rounds,
                    rows);
        for (size_t group : groups) {
            auto serverOf = [&](const std::string& shape) {
                std::vector<double> values;
                for (const Figures& run : figures[{group, shape}]) {
                    values.push_back(run.serverCpu * 1e6 / rows);
                }
                return median(values);
            };
            const double reference = serverOf("array");
            for (const std::string& shape : shapes) {
                std::vector<double> wall;
                std::vector<double> client;
                for (const Figures& run : figures[{group, shape}]) {
                    wall.push_back(run.wall);
                    client.push_back(run.clientCpu * 1e6 / rows);
                }
                std::printf(
                    "%3zu rows a group  %-12s  server %6.2f us/row (%.2fx array)  client %5.2f us/row  %6.2f s\n",
                    group, shape.c_str(), serverOf(shape), serverOf(shape) / reference, median(client), median(wall));
            }
        }
        return 0;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "bench_update_shapes: %s\n", error.what());
        return 1;
    }
}
