// The DM-compatible checkpoint table against the private MariaDB pair: DM's exact columns, a flush
// round-trips through load, a flush is one transaction with the global row written last (a failure
// of the global row leaves the previous checkpoint whole), removeMeta, and any meta-schema or task
// name works.
#include <QtTest>

#include <cppconn/connection.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

#include "engine/apply/downstream_connection.h"
#include "engine/apply/quoted_name.h"
#include "engine/checkpoint/checkpoint_table.h"
#include "tests/support/test_env.h"

using namespace syncscope;
using checkpoint::CheckpointTable;
using checkpoint::CheckpointTableError;
using checkpoint::TablePoint;

namespace {

constexpr int kSignalledError = 1644;  // ER_SIGNAL_EXCEPTION
const std::string kSource = "mariadb-01";

ServerSettings downstreamSettings() {
    auto s = test::downstreamRoot();
    ServerSettings settings;
    settings.host = s.host;
    settings.port = s.port;
    settings.user = s.user;
    settings.password = s.password;
    return settings;
}

binlog::Location at(const std::string& position, const std::string& gtids = {}) {
    auto parsed = binlog::BinlogPosition::parse(position);
    return binlog::Location::fromParts(parsed.file(), parsed.offset(), gtids);
}

std::vector<std::string> column(sql::Connection& connection, const std::string& query) {
    std::unique_ptr<sql::Statement> statement(connection.createStatement());
    std::unique_ptr<sql::ResultSet> rows(statement->executeQuery(query));
    std::vector<std::string> values;
    while (rows->next()) {
        values.push_back(rows->isNull(1) ? "NULL" : std::string(rows->getString(1)));
    }
    return values;
}

void execute(sql::Connection& connection, const std::string& sql) {
    std::unique_ptr<sql::Statement> statement(connection.createStatement());
    statement->execute(sql);
}

const TablePoint* findTable(const checkpoint::PersistedCheckpoint& checkpoint, const std::string& schema,
                            const std::string& table) {
    for (const auto& point : checkpoint.tablePoints) {
        if (point.table.schema == schema && point.table.table == table) {
            return &point;
        }
    }
    return nullptr;
}

}  // namespace

class CheckpointTableTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<sql::Connection> connection_;

private slots:
    void initTestCase() { connection_ = apply::connectDownstream(downstreamSettings()); }

    void cleanupTestCase() {
        if (connection_) {
            for (const char* schema : {"cp_shape", "cp_roundtrip", "cp_atomic", "cp_remove", "meta `odd` schema",
                                       "cp_noglobal", "cp_missing", "cp_many"}) {
                execute(*connection_, "DROP SCHEMA IF EXISTS " + apply::quoteName(schema));
            }
        }
    }

    void createsDmColumnsAndUniqueKey() {
        CheckpointTable table(*connection_, "cp_shape", "task1");
        table.ensureTable();
        table.ensureTable();  // idempotent
        auto columns = column(*connection_,
                              "SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'cp_shape' AND "
                              "TABLE_NAME = 'task1_syncer_checkpoint' ORDER BY ORDINAL_POSITION");
        std::vector<std::string> expected{"id",
                                          "cp_schema",
                                          "cp_table",
                                          "binlog_name",
                                          "binlog_pos",
                                          "binlog_gtid",
                                          "exit_safe_binlog_name",
                                          "exit_safe_binlog_pos",
                                          "exit_safe_binlog_gtid",
                                          "table_info",
                                          "is_global",
                                          "create_time",
                                          "update_time"};
        QCOMPARE(columns, expected);
        auto keyColumns =
            column(*connection_,
                   "SELECT COLUMN_NAME FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'cp_shape' "
                   "AND TABLE_NAME = 'task1_syncer_checkpoint' AND INDEX_NAME = 'uk_id_schema_table' "
                   "AND NON_UNIQUE = 0 ORDER BY SEQ_IN_INDEX");
        QCOMPARE(keyColumns, (std::vector<std::string>{"id", "cp_schema", "cp_table"}));
    }

    void flushThenLoadRoundTrips_data() {
        QTest::addColumn<QString>("globalGtids");
        QTest::addColumn<QString>("tableGtids");
        QTest::addRow("positions only") << ""
                                        << "";
        QTest::addRow("mariadb gtids") << "0-1-40,1-2-7"
                                       << "0-1-38,1-2-7";
        QTest::addRow("mysql gtid set") << "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-40"
                                        << "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-38";
    }
    void flushThenLoadRoundTrips() {
        QFETCH(QString, globalGtids);
        QFETCH(QString, tableGtids);
        CheckpointTable table(*connection_, "cp_roundtrip", "task1");
        table.ensureTable();
        table.removeMeta(kSource);
        auto global = at("mariadb-bin.000004:9000", globalGtids.toStdString());
        auto exitSafe = at("mariadb-bin.000005:120", globalGtids.toStdString());
        std::vector<TablePoint> tables{{{"shop", "orders"}, at("mariadb-bin.000004:8000", tableGtids.toStdString())},
                                       {{"O'Brien \"db\"", "t`1`"}, at("mariadb-bin.000003:4", "")}};
        table.flush(kSource, tables, global, exitSafe);

        auto loaded = table.load(kSource);
        QVERIFY(loaded.hasGlobalRow);
        QCOMPARE(loaded.globalPoint, global);
        QCOMPARE(loaded.exitSafePoint, exitSafe);
        QCOMPARE(loaded.tablePoints.size(), size_t(2));
        QVERIFY(findTable(loaded, "shop", "orders") != nullptr);
        QCOMPARE(findTable(loaded, "shop", "orders")->location, tables[0].location);
        QVERIFY(findTable(loaded, "O'Brien \"db\"", "t`1`") != nullptr);
        QCOMPARE(findTable(loaded, "O'Brien \"db\"", "t`1`")->location, tables[1].location);

        // A second flush updates the rows in place (ON DUPLICATE KEY UPDATE), no new rows.
        auto later = at("mariadb-bin.000004:9500", globalGtids.toStdString());
        table.flush(kSource, {{{"shop", "orders"}, later}}, later, binlog::Location());
        loaded = table.load(kSource);
        QCOMPARE(loaded.globalPoint, later);
        QVERIFY(loaded.exitSafePoint.isEmpty());
        QCOMPARE(findTable(loaded, "shop", "orders")->location, later);
        QCOMPARE(column(*connection_, "SELECT COUNT(*) FROM cp_roundtrip.task1_syncer_checkpoint"),
                 std::vector<std::string>{"3"});
        QCOMPARE(column(*connection_,
                        "SELECT CONCAT(binlog_name, ':', binlog_pos, '|', table_info, '|', is_global) FROM "
                        "cp_roundtrip.task1_syncer_checkpoint WHERE cp_schema = '' AND cp_table = ''"),
                 std::vector<std::string>{"mariadb-bin.000004:9500|null|1"});
    }

    void failedGlobalRowLeavesPreviousCheckpointWhole() {
        CheckpointTable table(*connection_, "cp_atomic", "task1");
        table.ensureTable();
        // A log of the order in which rows are written, and an injected failure of the global row.
        execute(*connection_, "CREATE TABLE cp_atomic.write_order (n INT AUTO_INCREMENT PRIMARY KEY, is_global INT)");
        execute(*connection_,
                "CREATE TRIGGER cp_atomic.log_order BEFORE INSERT ON cp_atomic.task1_syncer_checkpoint FOR EACH ROW "
                "BEGIN INSERT INTO cp_atomic.write_order (is_global) VALUES (NEW.is_global); "
                "IF NEW.is_global = 1 AND NEW.binlog_pos = 666 THEN "
                "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'injected failure of the global row'; END IF; END");

        auto before = at("mariadb-bin.000002:100", "0-1-10");
        table.flush(kSource, {{{"shop", "a"}, before}, {{"shop", "b"}, before}}, before, binlog::Location());
        QCOMPARE(column(*connection_, "SELECT is_global FROM cp_atomic.write_order ORDER BY n"),
                 (std::vector<std::string>{"0", "0", "1"}));

        auto after = at("mariadb-bin.000002:666", "0-1-20");
        try {
            table.flush(kSource, {{{"shop", "a"}, after}, {{"shop", "c"}, after}}, after, after);
            QFAIL("the injected failure did not fail the flush");
        } catch (const CheckpointTableError& e) {
            QCOMPARE(e.code(), kSignalledError);
            QVERIFY2(e.sql().find("INSERT INTO `cp_atomic`.`task1_syncer_checkpoint`") == 0, e.sql().c_str());
            std::string message = e.what();
            QVERIFY2(message.find("injected failure of the global row") != std::string::npos, e.what());
            QVERIFY2(message.find("global row") != std::string::npos, e.what());
            QVERIFY2(message.find(test::downstreamRoot().password) == std::string::npos, e.what());
        }
        auto loaded = table.load(kSource);
        QCOMPARE(loaded.globalPoint, before);
        QCOMPARE(loaded.tablePoints.size(), size_t(2));
        QCOMPARE(findTable(loaded, "shop", "a")->location, before);
        QVERIFY(findTable(loaded, "shop", "c") == nullptr);
        QVERIFY(loaded.exitSafePoint.isEmpty());

        // The connection is usable again, in autocommit mode.
        table.flush(kSource, {}, at("mariadb-bin.000002:700", "0-1-21"), binlog::Location());
        QCOMPARE(table.load(kSource).globalPoint, at("mariadb-bin.000002:700", "0-1-21"));
        QCOMPARE(column(*connection_, "SELECT @@autocommit"), std::vector<std::string>{"1"});
    }

    // More tables than one statement takes: several statements, still one transaction.
    void flushOfManyTablesIsWholeOrNothing() {
        execute(*connection_, "DROP SCHEMA IF EXISTS cp_many");
        CheckpointTable table(*connection_, "cp_many", "task1");
        table.ensureTable();
        execute(*connection_,
                "CREATE TRIGGER cp_many.fail_global BEFORE INSERT ON cp_many.task1_syncer_checkpoint FOR EACH ROW "
                "BEGIN IF NEW.is_global = 1 AND NEW.binlog_pos = 666 THEN "
                "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'injected failure of the global row'; END IF; END");
        const size_t tableCount = 2 * CheckpointTable::kRowsPerStatement + 7;
        auto pointsAt = [&](const binlog::Location& location) {
            std::vector<TablePoint> points;
            for (size_t i = 0; i < tableCount; ++i) {
                points.push_back({{"shop", "t" + std::to_string(i)}, location});
            }
            return points;
        };
        auto before = at("mariadb-bin.000002:100", "0-1-10");
        table.flush(kSource, pointsAt(before), before, binlog::Location());
        auto loaded = table.load(kSource);
        QCOMPARE(loaded.tablePoints.size(), tableCount);
        QCOMPARE(loaded.globalPoint, before);

        auto after = at("mariadb-bin.000002:666", "0-1-20");
        QVERIFY_THROWS_EXCEPTION(CheckpointTableError, table.flush(kSource, pointsAt(after), after, after));
        QCOMPARE(
            column(*connection_,
                   "SELECT COUNT(*) FROM cp_many.task1_syncer_checkpoint WHERE binlog_pos = 100 AND is_global = 0"),
            std::vector<std::string>{std::to_string(tableCount)});
        QCOMPARE(table.load(kSource).globalPoint, before);
        QCOMPARE(column(*connection_, "SELECT @@autocommit"), std::vector<std::string>{"1"});
    }

    void removeMetaDeletesOnlyThisSource() {
        CheckpointTable table(*connection_, "cp_remove", "task1");
        table.ensureTable();
        auto point = at("mariadb-bin.000002:100");
        table.flush(kSource, {{{"s", "t"}, point}}, point, binlog::Location());
        table.flush("other-source", {{{"s", "t"}, point}}, point, binlog::Location());
        table.removeMeta(kSource);
        QVERIFY(table.load(kSource).isEmpty());
        QCOMPARE(table.load("other-source").tablePoints.size(), size_t(1));
        CheckpointTable missing(*connection_, "cp_remove", "no_such_task");
        missing.removeMeta(kSource);  // no table: nothing to do, no error
    }

    void oddMetaSchemaAndTaskNamesWork() {
        CheckpointTable table(*connection_, "meta `odd` schema", "task `x` with spaces");
        QCOMPARE(table.qualifiedName(),
                 std::string("`meta ``odd`` schema`.`task ``x`` with spaces_syncer_checkpoint`"));
        table.ensureTable();
        auto point = at("mariadb-bin.000002:100", "0-1-5");
        table.flush(kSource, {{{"s", "t"}, point}}, point, point);
        auto loaded = table.load(kSource);
        QCOMPARE(loaded.globalPoint, point);
        QCOMPARE(loaded.exitSafePoint, point);
        QCOMPARE(column(*connection_,
                        "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'meta `odd` schema' "
                        "AND TABLE_NAME = 'task `x` with spaces_syncer_checkpoint'"),
                 std::vector<std::string>{"1"});
    }

    void missingGlobalRowIsReportedNotGuessed() {
        CheckpointTable table(*connection_, "cp_noglobal", "task1");
        table.ensureTable();
        auto point = at("mariadb-bin.000002:100");
        table.flush(kSource, {{{"s", "t"}, point}}, point, binlog::Location());
        execute(*connection_, "DELETE FROM cp_noglobal.task1_syncer_checkpoint WHERE is_global = 1");
        try {
            table.load(kSource);
            QFAIL("table rows without a global row were loaded");
        } catch (const CheckpointTableError& e) {
            QVERIFY2(std::string(e.what()).find("no global row") != std::string::npos, e.what());
        }
    }

    void missingTableLoadsAsEmpty() {
        CheckpointTable table(*connection_, "cp_missing", "task1");
        QVERIFY(table.load(kSource).isEmpty());
    }

    void badInputIsRefusedAndWritesNothing() {
        CheckpointTable table(*connection_, "cp_roundtrip", "task1");
        table.ensureTable();
        auto point = at("mariadb-bin.000002:100");
        QVERIFY_THROWS_EXCEPTION(CheckpointTableError,
                                 table.flush(std::string(40, 'x'), {}, point, binlog::Location()));
        auto huge = at("mariadb-bin.000002:4294967296");
        table.removeMeta("huge");
        QVERIFY_THROWS_EXCEPTION(CheckpointTableError,
                                 table.flush("huge", {{{"s", "t"}, point}}, huge, binlog::Location()));
        QVERIFY(table.load("huge").isEmpty());
    }
};

QTEST_GUILESS_MAIN(CheckpointTableTest)
#include "test_checkpoint_table.moc"
