// Every malformed task or source file gives one ConfigError whose single line names the file, the line
// and the key, and says what is wrong; nothing is half-loaded.
#include <QtTest>

#include <string>

#include "engine/config/source_config.h"
#include "engine/config/task_config.h"

using namespace syncscope::config;

namespace {

std::string dataFile(const char* name) {
    return std::string(SYNCSCOPE_SOURCE_DIR) + "/tests/engine/task/data/" + name;
}

}  // namespace

class TestMalformedConfig : public QObject {
    Q_OBJECT

private slots:
    void malformedFileGivesOneLineErrorNamingFileLineAndKey_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("problem");

        QTest::newRow("unknown key, with a suggestion") << "task_unknown_key.yaml" << 26 << "syncers.global.worker-cont"
                                                        << "unknown key; did you mean 'worker-count'?";
        QTest::newRow("port 0") << "task_port_zero.yaml" << 5 << "target-database.port"
                                << "0 is out of range";
        QTest::newRow("port with no value") << "task_port_empty.yaml" << 5 << "target-database.port"
                                            << "needs a whole number, not nothing";
        QTest::newRow("worker-count 0") << "task_worker_count_zero.yaml" << 24 << "syncers.global.worker-count"
                                        << "0 is out of range";
        QTest::newRow("negative batch") << "task_negative_batch.yaml" << 25 << "syncers.global.batch"
                                        << "-5 is out of range";
        QTest::newRow("bad regex in do-dbs") << "task_bad_regex.yaml" << 15 << "block-allow-list.ba.do-dbs[1]"
                                             << "does not compile";
        QTest::newRow("unknown event name") << "task_unknown_event.yaml" << 20 << "filters.f.events[1]"
                                            << "unknown event 'all dmll'";
        QTest::newRow("unknown action") << "task_unknown_action.yaml" << 21 << "filters.f.action"
                                        << "unknown action 'Skip'; use Do, Ignore or Error";
        QTest::newRow("bad duration") << "task_bad_duration.yaml" << 26 << "syncers.global.safe-mode-duration"
                                      << "'60 seconds' is not a duration";
        QTest::newRow("dangling filter rule")
            << "task_dangling_filter.yaml" << 11 << "mysql-instances[0].filter-rules[1]"
            << "names rule 'no-such-rule', which is not defined under 'filters'";
        QTest::newRow("dangling block-allow-list")
            << "task_dangling_block_allow.yaml" << 10 << "mysql-instances[0].block-allow-list"
            << "'ba-typo'";
        QTest::newRow("text where a list belongs") << "task_wrong_type_list.yaml" << 15 << "block-allow-list.ba.do-dbs"
                                                   << "needs a list";
        QTest::newRow("text where a number belongs")
            << "task_wrong_type_number.yaml" << 24 << "syncers.global.worker-count"
            << "needs a whole number";
        QTest::newRow("task-mode dump (DM's dump files)")
            << "task_mode_dump.yaml" << 2 << "task-mode"
            << "task-mode 'dump' is a DM mode with dump files this version does not have; use 'all', 'full' or "
               "'incremental'";
        QTest::newRow("bad sql-pattern") << "task_bad_sql_pattern.yaml" << 21 << "filters.f.sql-pattern[1]"
                                         << "does not compile";
        QTest::newRow("star inside a pattern") << "task_star_not_last.yaml" << 19 << "filters.f.table-pattern"
                                               << "'*' must be the last character";
        QTest::newRow("key given twice") << "task_duplicate_key.yaml" << 26 << "syncers.global.batch"
                                         << "given twice";
        QTest::newRow("safe mode with zero duration")
            << "task_safe_mode_zero.yaml" << 27 << "syncers.global.safe-mode-duration"
            << "contradicts safe-mode";
        QTest::newRow("inline and named syncer")
            << "task_two_syncers.yaml" << 13 << "mysql-instances[0].syncer-config-name"
            << "not both";
        QTest::newRow("unset password variable") << "task_env_password_unset.yaml" << 7 << "target-database.password"
                                                 << "environment variable 'SYNCSCOPE_TEST_SURELY_UNSET_PASSWORD' is "
                                                    "not set";
        QTest::newRow("binlog-pos inside the magic header")
            << "task_binlog_pos_too_small.yaml" << 12 << "mysql-instances[0].meta.binlog-pos"
            << "2 is out of range";
        QTest::newRow("binlog-gtid that is not a GTID")
            << "task_bad_gtid.yaml" << 12 << "mysql-instances[0].meta.binlog-gtid"
            << "not a GTID set";
        QTest::newRow("column mappings refused") << "task_column_mappings.yaml" << 22 << "column-mappings"
                                                 << "not supported";
        QTest::newRow("source listed twice") << "task_duplicate_source.yaml" << 13 << "mysql-instances[1].source-id"
                                             << "listed twice";
        QTest::newRow("two filter rules on the same patterns")
            << "task_same_filter_patterns.yaml" << 11 << "mysql-instances[0].filter-rules"
            << "same schema-pattern and table-pattern";
        QTest::newRow("target-database missing") << "task_missing_target.yaml" << 1 << "target-database"
                                                 << "is required";
        QTest::newRow("source: unknown flavor") << "source_bad_flavor.yaml" << 2 << "flavor"
                                                << "unknown flavor 'oracle'; use mysql or mariadb";
        QTest::newRow("source: port above 65535") << "source_port_too_big.yaml" << 6 << "from.port"
                                                  << "70000 is out of range";
        QTest::newRow("source: user missing") << "source_missing_user.yaml" << 5 << "from.user"
                                              << "is required";
        QTest::newRow("source: misspelt relay key") << "source_relay_typo.yaml" << 4 << "enable-relya"
                                                    << "did you mean 'enable-relay'?";
        QTest::newRow("online-ddl-scheme DM does not know") << "task_online_bad_scheme.yaml" << 3 << "online-ddl-scheme"
                                                            << "'osc' is not a scheme DM knows";
        QTest::newRow("shard-mode DM does not know") << "task_bad_shard_mode.yaml" << 3 << "shard-mode"
                                                     << "'optimistc' is not a shard mode DM knows";
        QTest::newRow("shadow rule without the real table's group")
            << "task_online_bad_shadow_rule.yaml" << 4 << "shadow-table-rules"
            << "'^_.+_ghost$' has 0 capturing groups; it needs exactly one";
        QTest::newRow("trash rule that does not compile")
            << "task_online_bad_trash_rule.yaml" << 4 << "trash-table-rules"
            << "does not compile";
        QTest::newRow("source: text where true/false belongs") << "source_gtid_not_bool.yaml" << 3 << "enable-gtid"
                                                               << "needs true or false";
    }

    void malformedFileGivesOneLineErrorNamingFileLineAndKey() {
        QFETCH(QString, file);
        QFETCH(int, line);
        QFETCH(QString, key);
        QFETCH(QString, problem);
        const std::string path = dataFile(file.toStdString().c_str());
        try {
            if (file.startsWith("source_")) {
                (void)loadSourceConfig(path);
            } else {
                (void)loadTaskConfig(path);
            }
            QFAIL("the file loaded");
        } catch (const ConfigError& error) {
            const QString message = QString::fromStdString(error.what());
            QCOMPARE(QString::fromStdString(error.file()), QString::fromStdString(path));
            QCOMPARE(error.line(), line);
            QCOMPARE(QString::fromStdString(error.key()), key);
            const QString expectedStart =
                QString::fromStdString(path) + ":" + QString::number(line) + ": key '" + key + "': ";
            QVERIFY2(message.startsWith(expectedStart), qPrintable(message));
            QVERIFY2(message.contains(problem), qPrintable(message));
            QVERIFY2(!message.contains('\n'), qPrintable(message));
        }
    }

    void yamlSyntaxErrorNamesFileAndLine() {
        const std::string path = dataFile("task_yaml_syntax.yaml");
        try {
            (void)loadTaskConfig(path);
            QFAIL("the file loaded");
        } catch (const ConfigError& error) {
            QVERIFY2(error.line() >= 20 && error.line() <= 22, error.what());
            QVERIFY2(QString(error.what()).startsWith(QString::fromStdString(path) + ":"), error.what());
            QVERIFY2(QString(error.what()).contains("not valid YAML"), error.what());
        }
    }

    void missingFileIsAConfigError() {
        QVERIFY_THROWS_EXCEPTION(ConfigError, loadTaskConfig("/nonexistent/task.yaml"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, loadSourceConfig("/nonexistent/source.yaml"));
    }

    void emptyOrScalarFileIsAConfigError() {
        QVERIFY_THROWS_EXCEPTION(ConfigError, parseTaskConfig("", "empty.yaml"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, parseTaskConfig("just text", "scalar.yaml"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, parseSourceConfig("- a\n- b\n", "list.yaml"));
    }
};

QTEST_GUILESS_MAIN(TestMalformedConfig)
#include "test_malformed_config.moc"
