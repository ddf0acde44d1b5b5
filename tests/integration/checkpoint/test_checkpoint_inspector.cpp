// Checkpoint inspection against the private MariaDB pair, on checkpoint tables written BY HAND in
// DM's shape (as a DM deployment leaves them): a table point ahead of the global point is flagged
// with the window a resume would skip, a point in a purged file, a point beyond the upstream and a
// missing global row are flagged, an older DM table shape is read, nothing is written; and
// `syncscope-cli checkpoints` prints the same with the documented exit codes.
#include <QtTest>

#include <cppconn/connection.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

#include "engine/apply/applied_marks.h"
#include "engine/apply/downstream_connection.h"
#include "engine/inspect/checkpoint_inspector.h"
#include "engine/source/upstream_connection.h"
#include "tests/support/test_env.h"

using namespace syncscope;
using namespace syncscope::inspect;

namespace {

const char* const kMeta = "insp_meta";
const char* const kSource = "mysql-3306";

ServerSettings toSettings(const test::ServerSettings& s) {
    ServerSettings settings;
    settings.host = s.host;
    settings.port = s.port;
    settings.user = s.user;
    settings.password = s.password;
    return settings;
}

void execute(sql::Connection& connection, const std::string& sql) {
    std::unique_ptr<sql::Statement> statement(connection.createStatement());
    statement->execute(sql);
}

std::string value(sql::Connection& connection, const std::string& sql) {
    std::unique_ptr<sql::Statement> statement(connection.createStatement());
    std::unique_ptr<sql::ResultSet> rows(statement->executeQuery(sql));
    return rows->next() ? std::string(rows->getString(1)) : std::string();
}

const InspectedSource* findSource(const InspectedCheckpointTable& table, const std::string& id) {
    for (const auto& source : table.sources) {
        if (source.sourceId == id) {
            return &source;
        }
    }
    return nullptr;
}

const InspectedPoint* findTable(const InspectedSource& source, const std::string& table) {
    for (const auto& point : source.tables) {
        if (point.row.table == table) {
            return &point;
        }
    }
    return nullptr;
}

std::vector<AnomalyKind> kinds(const std::vector<CheckpointAnomaly>& anomalies) {
    std::vector<AnomalyKind> out;
    for (const auto& anomaly : anomalies) {
        out.push_back(anomaly.kind);
    }
    return out;
}

}  // namespace

class CheckpointInspectorTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<sql::Connection> downstream_;
    UpstreamState before_;
    UpstreamState upstream_;
    std::string passwordFile_;

    std::string file(uint64_t number) const {
        auto base = std::string(upstream_.current.position().baseName());
        char suffix[16];
        std::snprintf(suffix, sizeof suffix, ".%06llu", static_cast<unsigned long long>(number));
        return base + suffix;
    }

    InspectionRequest request() const {
        InspectionRequest request;
        request.target = toSettings(test::downstreamRoot());
        request.metaSchema = kMeta;
        request.upstream = toSettings(test::upstreamRoot());
        request.upstreamSourceId = kSource;
        return request;
    }

    struct CliResult {
        int exitCode = -1;
        QByteArray out;
        QByteArray err;
    };

    static CliResult runCli(const QStringList& arguments) {
        QProcess cli;
        cli.start(QString(SYNCSCOPE_BINARY_DIR) + "/bin/syncscope-cli", QStringList{"checkpoints"} + arguments);
        constexpr int kCliTimeoutMs = 30000;
        if (!cli.waitForFinished(kCliTimeoutMs)) {
            cli.kill();
            cli.waitForFinished();
        }
        return {cli.exitStatus() == QProcess::NormalExit ? cli.exitCode() : -1, cli.readAllStandardOutput(),
                cli.readAllStandardError()};
    }

private slots:
    void initTestCase() {
        source::UpstreamConnection upstream(toSettings(test::upstreamRoot()));
        // Some binlog bytes so that the current position is well past the file's header.
        upstream.execute("CREATE DATABASE IF NOT EXISTS insp_up");
        upstream.execute("CREATE TABLE IF NOT EXISTS insp_up.t (id INT PRIMARY KEY)");
        upstream.execute("CREATE TABLE IF NOT EXISTS insp_up.other (id INT PRIMARY KEY)");
        upstream.execute("DELETE FROM insp_up.t");
        upstream.execute("DELETE FROM insp_up.other");
        // The window: three transactions, two of them rows events of insp_up.t.
        before_ = readUpstreamState(upstream);
        upstream.execute("INSERT INTO insp_up.t VALUES (1), (2), (3)");
        upstream.execute("INSERT INTO insp_up.other VALUES (1)");
        upstream.execute("INSERT INTO insp_up.t VALUES (4)");
        upstream_ = readUpstreamState(upstream);
        QCOMPARE(upstream_.current.position().file(), before_.current.position().file());
        QVERIFY(!upstream_.files.empty());

        downstream_ = apply::connectDownstream(toSettings(test::downstreamRoot()));
        execute(*downstream_, std::string("DROP SCHEMA IF EXISTS ") + kMeta);
        execute(*downstream_, std::string("CREATE SCHEMA ") + kMeta);
        // DM v2's table, as dm/syncer/checkpoint.go creates it.
        execute(*downstream_, std::string("CREATE TABLE ") + kMeta +
                                  ".dm_task_syncer_checkpoint (id VARCHAR(32) NOT NULL, cp_schema VARCHAR(128) NOT "
                                  "NULL, cp_table VARCHAR(128) NOT NULL, binlog_name VARCHAR(128), binlog_pos INT "
                                  "UNSIGNED, binlog_gtid TEXT, exit_safe_binlog_name VARCHAR(128) DEFAULT '', "
                                  "exit_safe_binlog_pos INT UNSIGNED DEFAULT 0, exit_safe_binlog_gtid TEXT, "
                                  "table_info JSON NOT NULL, is_global BOOLEAN, create_time timestamp NOT NULL "
                                  "DEFAULT CURRENT_TIMESTAMP, update_time timestamp NOT NULL DEFAULT "
                                  "CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, UNIQUE KEY uk_id_schema_table "
                                  "(id, cp_schema, cp_table))");
        const std::string current = upstream_.current.position().file();
        const uint64_t currentNumber = upstream_.current.position().fileNumber();
        const std::string tableInfo = R"('{"id":45,"name":{"O":"test1","L":"test1"},"cols":[],"index_info":null}')";
        const std::string insert = std::string("INSERT INTO ") + kMeta +
                                   ".dm_task_syncer_checkpoint (id, cp_schema, cp_table, binlog_name, binlog_pos, "
                                   "binlog_gtid, exit_safe_binlog_name, exit_safe_binlog_pos, exit_safe_binlog_gtid, "
                                   "table_info, is_global) VALUES ";
        const std::string beforePos = std::to_string(before_.current.position().offset());
        const std::string afterPos = std::to_string(upstream_.current.position().offset());
        const std::string beforeGtid = before_.current.gtidText();
        const std::string afterGtid = upstream_.current.gtidText();
        execute(*downstream_, insert + "('mysql-3306', '', '', '" + current + "', " + beforePos + ", '" + beforeGtid +
                                  "', '', 0, '', 'null', 1), " + "('mysql-3306', 'insp_up', 't', '" + current + "', " +
                                  afterPos + ", '" + afterGtid + "', '', 0, '', " + tableInfo + ", 0), " +
                                  "('mysql-3306', 'test', 'test2', '" + current + "', " + beforePos + ", '" +
                                  beforeGtid + "', '', 0, '', " + tableInfo + ", 0), " +
                                  "('mysql-3306', 'test', 'purged', '" + file(0) + "', 4, '', '', 0, '', " + tableInfo +
                                  ", 0), " + "('mysql-3306', 'test', 'future', '" + file(currentNumber + 3) +
                                  "', 4, '', '', 0, '', " + tableInfo + ", 0), " + "('orphan', 'test', 'test1', '" +
                                  current + "', 4, '', '', 0, '', " + tableInfo + ", 0)");
        // DM v1.0's shape: no GTID, exit-safe or table_info columns.
        execute(*downstream_, std::string("CREATE TABLE ") + kMeta +
                                  ".old_task_syncer_checkpoint (id VARCHAR(32) NOT NULL, cp_schema VARCHAR(128) NOT "
                                  "NULL, cp_table VARCHAR(128) NOT NULL, binlog_name VARCHAR(128) DEFAULT NULL, "
                                  "binlog_pos INT(10) UNSIGNED DEFAULT NULL, is_global TINYINT(1) DEFAULT NULL, "
                                  "create_time timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP, update_time timestamp "
                                  "NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, UNIQUE KEY "
                                  "uk_id_schema_table (id, cp_schema, cp_table))");
        execute(*downstream_, std::string("INSERT INTO ") + kMeta + ".old_task_syncer_checkpoint (id, cp_schema, " +
                                  "cp_table, binlog_name, binlog_pos, is_global) VALUES ('old-src', '', '', '" +
                                  current + "', 4, 1)");
        execute(*downstream_, std::string("CREATE TABLE ") + kMeta + ".notes (x INT)");
        // SyncScope's applied marks beside dm_task's table (as the engine creates it): a keyless table's mark
        // of source mysql-3306 in the upstream's current file, and an unreadable one of source 'orphan'.
        apply::AppliedMarksTable marks{kMeta, "dm_task"};
        execute(*downstream_, marks.createSql());
        execute(*downstream_, "INSERT INTO " + marks.qualifiedName() +
                                  " (id, cp_schema, cp_table, binlog_name, binlog_pos, row_in_event) VALUES "
                                  "('mysql-3306', 'insp_up', 'nokey', '" +
                                  current + "', " + afterPos + ", 7), ('orphan', 'test', 'nokey', 'not a file', 4, 0)");

        passwordFile_ = test::outputDir("checkpoint_inspector") + "/downstream-password";
        QFile password(QString::fromStdString(passwordFile_));
        QVERIFY(password.open(QIODevice::WriteOnly | QIODevice::Truncate));
        password.write(QByteArray::fromStdString(test::downstreamRoot().password + "\n"));
    }

    void cleanupTestCase() {
        if (downstream_) {
            execute(*downstream_, std::string("DROP SCHEMA IF EXISTS ") + kMeta);
        }
    }

    void tableAheadOfGlobalIsFlaggedWithTheSkipWindow() {
        std::string checksumBefore =
            value(*downstream_, std::string("CHECKSUM TABLE ") + kMeta + ".dm_task_syncer_checkpoint");
        InspectionReport report = inspectCheckpoints(request());
        QCOMPARE(report.tables.size(), size_t(2));
        QCOMPARE(report.tables[0].taskName, std::string("dm_task"));
        const InspectedSource* source = findSource(report.tables[0], kSource);
        QVERIFY(source != nullptr);
        QVERIFY(source->checkedAgainstUpstream);
        QVERIFY(source->global.has_value());
        QVERIFY(source->global->anomalies.empty());

        const InspectedPoint* ahead = findTable(*source, "t");
        QVERIFY(ahead != nullptr);
        QCOMPARE(kinds(ahead->anomalies), std::vector<AnomalyKind>{AnomalyKind::TableAheadOfGlobal});
        const SkipWindow& window = *ahead->anomalies[0].skipWindow;
        QCOMPARE(window.from.position(), before_.current.position());
        QCOMPARE(window.to.position(), upstream_.current.position());
        QCOMPARE(window.bytes, std::optional<int64_t>(static_cast<int64_t>(upstream_.current.position().offset() -
                                                                           before_.current.position().offset())));
        QCOMPARE(window.transactions, std::optional<uint64_t>(3));
        // Counted on the upstream's binlog: every event of the three transactions, two rows events of insp_up.t.
        QVERIFY(window.events.has_value());
        QVERIFY2(*window.events >= 12, std::to_string(*window.events).c_str());
        QCOMPARE(window.tableRowsEvents, std::optional<uint64_t>(2));
        QVERIFY(!window.eventsCapped);
        const std::string& message = ahead->anomalies[0].message;
        QVERIFY2(message.find("2 of them rows events of this table") != std::string::npos, message.c_str());
        QVERIFY2(message.find("3 transactions") != std::string::npos, message.c_str());
        QCOMPARE(ahead->row.tableInfo.find("\"test1\"") != std::string::npos, true);

        QVERIFY(findTable(*source, "test2")->anomalies.empty());
        QCOMPARE(kinds(findTable(*source, "purged")->anomalies),
                 std::vector<AnomalyKind>{AnomalyKind::FileNotOnUpstream});
        QCOMPARE(findTable(*source, "purged")->placement, std::optional(binlog::AxisPlacement::Purged));
        auto future = kinds(findTable(*source, "future")->anomalies);
        QVERIFY(std::find(future.begin(), future.end(), AnomalyKind::BeyondUpstream) != future.end());
        QVERIFY(std::find(future.begin(), future.end(), AnomalyKind::TableAheadOfGlobal) != future.end());

        const InspectedSource* orphan = findSource(report.tables[0], "orphan");
        QVERIFY(orphan != nullptr);
        QCOMPARE(kinds(orphan->anomalies), std::vector<AnomalyKind>{AnomalyKind::MissingGlobalRow});
        QVERIFY(!orphan->checkedAgainstUpstream);

        // Read-only: the table is unchanged.
        QCOMPARE(value(*downstream_, std::string("CHECKSUM TABLE ") + kMeta + ".dm_task_syncer_checkpoint"),
                 checksumBefore);
    }

    void olderDmTableShapeIsRead() {
        InspectionReport report = inspectCheckpoints(request());
        const auto& old = report.tables[1];
        QCOMPARE(old.tableName, std::string("old_task_syncer_checkpoint"));
        QVERIFY2(old.problem.empty(), old.problem.c_str());
        QCOMPARE(old.sources.size(), size_t(1));
        QCOMPARE(old.sources[0].global->location.position().offset(), 4ULL);
        QCOMPARE(old.anomalyCount(), size_t(0));
    }

    void oneTaskAndMissingNamesAreClearErrors() {
        auto only = request();
        only.task = "dm_task";
        QCOMPARE(inspectCheckpoints(only).tables.size(), size_t(1));
        only.task = "no_such_task";
        try {
            inspectCheckpoints(only);
            QFAIL("a missing task table was not reported");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find("no_such_task_syncer_checkpoint") != std::string::npos, e.what());
        }
        auto noSchema = request();
        noSchema.metaSchema = "no_such_meta";
        try {
            inspectCheckpoints(noSchema);
            QFAIL("a missing meta schema was not reported");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find("no_such_meta") != std::string::npos, e.what());
        }
    }

    void cliPrintsJsonWithTheFlags() {
        auto target = test::downstreamRoot();
        CliResult cli = runCli({"--target", QString::fromStdString(target.host + ":" + std::to_string(target.port)),
                                "--user", "root", "--password-file", QString::fromStdString(passwordFile_),
                                "--meta-schema", kMeta, "--task", "dm_task", "--json"});
        QCOMPARE(cli.exitCode, 0);
        QJsonParseError error;
        QJsonDocument document = QJsonDocument::fromJson(cli.out, &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QJsonObject root = document.object();
        QCOMPARE(root["tables"].toArray().size(), 1);
        QJsonArray sources = root["tables"].toArray()[0].toObject()["sources"].toArray();
        bool flaggedTest1 = false;
        for (const auto& source : sources) {
            for (const auto& point : source.toObject()["tables"].toArray()) {
                auto object = point.toObject();
                if (object["table"].toString() == "t" && object["anomalies"].toArray().size() == 1) {
                    auto anomaly = object["anomalies"].toArray()[0].toObject();
                    auto window = anomaly["skip_window"].toObject();
                    flaggedTest1 = anomaly["kind"].toString() == "table-ahead-of-global" &&
                                   window["from"].toObject()["binlog_pos"].toInteger() ==
                                       static_cast<qint64>(before_.current.position().offset()) &&
                                   window["transactions"].toInt() == 3;
                }
            }
        }
        QVERIFY(flaggedTest1);
        // Without --upstream: ahead of global (t, future) and the missing global row.
        QCOMPARE(root["anomalies"].toInt(), 3);
    }

    void appliedMarksAreListedPerSource() {
        InspectionReport report = inspectCheckpoints(request());
        const InspectedSource* source = findSource(report.tables[0], kSource);
        QVERIFY(source != nullptr);
        QVERIFY2(source->appliedMarksProblem.empty(), source->appliedMarksProblem.c_str());
        QCOMPARE(source->appliedMarks.size(), size_t(1));
        const InspectedAppliedMark& mark = source->appliedMarks[0];
        QCOMPARE(mark.schema, std::string("insp_up"));
        QCOMPARE(mark.table, std::string("nokey"));
        QCOMPARE(mark.event, upstream_.current.position());
        QCOMPARE(mark.row, uint32_t(7));
        QCOMPARE(mark.placement, std::optional(binlog::AxisPlacement::OnAxis));
        QVERIFY(mark.axisBytes.has_value());
        // An unreadable mark is said on its source and stops nothing; marks are not anomalies.
        const InspectedSource* orphan = findSource(report.tables[0], "orphan");
        QVERIFY(orphan != nullptr);
        QVERIFY(orphan->appliedMarks.empty());
        QVERIFY2(orphan->appliedMarksProblem.find("not a file") != std::string::npos,
                 orphan->appliedMarksProblem.c_str());
        QVERIFY2(orphan->appliedMarksProblem.find("dm_task_syncscope_applied") != std::string::npos,
                 orphan->appliedMarksProblem.c_str());
        // The old DM table has no marks table: no marks, no problem.
        QVERIFY(report.tables[1].sources[0].appliedMarks.empty());
        QVERIFY(report.tables[1].sources[0].appliedMarksProblem.empty());

        auto target = test::downstreamRoot();
        QString address = QString::fromStdString(target.host + ":" + std::to_string(target.port));
        CliResult text = runCli({"--target", address, "--user", "root", "--password-file",
                                 QString::fromStdString(passwordFile_), "--meta-schema", kMeta, "--task", "dm_task"});
        QCOMPARE(text.exitCode, 0);
        const QByteArray expected = QByteArray("applied    insp_up.nokey  ") +
                                    QByteArray::fromStdString(upstream_.current.position().file()) + ":" +
                                    QByteArray::number(qulonglong(upstream_.current.position().offset())) + " row 7";
        QVERIFY2(text.out.contains(expected), text.out.constData());
        QVERIFY2(text.out.contains("applied marks unreadable"), text.out.constData());

        CliResult json =
            runCli({"--target", address, "--user", "root", "--password-file", QString::fromStdString(passwordFile_),
                    "--meta-schema", kMeta, "--task", "dm_task", "--json"});
        QCOMPARE(json.exitCode, 0);
        QJsonArray sources =
            QJsonDocument::fromJson(json.out).object()["tables"].toArray()[0].toObject()["sources"].toArray();
        bool found = false;
        for (const auto& item : sources) {
            QJsonObject object = item.toObject();
            if (object["source_id"].toString() == kSource) {
                QJsonArray marksJson = object["applied_marks"].toArray();
                QCOMPARE(marksJson.size(), 1);
                QJsonObject first = marksJson[0].toObject();
                QCOMPARE(first["table"].toString(), QString("nokey"));
                QCOMPARE(first["row_in_event"].toInt(), 7);
                QCOMPARE(first["binlog_pos"].toInteger(), qint64(upstream_.current.position().offset()));
                found = true;
            }
        }
        QVERIFY(found);
    }

    void cliExitCodes() {
        auto target = test::downstreamRoot();
        QString address = QString::fromStdString(target.host + ":" + std::to_string(target.port));
        QCOMPARE(runCli({"--target", address}).exitCode, 2);
        QCOMPARE(runCli({"--target", "nohostport", "--user", "root", "--password-file", "x"}).exitCode, 2);
        QCOMPARE(runCli({"--bogus"}).exitCode, 2);

        QString wrongPassword = QString::fromStdString(test::outputDir("checkpoint_inspector") + "/wrong-password");
        QFile file(wrongPassword);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write("not-the-password-4711\n");
        file.close();
        CliResult denied = runCli({"--target", address, "--user", "root", "--password-file", wrongPassword});
        QCOMPARE(denied.exitCode, 1);
        QByteArray stderrText = denied.err;
        QVERIFY2(stderrText.contains("1045"), stderrText.constData());
        QVERIFY2(!stderrText.contains("not-the-password-4711"), stderrText.constData());

        CliResult text = runCli({"--target", address, "--user", "root", "--password-file",
                                 QString::fromStdString(passwordFile_), "--meta-schema", kMeta});
        QCOMPARE(text.exitCode, 0);
        QByteArray out = text.out;
        QVERIFY2(out.contains("table-ahead-of-global"), out.constData());
        QVERIFY2(out.contains("missing-global-row"), out.constData());

        QString upstreamPassword =
            QString::fromStdString(test::outputDir("checkpoint_inspector") + "/upstream-password");
        QFile upstreamFile(upstreamPassword);
        QVERIFY(upstreamFile.open(QIODevice::WriteOnly | QIODevice::Truncate));
        upstreamFile.write(QByteArray::fromStdString(test::upstreamRoot().password));
        upstreamFile.close();
        auto up = test::upstreamRoot();
        CliResult withUpstream = runCli(
            {"--target", address, "--user", "root", "--password-file", QString::fromStdString(passwordFile_),
             "--meta-schema", kMeta, "--task", "dm_task", "--upstream",
             QString::fromStdString(up.host + ":" + std::to_string(up.port)), "--upstream-user",
             QString::fromStdString(up.user), "--upstream-password-file", upstreamPassword, "--source-id", kSource});
        QCOMPARE(withUpstream.exitCode, 0);
        QVERIFY2(withUpstream.out.contains("2 of them rows events of this table"), withUpstream.out.constData());
        QVERIFY2(withUpstream.out.contains("file-not-on-upstream"), withUpstream.out.constData());
        QVERIFY2(withUpstream.out.contains("beyond-upstream"), withUpstream.out.constData());
    }
};

QTEST_GUILESS_MAIN(CheckpointInspectorTest)
#include "test_checkpoint_inspector.moc"
