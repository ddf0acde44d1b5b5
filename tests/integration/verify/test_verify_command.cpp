// `syncscope-cli verify` against the test pair: equal tables verify equal; differences injected
// downstream (deleted, extra and changed rows; an integer, a text and a composite key; NULLs; bytes;
// a table without a key) are found exactly, and pt-table-sync --print (Percona Toolkit, the oracle)
// finds the same rows; --repair makes the tables equal, so that a second verify exits 0 and
// pt-table-sync prints nothing; bad input (a table missing downstream, a missing column, a different
// key, an unreachable server) fails with a message and exit 2, never a pass.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <set>

#include "tests/integration/outage/engine_process.h"
#include "tests/integration/verify/pt_table_sync.h"
#include "tests/integration/verify/verify_fixture.h"
#include "tests/support/task_files.h"
#include "tests/support/test_env.h"

using namespace syncscope;
using namespace syncscope::test;

namespace {

constexpr int kCliTimeoutMs = 120000;
constexpr int kExitEqual = 0;
constexpr int kExitDifferent = 1;
constexpr int kExitError = 2;
const char* const kAnyBinlog = "mariadb-bin.000001";  // the tasks' meta: verify never reads it

QJsonObject jsonOf(const CliResult& run) {
    return QJsonDocument::fromJson(QByteArray::fromStdString(run.out)).object();
}

QString textOf(const CliResult& run) {
    return QString::fromStdString(run.err + run.out);
}

const std::map<std::string, std::vector<std::string>> kKeys = {
    {"verify_it.orders", {"id"}},
    {"verify_it.people", {"code"}},
    {"verify_it.order_lines", {"order_id", "line_no"}},
};

// Every keyed difference of a verify --json answer, in pt-table-sync's terms.
std::multiset<PtFinding> keyedFindings(const QJsonObject& report) {
    std::multiset<PtFinding> findings;
    for (const auto& tableValue : report["tables"].toArray()) {
        QJsonObject table = tableValue.toObject();
        std::string name = table["downstream"].toString().toStdString();
        if (table["keyless"].toBool() || !kKeys.count(name)) {
            continue;
        }
        for (const auto& differenceValue : table["differences"].toArray()) {
            QJsonObject difference = differenceValue.toObject();
            QJsonObject key = difference["key"].toObject();
            std::string text;
            for (const auto& column : kKeys.at(name)) {
                QJsonValue value = key[QString::fromStdString(column)];
                text += (text.empty() ? "" : ", ") + column + "=" +
                        (value.isNull() ? std::string("NULL") : value.toString().toStdString());
            }
            findings.insert({name, difference["kind"].toString().toStdString(), text});
        }
    }
    return findings;
}

std::string describe(const std::multiset<PtFinding>& findings) {
    std::string text;
    for (const auto& finding : findings) {
        text += "  " + finding.table + " " + finding.kind + " (" + finding.key + ")\n";
    }
    return text;
}

QJsonObject tableNamed(const QJsonObject& report, const QString& downstream) {
    for (const auto& table : report["tables"].toArray()) {
        if (table.toObject()["downstream"].toString() == downstream) {
            return table.toObject();
        }
    }
    return {};
}

}  // namespace

class VerifyCommandTest : public QObject {
    Q_OBJECT

    std::unique_ptr<VerifyFixture> fixture_;
    TaskFiles files_;
    QString dir_;

    QStringList verifyArguments(const QStringList& extra = {}) const {
        QStringList arguments{"verify",    QString::fromStdString(files_.task),
                              "--source",  QString::fromStdString(files_.source),
                              "--log-dir", dir_ + "/logs"};
        return arguments + extra;
    }

    TaskFiles taskFilesFor(const std::string& name, const std::string& database, const std::string& extraTop = "",
                           const std::string& extraInstance = "") {
        TaskFileOptions options;
        options.name = name;
        options.binlogName = kAnyBinlog;
        options.instanceExtra = "    block-allow-list: \"only\"\n" + extraInstance;
        options.topLevelExtra = "block-allow-list:\n  only: {do-dbs: [\"" + database + "\"]}\n" + extraTop;
        return writeTaskFiles(dir_.toStdString(), options);
    }

    // The differences the tests inject downstream, as pt-table-sync reports them.
    static std::multiset<PtFinding> injected() {
        return {
            {"verify_it.orders", "missing", "id=5"},
            {"verify_it.orders", "missing", "id=10000"},
            {"verify_it.orders", "missing", "id=19999"},
            {"verify_it.orders", "extra", "id=0"},
            {"verify_it.orders", "extra", "id=20001"},
            {"verify_it.orders", "extra", "id=20002"},
            {"verify_it.orders", "different", "id=77"},
            {"verify_it.orders", "different", "id=78"},
            {"verify_it.orders", "different", "id=70"},
            {"verify_it.orders", "different", "id=15000"},
            {"verify_it.people", "missing", "code=it's"},
            {"verify_it.people", "extra", "code=zz-extra"},
            {"verify_it.people", "different", "code=naïve ☃"},
            {"verify_it.people", "different", "code=p30"},
            {"verify_it.order_lines", "missing", "order_id=100, line_no=1"},
            {"verify_it.order_lines", "extra", "order_id=100, line_no=7"},
            {"verify_it.order_lines", "different", "order_id=200, line_no=2"},
            {"verify_it.order_lines", "different", "order_id=3000, line_no=1"},
        };
    }

    void injectDifferences() {
        const std::string db = VerifyFixture::kDatabase;
        fixture_->downstream("DELETE FROM " + db + ".orders WHERE id IN (5, 10000, 19999)");
        fixture_->downstream("INSERT INTO " + db +
                             ".orders VALUES (0, 'x', 1, NULL, '2024-01-01'), (20001, 'y', 2, 'z', '2024-01-01'), "
                             "(20002, 'z', NULL, NULL, '2024-01-02')");
        fixture_->downstream("UPDATE " + db + ".orders SET amount = amount + 0.01 WHERE id = 77");
        fixture_->downstream("UPDATE " + db + ".orders SET note = NULL WHERE id = 78");  // a value became NULL
        fixture_->downstream("UPDATE " + db + ".orders SET note = '' WHERE id = 70");    // NULL became ''
        fixture_->downstream("UPDATE " + db +
                             ".orders SET created = created + INTERVAL 1 MICROSECOND WHERE id = 15000");
        fixture_->downstream("DELETE FROM " + db + ".people WHERE code = 'it''s'");
        fixture_->downstream("INSERT INTO " + db + ".people VALUES ('zz-extra', 'extra', NULL)");
        fixture_->downstream("UPDATE " + db + ".people SET nick = NULL WHERE code = 'naïve ☃'");
        fixture_->downstream("UPDATE " + db + ".people SET nick = 'n30' WHERE code = 'p30'");  // NULL became a value
        fixture_->downstream("DELETE FROM " + db + ".order_lines WHERE order_id = 100 AND line_no = 1");
        fixture_->downstream("INSERT INTO " + db + ".order_lines VALUES (100, 7, 0x00, NULL)");
        fixture_->downstream("UPDATE " + db + ".order_lines SET sku = 0x0001FF WHERE order_id = 200 AND line_no = 2");
        fixture_->downstream("UPDATE " + db + ".order_lines SET qty = NULL WHERE order_id = 3000 AND line_no = 1");
        fixture_->downstream("DELETE FROM " + db + ".audit_trail WHERE message = 'a' LIMIT 1");
        fixture_->downstream("INSERT INTO " + db + ".audit_trail VALUES ('b', 2), ('d', 4)");
    }

private slots:
    void initTestCase() {
        dir_ = QString::fromStdString(outputDir("verify"));
        fixture_ = std::make_unique<VerifyFixture>();
        fixture_->createEqualTables();
        files_ = taskFilesFor("verify_it_task", VerifyFixture::kDatabase);
    }

    void equalTablesVerifyEqual() {
        CliResult run = runCli(verifyArguments({"--json"}), kCliTimeoutMs);
        QVERIFY2(run.exitCode == kExitEqual, qPrintable(textOf(run)));
        QJsonObject report = jsonOf(run);
        QCOMPARE(report["tables"].toArray().size(), 4);
        QCOMPARE(report["differences"].toInt(), 0);
        QCOMPARE(tableNamed(report, "verify_it.orders")["rows_compared"].toInt(), VerifyFixture::kOrders);
        QVERIFY(!tableNamed(report, "verify_it.orders")["verified_at"].isNull());
        QVERIFY(tableNamed(report, "verify_it.audit_trail")["keyless"].toBool());
        PtRun pt = runPtTableSync(VerifyFixture::kDatabase, kKeys);
        QVERIFY2(pt.exitCode == 0 && pt.out.trimmed().isEmpty(), qPrintable(pt.err + pt.out));
    }

    void injectedDifferencesAreFoundExactlyAndPtTableSyncAgrees() {
        injectDifferences();
        CliResult run = runCli(verifyArguments({"--json"}), kCliTimeoutMs);
        QVERIFY2(run.exitCode == kExitDifferent, qPrintable(textOf(run)));
        QJsonObject report = jsonOf(run);
        auto found = keyedFindings(report);
        QVERIFY2(found == injected(),
                 ("verify found:\n" + describe(found) + "injected:\n" + describe(injected())).c_str());

        // The differing columns are named, with both values.
        QJsonObject orders = tableNamed(report, "verify_it.orders");
        bool sawCreated = false;
        for (const auto& value : orders["differences"].toArray()) {
            QJsonObject difference = value.toObject();
            if (difference["key"].toObject()["id"].toString() == "15000") {
                QCOMPARE(difference["differing_columns"].toArray(), QJsonArray({"created"}));
                QCOMPARE(difference["upstream"].toObject()["created"].toString(),
                         QString("2024-01-01 04:10:00.015000"));
                QCOMPARE(difference["downstream"].toObject()["created"].toString(),
                         QString("2024-01-01 04:10:00.015001"));
                sawCreated = true;
            }
            if (difference["key"].toObject()["id"].toString() == "78") {
                QVERIFY(difference["downstream"].toObject()["note"].isNull());
            }
        }
        QVERIFY(sawCreated);

        // The table without a key: by counts of equal rows.
        QJsonObject trail = tableNamed(report, "verify_it.audit_trail");
        std::set<std::string> trailFindings;
        for (const auto& value : trail["differences"].toArray()) {
            QJsonObject difference = value.toObject();
            QJsonObject row =
                difference[difference["kind"].toString() == "extra" ? "downstream" : "upstream"].toObject();
            trailFindings.insert(difference["kind"].toString().toStdString() + " " +
                                 row["message"].toString().toStdString() + " x" +
                                 std::to_string(difference["count"].toInt()));
        }
        QCOMPARE(trailFindings, (std::set<std::string>{"missing a x1", "extra b x1", "extra d x1"}));

        PtRun pt = runPtTableSync(VerifyFixture::kDatabase, kKeys, {"--tables", "orders,people,order_lines"});
        QVERIFY2(pt.exitCode == 2 || pt.exitCode == 0, qPrintable(pt.err));
        QVERIFY2(pt.findings == found, ("pt-table-sync found:\n" + describe(pt.findings) + "verify found:\n" +
                                        describe(found) + "pt output:\n" + pt.out.toStdString())
                                           .c_str());
    }

    void repairSqlIsSavedWithoutApplying() {
        QString file = dir_ + "/repair.sql";
        CliResult run = runCli(verifyArguments({"--repair-sql", file}), kCliTimeoutMs);
        QCOMPARE(run.exitCode, kExitDifferent);
        QFile sql(file);
        QVERIFY(sql.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(sql.readAll());
        QVERIFY2(text.contains("DELETE FROM `verify_it`.`orders` WHERE `id` = 20001"), qPrintable(text));
        QVERIFY2(text.contains("'it''s'"), qPrintable(text));
        QVERIFY(textOf(run).contains("repair not applied"));
        // Nothing was applied: the differences are all still there.
        QCOMPARE(keyedFindings(jsonOf(runCli(verifyArguments({"--json"}), kCliTimeoutMs))), injected());
    }

    void repairMakesTheTablesEqualAndIsAudited() {
        CliResult run = runCli(verifyArguments({"--repair", "--json"}), kCliTimeoutMs);
        QVERIFY2(run.exitCode == kExitDifferent, qPrintable(textOf(run)));
        QJsonObject report = jsonOf(run);
        for (const char* table : {"verify_it.orders", "verify_it.people", "verify_it.order_lines"}) {
            QJsonObject repair = tableNamed(report, table)["repair"].toObject();
            QVERIFY2(repair["applied"].toBool() && repair["rechecked"].toBool(), table);
            QCOMPARE(repair["still_different"].toInt(), 0);
        }
        QJsonObject keyless = tableNamed(report, "verify_it.audit_trail")["repair"].toObject();
        QVERIFY(!keyless["applied"].toBool());
        QVERIFY(keyless["skipped_because"].toString().contains("--confirm-keyless"));

        QFile audit(dir_ + "/logs/verify_it_task-audit.jsonl");
        QVERIFY(audit.open(QIODevice::ReadOnly));
        QString lines = QString::fromUtf8(audit.readAll());
        QVERIFY(lines.contains("\"verify-repair\""));
        QVERIFY(lines.contains("zz-extra"));

        PtRun pt = runPtTableSync(VerifyFixture::kDatabase, kKeys, {"--tables", "orders,people,order_lines"});
        QVERIFY2(pt.out.trimmed().isEmpty(), qPrintable(pt.out));
    }

    void keylessTableIsRepairedOnlyWhenConfirmed() {
        CliResult run = runCli(verifyArguments({"--repair", "--confirm-keyless", "--json"}), kCliTimeoutMs);
        QCOMPARE(run.exitCode, kExitDifferent);
        QJsonObject repair = tableNamed(jsonOf(run), "verify_it.audit_trail")["repair"].toObject();
        QVERIFY(repair["applied"].toBool());
        QCOMPARE(repair["still_different"].toInt(), 0);
        CliResult again = runCli(verifyArguments(), kCliTimeoutMs);
        QVERIFY2(again.exitCode == kExitEqual, qPrintable(textOf(again)));
        // The summary line gives the time as a DBA reads it ("in 0.1 s", not "in 0.0650377 s").
        QVERIFY2(QRegularExpression(" 0 differences, 0 failed in [0-9]+\\.[0-9] s ")
                     .match(QString::fromStdString(again.out))
                     .hasMatch(),
                 again.out.c_str());
        PtRun pt = runPtTableSync(VerifyFixture::kDatabase, kKeys);
        QVERIFY2(pt.out.trimmed().isEmpty(), qPrintable(pt.out));
    }

    void routedTableIsComparedWithItsTarget() {
        fixture_->upstream("DROP DATABASE IF EXISTS verify_route");
        fixture_->downstream("DROP DATABASE IF EXISTS verify_route_down");
        fixture_->upstream("CREATE DATABASE verify_route");
        fixture_->downstream("CREATE DATABASE verify_route_down");
        fixture_->upstream("CREATE TABLE verify_route.src (id INT PRIMARY KEY, v INT)");
        fixture_->downstream("CREATE TABLE verify_route_down.dst (id INT PRIMARY KEY, v INT, only_here INT DEFAULT 7)");
        fixture_->upstream("INSERT INTO verify_route.src SELECT seq, seq FROM verify_route.seq_1_to_100");
        fixture_->downstream(
            "INSERT INTO verify_route_down.dst (id, v) SELECT seq, seq FROM verify_route_down.seq_1_to_100");
        fixture_->downstream("UPDATE verify_route_down.dst SET v = 0 WHERE id = 42");
        TaskFiles routed = taskFilesFor("verify_route_task", "verify_route",
                                        "routes:\n  to-dst: {schema-pattern: \"verify_route\", table-pattern: \"src\", "
                                        "target-schema: \"verify_route_down\", target-table: \"dst\"}\n",
                                        "    route-rules: [\"to-dst\"]\n");
        CliResult run =
            runCli({"verify", QString::fromStdString(routed.task), "--source", QString::fromStdString(routed.source),
                    "--json", "--repair", "--log-dir", dir_ + "/logs"},
                   kCliTimeoutMs);
        QVERIFY2(run.exitCode == kExitDifferent, qPrintable(textOf(run)));
        QJsonObject table = tableNamed(jsonOf(run), "verify_route_down.dst");
        QCOMPARE(table["upstream"].toString(), QString("verify_route.src"));
        QCOMPARE(table["differences"].toArray().size(), 1);
        QVERIFY(table["notes"].toArray().first().toString().contains("only_here"));
        // The repair kept the column only the downstream has.
        QCOMPARE(fixture_->downstreamRows("SELECT v, only_here FROM verify_route_down.dst WHERE id = 42"),
                 (std::vector<std::vector<std::string>>{{"42", "7"}}));
    }

    void badInputFailsWithAMessage_data() {
        QTest::addColumn<QString>("upstreamTable");
        QTest::addColumn<QString>("downstreamTable");
        QTest::addColumn<QString>("message");
        QTest::addRow("table missing downstream") << "CREATE TABLE verify_bad.t (id INT PRIMARY KEY)"
                                                  << ""
                                                  << "does not exist";
        QTest::addRow("column missing downstream") << "CREATE TABLE verify_bad.t (id INT PRIMARY KEY, a INT, b INT)"
                                                   << "CREATE TABLE verify_bad.t (id INT PRIMARY KEY, a INT)"
                                                   << "lacks the upstream's column(s) b";
        QTest::addRow("key differs") << "CREATE TABLE verify_bad.t (id INT PRIMARY KEY, a INT NOT NULL)"
                                     << "CREATE TABLE verify_bad.t (id INT, a INT NOT NULL PRIMARY KEY)"
                                     << "is not the downstream's";
    }

    void badInputFailsWithAMessage() {
        QFETCH(QString, upstreamTable);
        QFETCH(QString, downstreamTable);
        QFETCH(QString, message);
        fixture_->both("DROP DATABASE IF EXISTS verify_bad");
        fixture_->both("CREATE DATABASE verify_bad");
        fixture_->upstream(upstreamTable.toStdString());
        if (!downstreamTable.isEmpty()) {
            fixture_->downstream(downstreamTable.toStdString());
        }
        TaskFiles bad = taskFilesFor("verify_bad_task", "verify_bad");
        CliResult run =
            runCli({"verify", QString::fromStdString(bad.task), "--source", QString::fromStdString(bad.source)},
                   kCliTimeoutMs);
        QVERIFY2(run.exitCode == kExitError, qPrintable(textOf(run)));
        QVERIFY2(textOf(run).contains(message), qPrintable(textOf(run)));
        QVERIFY(textOf(run).contains("verify_bad.t: failed"));
    }

    void unreachableServerIsAnError() {
        TaskFileOptions options;
        options.name = "verify_unreachable";
        options.binlogName = kAnyBinlog;
        TaskFiles unreachable = writeTaskFiles(dir_.toStdString(), options);
        QFile task(QString::fromStdString(unreachable.task));
        QVERIFY(task.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(task.readAll());
        task.close();
        text.replace(QString("port: %1").arg(downstreamRoot().port), QString("port: %1").arg(freeLoopbackPort()));
        QVERIFY(task.open(QIODevice::WriteOnly | QIODevice::Truncate));
        task.write(text.toUtf8());
        task.close();
        CliResult run = runCli({"verify", QString::fromStdString(unreachable.task), "--source",
                                QString::fromStdString(unreachable.source)},
                               kCliTimeoutMs);
        QCOMPARE(run.exitCode, kExitError);
        QVERIFY2(textOf(run).contains("cannot connect"), qPrintable(textOf(run)));
    }

    void cleanupTestCase() {
        if (fixture_) {
            fixture_->both("DROP DATABASE IF EXISTS verify_bad");
        }
    }
};

QTEST_GUILESS_MAIN(VerifyCommandTest)
#include "test_verify_command.moc"
