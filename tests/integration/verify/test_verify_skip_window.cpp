// `syncscope-cli checkpoints --verify` on DM's bug: a table point ahead of the global point, whose
// window's changes only partly reached the downstream. The window is decoded from the upstream's
// binlog, each row's final image checked: applied rows are equal, a skipped insert is missing, a
// skipped delete is "not deleted", a key change shows both sides, a row inserted and deleted in the
// window is equal (absent). --repair writes the final images, after which every row is equal.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <fstream>
#include <map>

#include "tests/integration/outage/engine_process.h"
#include "tests/integration/outage/outage_helpers.h"

using namespace syncscope::test;

namespace {

constexpr int kCliTimeoutMs = 60000;
const char* const kMeta = "verify_win_meta";

std::map<QString, QString> statesByKey(const QJsonObject& report) {
    std::map<QString, QString> states;
    for (const auto& window : report["window_verifications"].toArray()) {
        for (const auto& row : window.toObject()["verification"].toObject()["rows"].toArray()) {
            states[row.toObject()["key"].toObject()["id"].toString()] = row.toObject()["state"].toString();
        }
    }
    return states;
}

}  // namespace

class VerifySkipWindowTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    QStringList arguments(const QStringList& extra) {
        auto write = [&](const char* name, const std::string& password) {
            std::string path = dir_.filePath(name).toStdString();
            std::ofstream(path) << password << '\n';
            return QString::fromStdString(path);
        };
        return QStringList{"checkpoints",
                           "--target",
                           QString("127.0.0.1:%1").arg(downstreamRoot().port),
                           "--user",
                           "root",
                           "--password-file",
                           write("down.pw", downstreamRoot().password),
                           "--meta-schema",
                           kMeta,
                           "--upstream",
                           QString("127.0.0.1:%1").arg(upstreamReplication().port),
                           "--upstream-user",
                           QString::fromStdString(upstreamReplication().user),
                           "--upstream-password-file",
                           write("up.pw", upstreamReplication().password),
                           "--log-dir",
                           dir_.filePath("logs"),
                           "--verify",
                           "--json"} +
               extra;
    }

private slots:
    void skippedRowsOfTheWindowAreFoundAndRepaired() {
        auto up = connectTo(upstreamRoot());
        auto down = connectTo(downstreamRoot());
        for (auto* side : {up.get(), down.get()}) {
            side->execute("DROP DATABASE IF EXISTS verify_win");
            side->execute("CREATE DATABASE verify_win");
            side->execute("CREATE TABLE verify_win.t (id INT PRIMARY KEY, v VARCHAR(20), n INT NULL)");
            side->execute("INSERT INTO verify_win.t SELECT seq, CONCAT('v', seq), NULL FROM verify_win.seq_1_to_10");
        }
        auto before = up->query("SHOW MASTER STATUS").front();
        up->execute("INSERT INTO verify_win.t VALUES (11, 'eleven', 1), (12, 'twelve', NULL)");
        up->execute("UPDATE verify_win.t SET v = 'three', n = 3 WHERE id = 3");
        up->execute("DELETE FROM verify_win.t WHERE id = 4");
        up->execute("UPDATE verify_win.t SET id = 50 WHERE id = 5");
        up->execute("INSERT INTO verify_win.t VALUES (13, 'gone', NULL)");
        up->execute("DELETE FROM verify_win.t WHERE id = 13");
        auto after = up->query("SHOW MASTER STATUS").front();
        // The downstream got some of the window: 11 and the update of 3, nothing else.
        down->execute("INSERT INTO verify_win.t VALUES (11, 'eleven', 1)");
        down->execute("UPDATE verify_win.t SET v = 'three', n = 3 WHERE id = 3");

        down->execute(std::string("DROP DATABASE IF EXISTS ") + kMeta);
        down->execute(std::string("CREATE DATABASE ") + kMeta);
        down->execute(std::string("CREATE TABLE ") + kMeta +
                      ".dm_task_syncer_checkpoint (id VARCHAR(32) NOT NULL, cp_schema VARCHAR(128) NOT NULL, "
                      "cp_table VARCHAR(128) NOT NULL, binlog_name VARCHAR(128), binlog_pos INT UNSIGNED, binlog_gtid "
                      "TEXT, exit_safe_binlog_name VARCHAR(128) DEFAULT '', exit_safe_binlog_pos INT UNSIGNED DEFAULT "
                      "0, exit_safe_binlog_gtid TEXT, table_info JSON NOT NULL, is_global BOOLEAN, create_time "
                      "timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP, update_time timestamp NOT NULL DEFAULT "
                      "CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, UNIQUE KEY uk_id_schema_table (id, cp_schema, "
                      "cp_table))");
        down->execute(std::string("INSERT INTO ") + kMeta +
                      ".dm_task_syncer_checkpoint (id, cp_schema, cp_table, binlog_name, binlog_pos, binlog_gtid, "
                      "table_info, is_global) VALUES ('mysql-3306', '', '', '" +
                      *before[0] + "', " + *before[1] + ", '', 'null', 1), ('mysql-3306', 'verify_win', 't', '" +
                      *after[0] + "', " + *after[1] + ", '', 'null', 0)");

        CliResult found = runCli(arguments({}), kCliTimeoutMs);
        QVERIFY2(found.exitCode == 1, (found.out + found.err).c_str());
        QJsonObject report = QJsonDocument::fromJson(QByteArray::fromStdString(found.out)).object();
        std::map<QString, QString> expected{{"11", "equal"},      {"12", "missing"},    {"3", "equal"},
                                            {"4", "not deleted"}, {"5", "not deleted"}, {"50", "missing"},
                                            {"13", "equal"}};
        QCOMPARE(statesByKey(report), expected);

        CliResult repaired = runCli(arguments({"--repair"}), kCliTimeoutMs);
        QVERIFY2(repaired.exitCode == 1, (repaired.out + repaired.err).c_str());
        QJsonObject repair = QJsonDocument::fromJson(QByteArray::fromStdString(repaired.out))
                                 .object()["window_verifications"]
                                 .toArray()
                                 .first()
                                 .toObject()["repair"]
                                 .toObject();
        QCOMPARE(repair["still_wrong"].toInt(), 0);
        CliResult again = runCli(arguments({}), kCliTimeoutMs);
        QVERIFY2(again.exitCode == 0, (again.out + again.err).c_str());
        QCOMPARE(
            down->queryValue("SELECT CONCAT(v, '/', IFNULL(n, 'NULL')) FROM verify_win.t WHERE id = 50").value_or(""),
            std::string("v5/NULL"));
    }

    void cleanupTestCase() { connectTo(downstreamRoot())->execute(std::string("DROP DATABASE IF EXISTS ") + kMeta); }
};

QTEST_GUILESS_MAIN(VerifySkipWindowTest)
#include "test_verify_skip_window.moc"
