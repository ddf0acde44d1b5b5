// Safe mode on a users/orders schema with foreign keys, through the whole engine: `safe-mode: true`, the
// target session with foreign_key_checks=1, users with a second unique key (email) and orders that
// cascade on delete. Key-keeping updates of a user, child updates and inserts, a new user and a user's
// delete apply, and no order of a kept user goes; a change of a user's email (only REPLACE, which would
// cascade, could re-apply it) stops the task naming the row, the foreign key and why.
#include <QtTest>

#include <QTemporaryDir>

#include "tests/integration/outage/engine_process.h"
#include "tests/integration/outage/outage_helpers.h"
#include "tests/support/task_files.h"
#include "tests/support/test_env.h"

using nlohmann::json;
using namespace syncscope::test;

namespace {

const char* const kDatabase = "sfk";
constexpr int kStageTimeoutMs = 90000;

std::string contents(const ServerSettings& server) {
    try {
        auto connection = connectTo(server);
        std::string all;
        for (const char* query : {"SELECT id, email, IFNULL(note, '-') FROM sfk.users ORDER BY id",
                                  "SELECT id, user_id, amount FROM sfk.orders ORDER BY id"}) {
            for (const auto& row : connection->query(query)) {
                for (const auto& value : row) {
                    all += value.value_or("NULL") + " ";
                }
                all += "; ";
            }
            all += "| ";
        }
        return all;
    } catch (const std::exception& e) {
        return std::string("ERROR: ") + e.what();
    }
}

}  // namespace

class SafeModeForeignKeysTest : public QObject {
    Q_OBJECT

private slots:
    void aParentWithASecondUniqueKeyKeepsItsChildren_data() {
        QTest::addColumn<bool>("multipleRows");
        QTest::newRow("one statement per row") << false;
        QTest::newRow("multiple rows") << true;
    }

    void aParentWithASecondUniqueKeyKeepsItsChildren() {
        QFETCH(bool, multipleRows);
        for (const auto& server : {upstreamRoot(), downstreamRoot()}) {
            auto connection = connectTo(server);
            connection->execute("SET SESSION sql_log_bin = 0");
            connection->execute(std::string("DROP DATABASE IF EXISTS ") + kDatabase);
            connection->execute(std::string("CREATE DATABASE ") + kDatabase);
            connection->execute(
                "CREATE TABLE sfk.users (id INT PRIMARY KEY, email VARCHAR(64) NOT NULL, note VARCHAR(64), "
                "UNIQUE KEY uk_email (email))");
            connection->execute(
                "CREATE TABLE sfk.orders (id INT PRIMARY KEY, user_id INT NOT NULL, amount INT, CONSTRAINT fk_user "
                "FOREIGN KEY (user_id) REFERENCES sfk.users (id) ON DELETE CASCADE)");
            connection->execute("INSERT INTO sfk.users VALUES (1, 'a@x', NULL), (2, 'b@x', NULL), (3, 'c@x', NULL)");
            connection->execute("INSERT INTO sfk.orders VALUES (100, 1, 5), (101, 1, 6), (102, 2, 7), (103, 3, 8)");
        }
        connectTo(downstreamRoot())->execute("DROP DATABASE IF EXISTS dm_meta");
        auto up = connectTo(upstreamRoot());
        auto master = up->query("SHOW MASTER STATUS");

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        TaskFileOptions options;
        options.name = multipleRows ? "sfk-multi" : "sfk-single";
        options.binlogName = *master.front()[0];
        options.binlogPos = std::stoull(*master.front()[1]);
        options.multipleRows = multipleRows;
        options.syncerExtra = ", safe-mode: true";
        options.targetSession = "foreign_key_checks: 1";
        options.instanceExtra = "    block-allow-list: \"only-sfk\"\n";
        options.topLevelExtra = "block-allow-list:\n  only-sfk: {do-dbs: [\"sfk\"]}\n";
        TaskFiles files = writeTaskFiles(dir.path().toStdString(), options);
        std::string logDir = dir.filePath(QStringLiteral("logs")).toStdString();
        EngineProcess engine(files.task, files.source, logDir);
        QVERIFY2(engine.start(), engine.stderrText().c_str());
        QVERIFY2(waitFor([&] { return engine.stage() == "Running"; }, kStageTimeoutMs), engine.stderrText().c_str());

        up->execute("SET SESSION foreign_key_checks = 1");
        up->execute("UPDATE sfk.users SET note = 'vip' WHERE id = 1");          // keeps every unique value
        up->execute("UPDATE sfk.orders SET amount = 50 WHERE id = 100");        // a child's update
        up->execute("INSERT INTO sfk.users VALUES (4, 'd@x', 'new')");          // a new parent
        up->execute("INSERT INTO sfk.orders VALUES (104, 4, 9), (105, 2, 1)");  // children inserted
        up->execute("DELETE FROM sfk.users WHERE id = 3");                      // cascades order 103
        up->execute("UPDATE sfk.users SET note = NULL, id = id WHERE id IN (1, 2)");
        std::string upstream = contents(upstreamRoot());
        QVERIFY2(waitFor([&] { return contents(downstreamRoot()) == upstream; }, kStageTimeoutMs),
                 ("downstream " + contents(downstreamRoot()) + "\nupstream " + upstream + "\n" +
                  engine.status().dump(2) + "\n" + readWholeFile(logDir + "/" + options.name + ".log"))
                     .c_str());
        json status = engine.status();
        QCOMPARE(status.value("stage", std::string()), std::string("Running"));
        QVERIFY(status.value("safe_mode", false));
        QVERIFY2(status["failed_event"].is_null(), status.dump(2).c_str());
        QVERIFY2(upstream.find("101 1 6") != std::string::npos, upstream.c_str());  // the kept user's orders

        // An email changes: only REPLACE could re-apply it, and its delete would cascade.
        up->execute("UPDATE sfk.users SET email = 'b2@x' WHERE id = 2");
        QVERIFY2(waitFor([&] { return engine.stage() == "Error"; }, kStageTimeoutMs), engine.status().dump(2).c_str());
        std::string error = engine.status().value("last_error", std::string());
        qInfo("%s", error.c_str());
        QVERIFY2(error.find("changes a unique value") != std::string::npos, error.c_str());
        QVERIFY2(error.find("fk_user") != std::string::npos, error.c_str());
        QVERIFY2(error.find("sfk.users") != std::string::npos, error.c_str());
        QCOMPARE(connectTo(downstreamRoot())->queryValue("SELECT COUNT(*) FROM sfk.orders WHERE user_id = 2"),
                 std::optional<std::string>("2"));  // no child went
        engine.terminate();
    }
};

QTEST_GUILESS_MAIN(SafeModeForeignKeysTest)
#include "test_safe_mode_foreign_keys.moc"
