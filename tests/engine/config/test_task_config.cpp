// Loading DM task and source files: the DM bug report's task, every key the loader acts on, the
// password sources, the writer's round trip and the redacting describe().
#include <QtTest>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <string>

#include "engine/config/config_duration.h"
#include "engine/config/source_config.h"
#include "engine/config/task_config.h"
#include "engine/filter/ddl_classifier.h"
#include "engine/filter/event_type.h"

using namespace syncscope;
using namespace syncscope::config;
using namespace std::chrono_literals;

namespace {

std::string dataFile(const char* name) {
    return std::string(SYNCSCOPE_SOURCE_DIR) + "/tests/engine/task/data/" + name;
}
std::string sampleFile(const char* name) {
    return std::string(SYNCSCOPE_SOURCE_DIR) + "/resources/samples/" + name;
}

bool anyWarningContains(const std::vector<std::string>& warnings, const std::string& text) {
    return std::any_of(warnings.begin(), warnings.end(),
                       [&](const std::string& warning) { return warning.find(text) != std::string::npos; });
}

}  // namespace

class TestTaskConfig : public QObject {
    Q_OBJECT

private slots:
    void dmBugReportTaskLoadsUnchangedAndResolves() {
        const TaskConfig task = loadTaskConfig(dataFile("dm_bug_task.yaml"));
        const SourceConfig source = loadSourceConfig(dataFile("mysql-3306.yaml"));
        QCOMPARE(task.name, std::string("foo-task"));
        QCOMPARE(task.taskMode, std::string("incremental"));
        QCOMPARE(task.metaSchema, std::string("dm_meta"));
        QCOMPARE(task.targetDatabase.server.host, std::string("127.0.0.1"));
        QCOMPARE(task.targetDatabase.server.port, 4000);
        QCOMPARE(task.targetDatabase.server.user, std::string("root"));
        QCOMPARE(task.targetDatabase.server.password, std::string());
        QCOMPARE(source.sourceId, std::string("mysql-3306"));
        QCOMPARE(source.flavor, std::string("mariadb"));

        const InstanceSettings settings = task.instanceFor(source);
        QCOMPARE(settings.sourceId, std::string("mysql-3306"));
        QCOMPARE(settings.blockAllow.doDbs, std::vector<std::string>{"test"});
        QCOMPARE(settings.filters.size(), size_t{1});
        QCOMPARE(settings.filters[0].events, std::vector<std::string>{"all ddl"});
        QCOMPARE(settings.filters[0].action, filter::FilterAction::Ignore);
        QCOMPARE(settings.syncer.checkpointFlushIntervalSeconds, 1);
        QCOMPARE(settings.syncer.workerCount, SyncerSettings::kDefaultWorkerCount);
        QCOMPARE(settings.syncer.batch, SyncerSettings::kDefaultBatch);
        QVERIFY(settings.syncer.safeModeDuration == 60s);
        QVERIFY(settings.syncer.enableGtid.value_or(false));
        QVERIFY(!settings.meta.has_value());
        QVERIFY(anyWarningContains(task.warnings, "dm_bug_task.yaml:7: key 'mysql-instances[0].syncer.enable-gtid'"));

        // The scenario's semantics: DDL on test.test1 is ignored, DDL on test.test2 and rows pass.
        const auto eventFilter = settings.eventFilter();
        const auto blockAllow = settings.blockAllowList();
        QCOMPARE(eventFilter.decide({"test", "test1"}, "alter table", "ALTER TABLE test1 ADD c4 INT").action,
                 filter::FilterAction::Ignore);
        QCOMPARE(eventFilter.decide({"test", "test1"}, "alter table").ruleName, std::string("filter-rule-1"));
        QCOMPARE(eventFilter.decide({"test", "test2"}, "create table").action, filter::FilterAction::Do);
        QCOMPARE(eventFilter.decide({"test", "test2"}, "alter table").action, filter::FilterAction::Do);
        QCOMPARE(eventFilter.decide({"test", "test1"}, "insert").action, filter::FilterAction::Do);
        QVERIFY(blockAllow.allows({"test", "test1"}));
        QVERIFY(blockAllow.allows({"test", ""}));
        QVERIFY(!blockAllow.allows({"test_other", "test1"}));
        QVERIFY(!blockAllow.allows({"mysql", "user"}));

        // The same through the DDL classifier, as the engine sees the QUERY events (default database test).
        const auto decideDdl = [&](const char* sql) {
            const auto statement = filter::DdlClassifier::classify(sql, "test");
            const filter::TableName table = statement.tablesIn(filter::TableRole::Changed).at(0);
            if (!blockAllow.allows(table))
                return filter::FilterAction::Ignore;
            return eventFilter.decide(table, statement.filterEvent, sql).action;
        };
        QCOMPARE(decideDdl("ALTER TABLE test1 ADD c4 INT"), filter::FilterAction::Ignore);
        QCOMPARE(decideDdl("CREATE TABLE test2 (c INT PRIMARY KEY, c2 INT)"), filter::FilterAction::Do);
        QCOMPARE(decideDdl("ALTER TABLE `test2` ADD c4 INT"), filter::FilterAction::Do);
        QCOMPARE(decideDdl("CREATE TABLE other.t (a INT)"), filter::FilterAction::Ignore);  // not in do-dbs
    }

    void everyKeyOfAFullTaskIsRead() {
        const TaskConfig task = loadTaskConfig(dataFile("full_task.yaml"));
        QCOMPARE(task.name, std::string("shop-sync"));
        QCOMPARE(task.metaSchema, std::string("ops_meta"));
        const DatabaseConfig& target = task.targetDatabase;
        QCOMPARE(target.server.user, std::string("dm_writer"));
        QCOMPARE(target.maxAllowedPacket.value_or(0), int64_t{67108864});
        QCOMPARE(target.sessionVariables.at("sql_mode"), std::string("NO_ENGINE_SUBSTITUTION"));
        QCOMPARE(target.sessionVariables.at("foreign_key_checks"), std::string("0"));
        QCOMPARE(target.server.tls.caFile, std::string("/etc/ssl/ca.pem"));
        QCOMPARE(target.server.tls.keyFile, std::string("/etc/ssl/client.key"));

        const InstanceSettings primary = task.instanceFor("shop-primary");
        QCOMPARE(primary.meta->binlogName, std::string("mysql-bin.000042"));
        QCOMPARE(primary.meta->binlogPos, uint32_t{1234});
        QCOMPARE(primary.blockAllow.doDbs, (std::vector<std::string>{"shop", "~^shop_[0-9]+$"}));
        QCOMPARE(primary.blockAllow.ignoreTables.size(), size_t{1});
        QCOMPARE(primary.blockAllow.ignoreTables[0].table, std::string("tmp_*"));
        QCOMPARE(primary.filters.size(), size_t{2});
        QCOMPARE(primary.filters[0].name, std::string("no-truncate"));
        QCOMPARE(primary.filters[0].action, filter::FilterAction::Error);
        QCOMPARE(primary.filters[1].sqlPatterns, std::vector<std::string>{"^DROP\\s+TABLE"});
        QCOMPARE(primary.routes.size(), size_t{2});
        QCOMPARE(primary.syncer.workerCount, 32);
        QCOMPARE(primary.syncer.batch, 500);
        QCOMPARE(primary.syncer.checkpointFlushIntervalSeconds, 10);
        QVERIFY(primary.syncer.multipleRows);
        QVERIFY(primary.syncer.compact);  // unlike DM, on unless the task turns it off

        const InstanceSettings replica = task.instanceFor("shop-replica");
        QCOMPARE(replica.meta->binlogGtid, std::string("0-1-100"));
        QCOMPARE(replica.blockAllow.ignoreDbs, std::vector<std::string>{"scratch"});  // via black-white-list
        QCOMPARE(replica.syncer.workerCount, 12);                                     // syncer-thread wins
        QCOMPARE(replica.syncer.batch, 50);
        QVERIFY(replica.syncer.safeMode);
        QVERIFY(replica.syncer.safeModeDuration == 90s);
        QVERIFY(replica.syncer.compact);
        QCOMPARE(replica.syncer.checkpointFlushIntervalSeconds, SyncerSettings::kDefaultCheckpointFlushIntervalSeconds);

        // online-ddl with custom rules, anchored as DM anchors them; no warning for it.
        QVERIFY(task.onlineDdl);
        QCOMPARE(task.shadowTableRules, (std::vector<std::string>{"^_(.+)_shadow$", "^_(.+)_(?:new|gho)$"}));
        QCOMPARE(task.trashTableRules, (std::vector<std::string>{"^_(.+)_(?:trash|old)$"}));
        QVERIFY(!anyWarningContains(task.warnings, "key 'online-ddl'"));
        // shard-mode is read, not warned about.
        QCOMPARE(task.shardMode, std::string("pessimistic"));
        QVERIFY(!anyWarningContains(task.warnings, "key 'shard-mode'"));

        // Lower-case action and DM's alias are accepted and normalised.
        QCOMPARE(task.filters.at("unused-rule").action, filter::FilterAction::Ignore);
        QCOMPARE(task.filters.at("unused-rule").events, std::vector<std::string>{"create database"});

        for (const char* key :
             {"key 'clean-dump-file'", "key 'timezone'", "key 'collation_compatible'", "key 'ignore-checking-items'",
              "key 'mydumpers.global': defined but no", "key 'mysql-instances[0]': names mydumper or loader settings",
              "key 'syncers.bulk.max-retry'", "key 'filters.unused-rule': defined but no"}) {
            QVERIFY2(anyWarningContains(task.warnings, key), key);
        }
        for (const auto& warning : task.warnings)
            QVERIFY2(warning.find('\n') == std::string::npos, warning.c_str());

        // The routes resolve as DM's would.
        const auto router = primary.tableRouter();
        QCOMPARE(router.route({"shop_7", "orders_3"}), (filter::TableName{"shop", "orders"}));
        QCOMPARE(router.route({"shop_7", "customers"}), (filter::TableName{"shop", "customers"}));
        QCOMPARE(router.route({"shop_7", ""}), (filter::TableName{"shop", ""}));
        QCOMPARE(router.route({"other", "orders_3"}), (filter::TableName{"other", "orders_3"}));
    }

    void writerRoundTripKeepsEverySetting_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("DM bug report task") << QString::fromStdString(dataFile("dm_bug_task.yaml"));
        QTest::newRow("full task") << QString::fromStdString(dataFile("full_task.yaml"));
        QTest::newRow("demo sample") << QString::fromStdString(sampleFile("demo-task.yaml"));
    }

    void writerRoundTripKeepsEverySetting() {
        QFETCH(QString, file);
        qputenv("SYNCSCOPE_DOWN_PASSWORD", "demo-secret");
        const TaskConfig task = loadTaskConfig(file.toStdString());
        const std::string written = toYaml(task);
        const TaskConfig reread = parseTaskConfig(written, "rewritten.yaml");
        QVERIFY2(task.sameSettings(reread), written.c_str());
        QVERIFY2(toYaml(reread) == written, written.c_str());
        QVERIFY(written.find("demo-secret") == std::string::npos);
    }

    void sourceFileRoundTripsAndItsFiltersComeFirst() {
        SourceConfig source = loadSourceConfig(dataFile("mysql-3306.yaml"));
        const std::string text =
            "source-id: mysql-3306\nenable-gtid: true\nfrom: {host: db1, user: repl, password: pw}\n"
            "filters:\n  - {schema-pattern: \"test\", events: [\"truncate table\"], action: Ignore}\n"
            "relay-dir: ./relay\n";
        source = parseSourceConfig(text, "source.yaml");
        QVERIFY(source.enableGtid);
        QCOMPARE(source.from.server.port, DatabaseConfig::kDefaultPort);
        QVERIFY(anyWarningContains(source.warnings, "source.yaml:6: key 'relay-dir'"));
        QVERIFY(source.sameSettings(parseSourceConfig(toYaml(source), "again.yaml")));

        const TaskConfig task = loadTaskConfig(dataFile("dm_bug_task.yaml"));
        std::vector<std::string> warnings;
        const InstanceSettings settings = task.instanceFor(source, &warnings);
        QCOMPARE(settings.filters.size(), size_t{2});
        QCOMPARE(settings.filters[0].events, std::vector<std::string>{"truncate table"});
        QCOMPARE(settings.filters[1].name, std::string("filter-rule-1"));
        QVERIFY(warnings.empty());  // the task's enable-gtid: true agrees with this source
    }

    void yamlMergeKeysWorkAsInDm() {
        const TaskConfig task = parseTaskConfig(
            "name: t\ntask-mode: incremental\ntarget-database: {host: h, user: u}\n"
            "mysql-instances:\n  - source-id: a\n    syncer-config-name: fast\n"
            "  - source-id: b\n    syncer-config-name: slow\n"
            "syncers:\n  fast: &defaults\n    worker-count: 8\n    batch: 200\n"
            "  slow:\n    <<: *defaults\n    batch: 20\n",
            "merge.yaml");
        QCOMPARE(task.instanceFor("a").syncer.batch, 200);
        QCOMPARE(task.instanceFor("b").syncer.workerCount, 8);
        QCOMPARE(task.instanceFor("b").syncer.batch, 20);
        QVERIFY_THROWS_EXCEPTION(ConfigError,
                                 parseTaskConfig("name: t\ntask-mode: incremental\n<<: 5\n", "badmerge.yaml"));
    }

    // `compact` (DM's key) folds a row's changes; it needs multiple-rows, and says so when it has none.
    void compactIsOnByDefaultAndOffWhenAsked() {
        const TaskConfig task = parseTaskConfig(
            "name: t\ntask-mode: incremental\ntarget-database: {host: h, user: u}\n"
            "mysql-instances:\n  - source-id: a\n    syncer-config-name: plain\n"
            "  - source-id: b\n    syncer-config-name: apart\n  - source-id: c\n    syncer-config-name: odd\n"
            "syncers:\n  plain: {worker-count: 4}\n  apart: {compact: false}\n"
            "  odd: {multiple-rows: false, compact: true}\n",
            "compact.yaml");
        QVERIFY(task.instanceFor("a").syncer.compact);
        QVERIFY(!task.instanceFor("b").syncer.compact);
        QVERIFY(task.instanceFor("b").syncer.multipleRows);
        QVERIFY(!task.instanceFor("c").syncer.multipleRows);
        QVERIFY(anyWarningContains(task.warnings, "compact': has no effect with multiple-rows: false"));
        QVERIFY(!anyWarningContains(task.warnings, "syncers.plain.compact"));
    }

    void unknownSourceIdIsAConfigError() {
        const TaskConfig task = loadTaskConfig(dataFile("dm_bug_task.yaml"));
        try {
            (void)task.instanceFor("mysql-3307");
            QFAIL("resolved an unknown source");
        } catch (const ConfigError& error) {
            QVERIFY2(QString(error.what()).contains("no instance with source-id 'mysql-3307' (it has: mysql-3306)"),
                     error.what());
        }
    }

    void passwordsComeFromEnvironmentOrFileAndAreNeverPrinted() {
        qputenv("SYNCSCOPE_TEST_TARGET_PASSWORD", "from-env-Secret");
        const std::string base =
            "name: t\ntask-mode: incremental\nmysql-instances: [{source-id: s}]\ntarget-database:\n  host: h\n"
            "  user: u\n";
        const TaskConfig fromEnv =
            parseTaskConfig(base + "  password: \"${ENV:SYNCSCOPE_TEST_TARGET_PASSWORD}\"\n", "env.yaml");
        QCOMPARE(fromEnv.targetDatabase.server.password, std::string("from-env-Secret"));
        QVERIFY(fromEnv.describe().find("from-env-Secret") == std::string::npos);
        QVERIFY(toYaml(fromEnv).find("${ENV:SYNCSCOPE_TEST_TARGET_PASSWORD}") != std::string::npos);
        QVERIFY(toYaml(fromEnv).find("from-env-Secret") == std::string::npos);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::ofstream(dir.filePath("target.pw").toStdString()) << "from-file-Secret\n";
        const std::string taskPath = dir.filePath("task.yaml").toStdString();
        std::ofstream(taskPath) << base << "  password-file: target.pw\n";
        const TaskConfig fromFile = loadTaskConfig(taskPath);
        QCOMPARE(fromFile.targetDatabase.server.password, std::string("from-file-Secret"));
        QVERIFY(fromFile.describe().find("from-file-Secret") == std::string::npos);
        QVERIFY(toYaml(fromFile).find("password-file: \"target.pw\"") != std::string::npos);

        const TaskConfig inlinePassword = loadTaskConfig(dataFile("full_task.yaml"));
        QVERIFY(inlinePassword.describe().find("s3cret-Pa55") == std::string::npos);
        QVERIFY(inlinePassword.describe().find("dm_writer@10.0.0.5:4000") != std::string::npos);

        QVERIFY_THROWS_EXCEPTION(ConfigError,
                                 parseTaskConfig(base + "  password: x\n  password-file: target.pw\n", "both.yaml"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, parseTaskConfig(base + "  password-file: /nonexistent/pw\n", "f.yaml"));
    }

    void demoSamplesLoad() {
        qputenv("SYNCSCOPE_DOWN_PASSWORD", "down");
        qputenv("SYNCSCOPE_UP_PASSWORD", "up");
        const TaskConfig task = loadTaskConfig(sampleFile("demo-task.yaml"));
        const SourceConfig source = loadSourceConfig(sampleFile("demo-source.yaml"));
        const InstanceSettings settings = task.instanceFor(source);
        QCOMPARE(settings.syncer.workerCount, 4);
        QCOMPARE(task.taskMode, std::string("all"));  // a newcomer's demo ends with equal tables
        QCOMPARE(source.from.server.password, std::string("up"));
        QCOMPARE(task.targetDatabase.server.password, std::string("down"));
        QVERIFY2(task.warnings.empty(), task.warnings.empty() ? "" : task.warnings.front().c_str());
        QVERIFY(settings.blockAllowList().allows({"sbtest", "sbtest1"}));
        QVERIFY(!settings.blockAllowList().allows({"test", "t"}));
    }

    void goDurations_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("milliseconds");
        QTest::addColumn<bool>("valid");
        QTest::newRow("seconds") << "60s" << qint64{60000} << true;
        QTest::newRow("minutes and seconds") << "1m30s" << qint64{90000} << true;
        QTest::newRow("milliseconds") << "250ms" << qint64{250} << true;
        QTest::newRow("fractional hours") << "1.5h" << qint64{5400000} << true;
        QTest::newRow("bare zero") << "0" << qint64{0} << true;
        QTest::newRow("no unit") << "60" << qint64{0} << false;
        QTest::newRow("no number") << "s" << qint64{0} << false;
        QTest::newRow("unknown unit") << "3d" << qint64{0} << false;
        QTest::newRow("empty") << "" << qint64{0} << false;
    }

    void goDurations() {
        QFETCH(QString, text);
        QFETCH(qint64, milliseconds);
        QFETCH(bool, valid);
        if (!valid) {
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseGoDuration(text.toStdString()));
            return;
        }
        const auto parsed = parseGoDuration(text.toStdString());
        QCOMPARE(qint64(std::chrono::duration_cast<std::chrono::milliseconds>(parsed).count()), milliseconds);
        QCOMPARE(parseGoDuration(formatGoDuration(parsed)), parsed);
    }
};

QTEST_GUILESS_MAIN(TestTaskConfig)
#include "test_task_config.moc"
