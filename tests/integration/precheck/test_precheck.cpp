// The precheck against the private MariaDB pair: each condition of issue 16 is set up for real, the
// precheck finds it (what, why and a fix), the fix is applied (SQL as an administrator, or the config
// change the finding names), and a second precheck no longer finds it. Also: a clean task has no
// finding and exits 0, a server out of reach is an error, applying a fix is audited (a refused one
// too), and `syncscope-cli check` prints the report with exit 0 / 1 / 2 and --json.
#include <QtTest>

#include <fstream>
#include <nlohmann/json.hpp>

#include "engine/precheck/fix_applier.h"
#include "engine/precheck/precheck.h"
#include "engine/precheck/sql_session.h"
#include "tests/integration/precheck/precheck_task.h"

using namespace syncscope;
using namespace syncscope::precheck;

namespace {

const char* const kLimitedUser = "pre_limited";
const char* const kLimitedPassword = "pre-limited-pw";
constexpr int kCliTimeoutMs = 60000;

// How the task of a case differs from the plain one, and the config change that fixes its finding.
enum class Variant {
    Plain,
    Gtid,
    PurgedStart,
    Route,
    LimitedUpstreamUser,
    LimitedDownstreamUser,
    IgnoreSequence,
    ForeignKeySession
};

test::ServerSettings limited(test::ServerSettings settings) {
    settings.user = kLimitedUser;
    settings.password = kLimitedPassword;
    return settings;
}

std::string oldestBinlogFile() {
    auto upstream = connectUpstreamSession(test::engineSettings(test::upstreamRoot()));
    return upstream->query("SHOW BINARY LOGS").front()[0].value_or("");
}

test::PrecheckTaskOptions optionsFor(const std::string& schema, Variant variant) {
    test::PrecheckTaskOptions options;
    options.schema = schema;
    switch (variant) {
        case Variant::Plain:
            break;
        case Variant::Gtid:
            options.enableGtid = true;
            break;
        case Variant::PurgedStart:
            options.metaBinlogName = "mariadb-bin.000000";
            break;
        case Variant::Route:
            options.instanceExtra = "    route-rules: [\"merge\"]\n";
            options.topLevelExtra = "routes:\n  merge:\n    schema-pattern: \"" + schema +
                                    "\"\n    table-pattern: \"part_*\"\n    target-schema: \"" + schema +
                                    "\"\n    target-table: \"parts\"\n";
            break;
        case Variant::LimitedUpstreamUser:
            options.upstream = limited(options.upstream);
            break;
        case Variant::LimitedDownstreamUser:
            options.downstream = limited(options.downstream);
            break;
        case Variant::IgnoreSequence:
        case Variant::ForeignKeySession:
            break;
    }
    return options;
}

// The config change a finding names, applied to the task's options.
test::PrecheckTaskOptions fixedOptions(test::PrecheckTaskOptions options, Variant variant) {
    switch (variant) {
        case Variant::PurgedStart:
            options.metaBinlogName = oldestBinlogFile();
            break;
        case Variant::Route:
            options.instanceExtra.clear();
            options.topLevelExtra.clear();
            break;
        case Variant::IgnoreSequence:
            options.ignoreTable = "seq";
            break;
        case Variant::ForeignKeySession:
            options.session = "{foreign_key_checks: 1}";
            break;
        default:
            break;
    }
    return options;
}

void runAll(SqlSession& session, const QStringList& statements, const std::string& schema) {
    for (QString statement : statements) {
        session.execute(statement.replace("{s}", QString::fromStdString(schema)).toStdString());
    }
}

std::string checksOf(const PrecheckReport& report) {
    std::string text;
    for (const auto& finding : report.findings) {
        text += finding.check + " (" + finding.subject + ": " + finding.problem + ")\n";
    }
    return text;
}

}  // namespace

class PrecheckTest : public QObject {
    Q_OBJECT

private:
    std::string dir_;
    std::unique_ptr<SqlSession> upRoot_;
    std::unique_ptr<SqlSession> downRoot_;

    void resetSchema(const std::string& schema) {
        for (SqlSession* side : {upRoot_.get(), downRoot_.get()}) {
            side->execute("DROP DATABASE IF EXISTS `" + schema + "`");
            side->execute("CREATE DATABASE `" + schema + "`");
        }
    }

    void createLimitedUsers() {
        for (SqlSession* side : {upRoot_.get(), downRoot_.get()}) {
            side->execute(std::string("DROP USER IF EXISTS '") + kLimitedUser + "'@'127.0.0.1'");
            side->execute(std::string("CREATE USER '") + kLimitedUser + "'@'127.0.0.1' IDENTIFIED BY '" +
                          kLimitedPassword + "'");
            side->execute(std::string("GRANT SELECT ON *.* TO '") + kLimitedUser + "'@'127.0.0.1'");
        }
    }

private slots:
    void initTestCase() {
        dir_ = test::outputDir("precheck");
        upRoot_ = connectUpstreamSession(test::engineSettings(test::upstreamRoot()));
        downRoot_ = connectDownstreamSession(test::engineSettings(test::downstreamRoot()));
    }

    void cleanupTestCase() {
        for (SqlSession* side : {upRoot_.get(), downRoot_.get()}) {
            side->execute(std::string("DROP USER IF EXISTS '") + kLimitedUser + "'@'127.0.0.1'");
        }
    }

    void cleanTaskHasNoFinding() {
        const std::string schema = "pre_clean";
        resetSchema(schema);
        for (SqlSession* side : {upRoot_.get(), downRoot_.get()}) {
            side->execute("CREATE TABLE `" + schema + "`.orders (id INT PRIMARY KEY, qty INT NOT NULL)");
        }
        auto setup = test::loadPrecheckTask(writePrecheckTask(dir_, optionsFor(schema, Variant::Plain)));
        PrecheckReport report = runPrecheck(setup);
        QVERIFY2(report.findings.empty(), checksOf(report).c_str());
        QCOMPARE(report.exitCode(), PrecheckReport::kExitOk);
        QCOMPARE(report.tablesChecked, size_t(1));
    }

    // A pt-osc shadow table upstream: without online-ddl a warning that names it and the key to set; with
    // it, a note naming the running change, and the shadow table is not checked as a table of the task (a
    // shadow without a key would otherwise be reported).
    void onlineSchemaChangeToolTablesAreNamed() {
        const std::string schema = "pre_online";
        resetSchema(schema);
        for (SqlSession* side : {upRoot_.get(), downRoot_.get()}) {
            side->execute("CREATE TABLE `" + schema + "`.orders (id INT PRIMARY KEY, qty INT NOT NULL)");
        }
        upRoot_->execute("CREATE TABLE `" + schema + "`._orders_new (id INT, qty INT NOT NULL, extra INT)");
        test::PrecheckTaskOptions options = optionsFor(schema, Variant::Plain);
        PrecheckReport without = runPrecheck(test::loadPrecheckTask(test::writePrecheckTask(dir_, options)));
        auto warned = without.withCheck("online_ddl.tool_table");
        QCOMPARE(warned.size(), size_t(1));
        QCOMPARE(int(warned.front()->severity), int(Severity::Warning));
        QCOMPARE(warned.front()->subject, "`" + schema + "`.`_orders_new`");
        QVERIFY2(warned.front()->problem.find("pt-online-schema-change") != std::string::npos &&
                     warned.front()->problem.find("`" + schema + "`.`orders`") != std::string::npos,
                 warned.front()->problem.c_str());
        QCOMPARE(warned.front()->fix, std::string("online-ddl: true"));

        options.topLevelExtra = "online-ddl: true\n";
        PrecheckReport with = runPrecheck(test::loadPrecheckTask(test::writePrecheckTask(dir_, options)));
        QVERIFY2(with.withCheck("online_ddl.tool_table").empty(), checksOf(with).c_str());
        auto noted = with.withCheck("online_ddl.running_change");
        QCOMPARE(noted.size(), size_t(1));
        QCOMPARE(int(noted.front()->severity), int(Severity::Note));
        QCOMPARE(with.tablesChecked, size_t(1));  // orders only
        for (const auto& finding : with.findings) {
            QVERIFY2(finding.subject.find("_orders_new") == std::string::npos ||
                         finding.check == "online_ddl.running_change",
                     checksOf(with).c_str());
        }
        upRoot_->execute("DROP DATABASE `" + schema + "`");
        downRoot_->execute("DROP DATABASE `" + schema + "`");
    }

    // DM's sharding prechecks: two shard databases upstream whose table t routes merge into one downstream
    // table. Equal shard tables give none of the three findings; a column only one has, an auto-increment
    // primary key, or no key at all gives the one it names, naming the merged table, the shard tables and the
    // upstream server.
    void shardTablesOfAMergedTable_data() {
        QTest::addColumn<QString>("base");
        QTest::addColumn<QString>("firstShard");
        QTest::addColumn<QString>("secondShard");
        QTest::addColumn<QString>("check");
        QTest::addColumn<int>("severity");
        QTest::addColumn<QStringList>("named");

        const QString keyed = "(id INT PRIMARY KEY, v INT)";
        const QString autoIncrement = "(id INT AUTO_INCREMENT PRIMARY KEY, v INT)";
        const QString keyless = "(a INT, b INT)";
        QTest::addRow("equal shard tables: no shard finding")
            << "pre_shard_eq" << keyed << keyed << "" << 0 << QStringList{};
        QTest::addRow("a column only one shard has: table_structure naming both")
            << "pre_shard_col" << keyed << "(id INT PRIMARY KEY, v INT, c INT NOT NULL DEFAULT 7)"
            << "shard.table_structure" << static_cast<int>(Severity::Error)
            << QStringList{
                   "`pre_shard_col_2`.`t` has column `c` int(11) NOT NULL DEFAULT 7 where "
                   "`pre_shard_col_1`.`t` has none"};
        QTest::addRow("auto-increment primary key: auto_increment")
            << "pre_shard_ai" << autoIncrement << autoIncrement << "shard.auto_increment"
            << static_cast<int>(Severity::Warning)
            << QStringList{"column `id` is AUTO_INCREMENT", "`pre_shard_ai_1`.`t`", "`pre_shard_ai_2`.`t`"};
        QTest::addRow("shard tables without any key: no_unique_key")
            << "pre_shard_nokey" << keyless << keyless << "shard.no_unique_key" << static_cast<int>(Severity::Warning)
            << QStringList{"`pre_shard_nokey_1`.`t`", "`pre_shard_nokey_2`.`t`"};
    }

    void shardTablesOfAMergedTable() {
        QFETCH(QString, base);
        QFETCH(QString, firstShard);
        QFETCH(QString, secondShard);
        QFETCH(QString, check);
        QFETCH(int, severity);
        QFETCH(QStringList, named);
        const std::string merged = base.toStdString();
        const std::vector<std::string> shards{merged + "_1", merged + "_2"};
        // The shard databases stay out of the upstream's binary log: nothing that reads it needs them.
        upRoot_->execute("SET SESSION sql_log_bin = 0");
        auto cleanup = qScopeGuard([&] {
            for (const auto& shard : shards) {
                upRoot_->execute("DROP DATABASE IF EXISTS `" + shard + "`");
            }
            upRoot_->execute("SET SESSION sql_log_bin = 1");
            downRoot_->execute("DROP DATABASE IF EXISTS `" + merged + "`");
        });
        for (size_t i = 0; i < shards.size(); ++i) {
            upRoot_->execute("DROP DATABASE IF EXISTS `" + shards[i] + "`");
            upRoot_->execute("CREATE DATABASE `" + shards[i] + "`");
            upRoot_->execute("CREATE TABLE `" + shards[i] + "`.t " + (i == 0 ? firstShard : secondShard).toStdString());
        }
        downRoot_->execute("DROP DATABASE IF EXISTS `" + merged + "`");
        downRoot_->execute("CREATE DATABASE `" + merged + "`");
        downRoot_->execute("CREATE TABLE `" + merged + "`.t " + firstShard.toStdString());

        test::PrecheckTaskOptions options = optionsFor(merged, Variant::Plain);
        options.moreSchemas = shards;
        options.instanceExtra = "    route-rules: [\"shards\"]\n";
        options.topLevelExtra = "routes:\n  shards:\n    schema-pattern: \"" + merged +
                                "_*\"\n    table-pattern: \"t\"\n    target-schema: \"" + merged +
                                "\"\n    target-table: \"t\"\n";
        PrecheckReport report = runPrecheck(test::loadPrecheckTask(writePrecheckTask(dir_, options)));
        QCOMPARE(report.tablesChecked, size_t(2));
        QCOMPARE(report.withCheck("route.merged_tables").size(), size_t(1));
        for (const char* shardCheck : {"shard.table_structure", "shard.auto_increment", "shard.no_unique_key"}) {
            auto found = report.withCheck(shardCheck);
            if (check != shardCheck) {
                QVERIFY2(found.empty(), checksOf(report).c_str());
                continue;
            }
            QCOMPARE(found.size(), size_t(1));
            const Finding& finding = *found.front();
            QCOMPARE(static_cast<int>(finding.severity), severity);
            QCOMPARE(finding.subject, "`" + merged + "`.`t`");
            QVERIFY2(finding.problem.find("upstream " + test::engineSettings(test::upstreamReplication()).describe()) !=
                         std::string::npos,
                     finding.problem.c_str());
            for (const QString& part : named) {
                QVERIFY2(finding.problem.find(part.toStdString()) != std::string::npos, finding.problem.c_str());
            }
            QVERIFY(!finding.impact.empty());
            QVERIFY(!finding.fix.empty());
            QVERIFY(finding.problem.find(test::upstreamReplication().password) == std::string::npos);
        }
    }

    void findingAndFix_data() {
        QTest::addColumn<QString>("schema");
        QTest::addColumn<int>("variant");
        QTest::addColumn<QStringList>("upstreamSetup");
        QTest::addColumn<QStringList>("downstreamSetup");
        QTest::addColumn<QString>("check");
        QTest::addColumn<int>("severity");
        QTest::addColumn<QStringList>("upstreamCleanup");
        QTest::addColumn<QStringList>("downstreamCleanup");

        const QStringList none;
        const QStringList keyedTable{"CREATE TABLE {s}.t (id INT PRIMARY KEY, v INT)"};
        const int error = static_cast<int>(Severity::Error);
        const int warning = static_cast<int>(Severity::Warning);
        const int note = static_cast<int>(Severity::Note);
        auto plain = static_cast<int>(Variant::Plain);

        QTest::addRow("upstream binlog_format MIXED is refused")
            << "pre_format" << plain << QStringList{"SET GLOBAL binlog_format = 'MIXED'"} << none
            << "upstream.binlog_format" << error << QStringList{"SET GLOBAL binlog_format = 'ROW'"} << none;
        QTest::addRow("upstream binlog_row_image MINIMAL is refused")
            << "pre_image" << plain << QStringList{"SET GLOBAL binlog_row_image = 'MINIMAL'"} << none
            << "upstream.binlog_row_image" << error << QStringList{"SET GLOBAL binlog_row_image = 'FULL'"} << none;
        QTest::addRow("upstream binlog_row_metadata MINIMAL is refused")
            << "pre_metadata" << plain << QStringList{"SET GLOBAL binlog_row_metadata = 'MINIMAL'"} << none
            << "upstream.binlog_row_metadata" << error << QStringList{"SET GLOBAL binlog_row_metadata = 'FULL'"}
            << none;
        QTest::addRow("gtid_strict_mode OFF with enable-gtid")
            << "pre_gtid" << static_cast<int>(Variant::Gtid) << QStringList{"SET GLOBAL gtid_strict_mode = OFF"} << none
            << "upstream.gtid_strict_mode" << warning << QStringList{"SET GLOBAL gtid_strict_mode = ON"} << none;
        QTest::addRow("binlog retention shorter than twice the expected lag")
            << "pre_retention" << plain << QStringList{"SET GLOBAL binlog_expire_logs_seconds = 3600"} << none
            << "upstream.binlog_retention" << warning << QStringList{"SET GLOBAL binlog_expire_logs_seconds = 0"}
            << none;
        QTest::addRow("replication user without REPLICATION SLAVE and BINLOG MONITOR")
            << "pre_grants" << static_cast<int>(Variant::LimitedUpstreamUser) << keyedTable << keyedTable
            << "upstream.grants" << error << none << none;
        QTest::addRow("start position in a purged binlog file")
            << "pre_purged" << static_cast<int>(Variant::PurgedStart) << keyedTable << keyedTable
            << "upstream.start_purged" << error << none << none;
        QTest::addRow("table without primary or unique key")
            << "pre_nokey" << plain << QStringList{"CREATE TABLE {s}.t (a INT, b INT)"}
            << QStringList{"CREATE TABLE {s}.t (a INT, b INT)"} << "table.no_key" << warning << none << none;
        QTest::addRow("unique key on a nullable column")
            << "pre_nullable" << plain
            << QStringList{"CREATE TABLE {s}.t (id INT PRIMARY KEY, code INT NULL, UNIQUE KEY uk_code (code))"}
            << QStringList{"CREATE TABLE {s}.t (id INT PRIMARY KEY, code INT NULL, UNIQUE KEY uk_code (code))"}
            << "table.nullable_unique_key" << warning << none << none;
        QTest::addRow("case-insensitive key")
            << "pre_ci" << plain
            << QStringList{"CREATE TABLE {s}.t (code VARCHAR(20) COLLATE utf8mb4_general_ci PRIMARY KEY)"}
            << QStringList{"CREATE TABLE {s}.t (code VARCHAR(20) COLLATE utf8mb4_general_ci PRIMARY KEY)"}
            << "table.ci_key" << note << none << none;
        QTest::addRow("sequence is not replicated") << "pre_sequence" << static_cast<int>(Variant::IgnoreSequence)
                                                    << QStringList{keyedTable.front(), "CREATE SEQUENCE {s}.seq"}
                                                    << keyedTable << "table.sequence" << warning << none << none;
        QTest::addRow("routes merge two tables into one") << "pre_route" << static_cast<int>(Variant::Route)
                                                          << QStringList{"CREATE TABLE {s}.part_1 (id INT PRIMARY KEY)",
                                                                         "CREATE TABLE {s}.part_2 (id INT PRIMARY KEY)",
                                                                         "CREATE TABLE {s}.parts (id INT PRIMARY KEY)"}
                                                          << QStringList{"CREATE TABLE {s}.parts (id INT PRIMARY KEY)",
                                                                         "CREATE TABLE {s}.part_1 (id INT PRIMARY KEY)",
                                                                         "CREATE TABLE {s}.part_2 (id INT PRIMARY KEY)"}
                                                          << "route.merged_tables" << warning << none << none;
        QTest::addRow("downstream foreign key cascades")
            << "pre_fk" << static_cast<int>(Variant::ForeignKeySession)
            << QStringList{"CREATE TABLE {s}.parent (id INT PRIMARY KEY)",
                           "CREATE TABLE {s}.child (id INT PRIMARY KEY, parent_id INT, FOREIGN KEY (parent_id) "
                           "REFERENCES {s}.parent (id) ON DELETE CASCADE)"}
            << QStringList{"CREATE TABLE {s}.parent (id INT PRIMARY KEY)",
                           "CREATE TABLE {s}.child (id INT PRIMARY KEY, parent_id INT, CONSTRAINT fk_parent FOREIGN "
                           "KEY (parent_id) REFERENCES {s}.parent (id) ON DELETE CASCADE)"}
            << "downstream.foreign_key_cascade" << note << none << none;
        QTest::addRow("downstream trigger")
            << "pre_trigger" << plain << keyedTable
            << QStringList{keyedTable.front(),
                           "CREATE TRIGGER {s}.t_bump BEFORE INSERT ON {s}.t FOR EACH ROW SET "
                           "NEW.v = NEW.v + 1"}
            << "downstream.trigger" << warning << none << none;
        QTest::addRow("generated column downstream")
            << "pre_generated" << plain
            << QStringList{"CREATE TABLE {s}.t (id INT PRIMARY KEY, a INT, g INT AS (a * 2) VIRTUAL)"}
            << QStringList{"CREATE TABLE {s}.t (id INT PRIMARY KEY, a INT, g INT AS (a * 2) VIRTUAL)"}
            << "downstream.generated_column" << warning << none << none;
        QTest::addRow("downstream user cannot write the schemas")
            << "pre_privileges" << static_cast<int>(Variant::LimitedDownstreamUser) << keyedTable << keyedTable
            << "downstream.privileges" << error << none << none;
        QTest::addRow("downstream max_allowed_packet below the upstream's")
            << "pre_packet" << plain << keyedTable
            << QStringList{keyedTable.front(), "SET GLOBAL max_allowed_packet = 1048576"}
            << "downstream.max_allowed_packet" << warning << none
            << QStringList{"SET GLOBAL max_allowed_packet = 16777216"};
        QTest::addRow("column character set differs")
            << "pre_charset" << plain
            << QStringList{"CREATE TABLE {s}.t (id INT PRIMARY KEY, name VARCHAR(20) CHARACTER SET utf8mb4)"}
            << QStringList{"CREATE TABLE {s}.t (id INT PRIMARY KEY, name VARCHAR(20) CHARACTER SET latin1)"}
            << "downstream.collation" << warning << none << none;
        QTest::addRow("server default collation differs")
            << "pre_server_charset" << plain << keyedTable
            << QStringList{keyedTable.front(), "SET GLOBAL collation_server = 'utf8mb4_unicode_ci'"}
            << "downstream.server_charset" << warning << none
            << QStringList{"SET GLOBAL character_set_server = 'utf8mb4'",
                           "SET GLOBAL collation_server = 'utf8mb4_general_ci'"};
        QTest::addRow("schema default collation differs")
            << "pre_schema_charset" << plain << keyedTable
            << QStringList{"ALTER DATABASE {s} COLLATE utf8mb4_bin", keyedTable.front()} << "downstream.schema_charset"
            << warning << none << none;
        QTest::addRow("column missing downstream")
            << "pre_missing_column" << plain
            << QStringList{"CREATE TABLE {s}.t (id INT PRIMARY KEY, v INT, note VARCHAR(40) NOT NULL)"}
            << QStringList{"CREATE TABLE {s}.t (id INT PRIMARY KEY, v INT)"} << "downstream.column_missing" << error
            << none << none;
        QTest::addRow("column type differs")
            << "pre_column_type" << plain << QStringList{"CREATE TABLE {s}.t (id INT PRIMARY KEY, v BIGINT)"}
            << QStringList{"CREATE TABLE {s}.t (id INT PRIMARY KEY, v INT)"} << "downstream.column_type" << warning
            << none << none;
        QTest::addRow("extra NOT NULL column downstream")
            << "pre_extra_column" << plain << keyedTable
            << QStringList{"CREATE TABLE {s}.t (id INT PRIMARY KEY, v INT, added INT NOT NULL)"}
            << "downstream.extra_column" << warning << none << none;
        QTest::addRow("table missing downstream") << "pre_missing_table" << plain << keyedTable << none
                                                  << "downstream.table_missing" << error << none << none;
        QTest::addRow("non-transactional table downstream")
            << "pre_engine" << plain << keyedTable
            << QStringList{"CREATE TABLE {s}.t (id INT PRIMARY KEY, v INT) ENGINE=MyISAM"} << "downstream.engine"
            << warning << none << none;
    }

    void findingAndFix() {
        QFETCH(QString, schema);
        QFETCH(int, variant);
        QFETCH(QStringList, upstreamSetup);
        QFETCH(QStringList, downstreamSetup);
        QFETCH(QString, check);
        QFETCH(int, severity);
        QFETCH(QStringList, upstreamCleanup);
        QFETCH(QStringList, downstreamCleanup);
        const std::string name = schema.toStdString();
        const Variant taskVariant = static_cast<Variant>(variant);
        resetSchema(name);
        createLimitedUsers();
        auto cleanup = qScopeGuard([&] {
            runAll(*upRoot_, upstreamCleanup, name);
            runAll(*downRoot_, downstreamCleanup, name);
        });
        runAll(*upRoot_, upstreamSetup, name);
        runAll(*downRoot_, downstreamSetup, name);

        test::PrecheckTaskOptions options = optionsFor(name, taskVariant);
        PrecheckReport before = runPrecheck(test::loadPrecheckTask(writePrecheckTask(dir_, options)));
        auto found = before.withCheck(check.toStdString());
        QVERIFY2(!found.empty(), ("expected " + check.toStdString() + ", found:\n" + checksOf(before)).c_str());
        for (const Finding* finding : found) {
            QCOMPARE(static_cast<int>(finding->severity), severity);
            QVERIFY(!finding->problem.empty());
            QVERIFY(!finding->impact.empty());
            QVERIFY(!finding->fix.empty());
        }
        const int expectedExit = severity == static_cast<int>(Severity::Error)     ? PrecheckReport::kExitErrors
                                 : severity == static_cast<int>(Severity::Warning) ? PrecheckReport::kExitWarnings
                                                                                   : before.exitCode();
        QVERIFY(before.exitCode() >= expectedExit);

        // The fix: the SQL the finding names, run as an administrator on the server it names, or the
        // config change it names.
        task::AuditLog audit(dir_ + "/" + name + "-audit.jsonl");
        for (const Finding* finding : found) {
            if (finding->hasRunnableFix()) {
                const bool onUpstream = finding->fixTarget == FixTarget::Upstream;
                applyFix(*finding, test::engineSettings(onUpstream ? test::upstreamRoot() : test::downstreamRoot()),
                         audit, before.task, before.sourceId);
            } else {
                options = fixedOptions(options, taskVariant);
            }
        }
        PrecheckReport after = runPrecheck(test::loadPrecheckTask(writePrecheckTask(dir_, options)));
        QVERIFY2(after.withCheck(check.toStdString()).empty(),
                 ("still found after the fix:\n" + checksOf(after)).c_str());
    }

    void serverOutOfReachIsAnError() {
        test::PrecheckTaskOptions options = optionsFor("pre_unreachable", Variant::Plain);
        options.upstream.password = "wrong-password";
        resetSchema(options.schema);
        PrecheckReport report = runPrecheck(test::loadPrecheckTask(writePrecheckTask(dir_, options)));
        auto found = report.withCheck("upstream.connection");
        QCOMPARE(found.size(), size_t(1));
        QVERIFY(found.front()->problem.find("wrong-password") == std::string::npos);
        QCOMPARE(report.exitCode(), PrecheckReport::kExitErrors);
    }

    void appliedFixIsAuditedAndARefusedOneToo() {
        const std::string schema = "pre_audit";
        resetSchema(schema);
        createLimitedUsers();
        runAll(*downRoot_,
               {"CREATE TABLE {s}.t (id INT PRIMARY KEY, v INT)",
                "CREATE TRIGGER {s}.t_bump BEFORE INSERT ON {s}.t FOR EACH ROW SET NEW.v = 1"},
               schema);
        runAll(*upRoot_, {"CREATE TABLE {s}.t (id INT PRIMARY KEY, v INT)"}, schema);
        auto setup = test::loadPrecheckTask(writePrecheckTask(dir_, optionsFor(schema, Variant::Plain)));
        PrecheckReport report = runPrecheck(setup);
        auto found = report.withCheck("downstream.trigger");
        QCOMPARE(found.size(), size_t(1));
        const std::string auditPath = dir_ + "/" + schema + "-audit.jsonl";
        std::remove(auditPath.c_str());
        task::AuditLog audit(auditPath);
        // A user without TRIGGER privilege: refused, audited, nothing changed.
        QVERIFY_THROWS_EXCEPTION(Error, applyFix(*found.front(), test::engineSettings(limited(test::downstreamRoot())),
                                                 audit, report.task, report.sourceId));
        QCOMPARE(runPrecheck(setup).withCheck("downstream.trigger").size(), size_t(1));
        applyFix(*found.front(), setup.downstream, audit, report.task, report.sourceId);
        QVERIFY(runPrecheck(setup).withCheck("downstream.trigger").empty());

        std::ifstream in(auditPath);
        std::vector<nlohmann::json> lines;
        for (std::string line; std::getline(in, line);) {
            lines.push_back(nlohmann::json::parse(line));
        }
        QCOMPARE(lines.size(), size_t(3));
        QCOMPARE(lines[0]["action"].get<std::string>(), std::string("precheck-fix"));
        QCOMPARE(lines[1]["action"].get<std::string>(), std::string("precheck-fix-failed"));
        QCOMPARE(lines[2]["action"].get<std::string>(), std::string("precheck-fix"));
        QCOMPARE(lines[2]["details"]["statements"][0].get<std::string>(), found.front()->fixStatements.front());
        QCOMPARE(lines[2]["details"]["check"].get<std::string>(), std::string("downstream.trigger"));
    }

    void cliExitCodesAndJson() {
        const std::string schema = "pre_cli";
        resetSchema(schema);
        runAll(*upRoot_, {"CREATE TABLE {s}.t (id INT PRIMARY KEY, v INT)"}, schema);
        runAll(*downRoot_, {"CREATE TABLE {s}.t (id INT PRIMARY KEY, v INT)"}, schema);
        auto files = writePrecheckTask(dir_, optionsFor(schema, Variant::Plain));
        const QString cli = QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli");
        auto run = [&](const QStringList& extra) {
            QProcess process;
            process.start(cli, QStringList{"check", QString::fromStdString(files.task), "--source",
                                           QString::fromStdString(files.source)} +
                                   extra);
            process.waitForFinished(kCliTimeoutMs);
            return std::pair{process.exitCode(), QString::fromUtf8(process.readAllStandardOutput())};
        };
        auto [cleanExit, cleanText] = run({});
        QCOMPARE(cleanExit, 0);
        QVERIFY(cleanText.contains("0 errors, 0 warnings"));

        runAll(*downRoot_, {"ALTER TABLE {s}.t ENGINE=MyISAM"}, schema);
        auto [warningExit, warningText] = run({});
        QCOMPARE(warningExit, 1);
        QVERIFY2(warningText.contains("ALTER TABLE `pre_cli`.`t` ENGINE=InnoDB;"), qPrintable(warningText));

        runAll(*downRoot_, {"DROP TABLE {s}.t"}, schema);
        auto [errorExit, json] = run({"--json"});
        QCOMPARE(errorExit, 2);
        auto parsed = nlohmann::json::parse(json.toStdString());
        QCOMPARE(parsed["exit_code"].get<int>(), 2);
        QCOMPARE(parsed["findings"][0]["check"].get<std::string>(), std::string("downstream.table_missing"));
        QCOMPARE(parsed["findings"][0]["fix_target"].get<std::string>(), std::string("downstream"));

        auto [usageExit, usageText] = run({"--expected-lag", "soon"});
        QCOMPARE(usageExit, 2);
    }
};

QTEST_GUILESS_MAIN(PrecheckTest)
#include "test_precheck.moc"
