// Awkward names and values end to end (binlog -> decoder -> filters -> apply, DDL included): schema,
// table and column names with backticks, quotes, spaces, reserved words and unicode; values with
// quotes, backslashes, NUL bytes, emoji, and the binlog issue's types; inserts, updates by an awkward
// primary key, deletes, and an ALTER TABLE adding an awkward column. Afterwards both sides are equal.
#include <QtTest>

#include <QTemporaryDir>

#include <chrono>
#include <functional>
#include <thread>

#include "engine/source/upstream_connection.h"
#include "engine/task/task.h"
#include "tests/support/test_env.h"

using syncscope::source::UpstreamConnection;
using namespace syncscope;
using syncscope::test::waitFor;

namespace {

// `we"ird db`.`ta``ble ✓ sélect` and its columns, quoted as SQL wants them.
const std::string kSchema = "`we\"ird db`";
const std::string kTable = kSchema + ".`ta``ble ✓ sélect`";

const char* kCreate =
    " (`select` INT NOT NULL, `my key` VARCHAR(20) NOT NULL, `quo'te` VARCHAR(100), `ünï cødé` TEXT,"
    " `bytes\\` VARBINARY(32), `from` DECIMAL(20,6), `when` DATETIME(6), `j` JSON, `e` ENUM('a','b c','d''e'),"
    " `s` SET('x','y z'), `f` DOUBLE, `b` BIT(12), `t` TIME(3), `y` YEAR, `bl` BLOB,"
    " PRIMARY KEY (`select`, `my key`)) DEFAULT CHARSET=utf8mb4";

}  // namespace

class AwkwardNamesTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> down_;
    QTemporaryDir dir_;

    std::string dump(UpstreamConnection& server) {
        std::string out;
        for (const auto& row : server.query("SELECT * FROM " + kTable + " ORDER BY `select`, `my key`")) {
            for (const auto& value : row) {
                out += value ? "[" + *value + "]" : "NULL";
                out += ' ';
            }
            out += '\n';
        }
        return out;
    }

private slots:
    void init() {
        up_ = std::make_unique<UpstreamConnection>(test::engineSettings(test::upstreamRoot()));
        down_ = std::make_unique<UpstreamConnection>(test::engineSettings(test::downstreamRoot()));
        QVERIFY(dir_.isValid());
    }

    void awkwardNamesAndValuesReplicateExactly() {
        for (UpstreamConnection* server : {up_.get(), down_.get()}) {
            server->execute("SET NAMES utf8mb4");
            server->execute("SET SESSION sql_log_bin = 0");
            server->execute("DROP DATABASE IF EXISTS " + kSchema);
            server->execute("CREATE DATABASE " + kSchema + " DEFAULT CHARSET utf8mb4");
            server->execute("CREATE TABLE " + kTable + kCreate);
            server->execute("SET SESSION sql_log_bin = 1");
        }
        down_->execute("CREATE DATABASE IF NOT EXISTS dm_meta");
        down_->execute("DROP TABLE IF EXISTS dm_meta.awkward_syncer_checkpoint");

        task::TaskSetup setup;
        setup.taskName = "awkward";
        setup.sourceId = "replica-1";
        setup.upstream = test::engineSettings(test::upstreamReplication());
        setup.downstream = test::engineSettings(test::downstreamRoot());
        setup.syncer.workerCount = 4;
        setup.syncer.batch = 10;
        setup.syncer.multipleRows = true;
        setup.auditLogPath = dir_.filePath("awkward-audit.jsonl").toStdString();
        auto master = up_->query("SHOW MASTER STATUS");
        setup.metaBinlogName = *master.front()[0];
        setup.metaBinlogPos = std::stoull(*master.front()[1]);

        const std::string columns =
            " (`select`, `my key`, `quo'te`, `ünï cødé`, `bytes\\`, `from`, `when`, `j`, `e`, `s`, `f`, `b`, `t`, `y`, "
            "`bl`) ";
        up_->execute("INSERT INTO " + kTable + columns +
                     "VALUES (1, 'it''s', 'a \"quoted\" \\\\ back\\\\slash', 'emoji 😀🐬 and ünïcødé', "
                     "X'00FF0041', -12345678901234.123456, '2026-11-29 23:59:59.123456', '{\"k\": [1, \"two\", null]}',"
                     " 'b c', 'x,y z', -1.5e-300, b'101010101010', '-838:59:59.999', 2155, X'000102')");
        up_->execute("INSERT INTO " + kTable + columns +
                     "VALUES (2, 'nul\\0inside', CONCAT('tab\\t', CHAR(0), 'end'), '', '', 0, '1000-01-01 00:00:00', "
                     "'[]', 'd''e', '', 0, b'0', '00:00:00', 1901, '')");
        up_->execute("INSERT INTO " + kTable + columns +
                     "VALUES (3, ' lead and trail ', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
                     " NULL, NULL)");
        // Several rows in one event, then an update by the awkward key and a delete.
        up_->execute("INSERT INTO " + kTable +
                     " (`select`, `my key`, `quo'te`) VALUES (4, 'a', 'x'), (5, 'b', 'y'),"
                     " (6, 'c', '\\'')");
        up_->execute("UPDATE " + kTable + " SET `quo'te` = 'changed ''again''', `ünï cødé` = '✓' WHERE `select` = 1");
        up_->execute("UPDATE " + kTable + " SET `my key` = 'moved key' WHERE `select` = 4");
        up_->execute("DELETE FROM " + kTable + " WHERE `select` = 5");
        // A DDL with an awkward new column, then a row that uses it.
        up_->execute("ALTER TABLE " + kTable + " ADD COLUMN `new ``col`` ñ` VARCHAR(10) DEFAULT 'dflt'");
        up_->execute("INSERT INTO " + kTable + " (`select`, `my key`, `new ``col`` ñ`) VALUES (7, 'after ddl', 'n😀')");
        std::string upstreamRows = dump(*up_);

        task::Task running(setup);
        QVERIFY(running.start().accepted);
        bool equal = waitFor([&] {
            try {
                return dump(*down_) == upstreamRows;
            } catch (const std::exception&) {
                return false;  // the ALTER not applied yet: the column list differs
            }
        });
        auto status = running.status();
        QVERIFY2(equal, ("stage " + std::string(task::stageName(status->stage)) + ", error: " + status->lastError +
                         "\nupstream:\n" + upstreamRows + "downstream:\n" + dump(*down_))
                            .c_str());
        QCOMPARE(status->stage, task::Stage::Running);
        auto checksum = [&](UpstreamConnection& server) { return *server.query("CHECKSUM TABLE " + kTable)[0][1]; };
        QCOMPARE(checksum(*down_), checksum(*up_));
        QVERIFY(running.stop().accepted);
        running.waitUntilStopped();
    }
};

QTEST_GUILESS_MAIN(AwkwardNamesTest)
#include "test_awkward_names.moc"
