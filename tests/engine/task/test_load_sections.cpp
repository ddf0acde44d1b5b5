// DM's `mydumpers` and `loaders` sections and each mysql-instance's references to them: every key is
// used with its meaning (threads and pool-size give the load's workers, rows or chunk-filesize the
// chunk size, statement-size the INSERT size, on-duplicate-logical what a duplicate does), refused
// with an error naming it and why (where, physical import, row-choosing extra-args, conflicts), or
// accepted with a warning naming it and why it changes nothing (dir, skip-tz-utc, mydumper-path, ...).
#include <QtTest>

#include <algorithm>
#include <string>

#include "engine/config/source_config.h"
#include "engine/config/task_config.h"
#include "engine/task/task_setup_builder.h"

using namespace syncscope::task;
using namespace syncscope::config;

namespace {

// A task with one source; `instance` is more YAML of its mysql-instances entry (each line indented by
// four spaces), `top` more top-level YAML.
std::string taskText(const std::string& instance, const std::string& top, const std::string& mode = "all") {
    return "name: \"sections\"\n"
           "task-mode: " +
           mode +
           "\n"
           "target-database: {host: \"127.0.0.1\", port: 3306, user: \"root\", password: \"\"}\n"
           "mysql-instances:\n"
           "  - source-id: \"s1\"\n" +
           instance + top;
}

std::string errorOf(const std::string& text) {
    try {
        (void)parseTaskConfig(text, "sections.yaml");
    } catch (const ConfigError& error) {
        return error.what();
    }
    return "no error";
}

bool anyWarningContains(const std::vector<std::string>& warnings, const std::string& text) {
    return std::any_of(warnings.begin(), warnings.end(),
                       [&](const std::string& warning) { return warning.find(text) != std::string::npos; });
}

std::string allWarnings(const std::vector<std::string>& warnings) {
    std::string all;
    for (const auto& warning : warnings) {
        all += warning + "\n";
    }
    return all;
}

}  // namespace

class TestLoadSections : public QObject {
    Q_OBJECT

private slots:
    void keysDriveTheLoadSettings_data() {
        QTest::addColumn<QString>("instance");
        QTest::addColumn<QString>("top");
        QTest::addColumn<int>("workers");
        QTest::addColumn<qulonglong>("chunkRows");  // 0: not set by the task (the load's default)
        QTest::addColumn<qulonglong>("chunkBytes");
        QTest::addColumn<qulonglong>("statementBytes");
        QTest::addColumn<QString>("onDuplicate");

        QTest::addRow("no sections: DM's defaults, 4 threads and 16 connections give 4 workers")
            << ""
            << "" << 4 << 0ULL << 0ULL << 0ULL << "";
        QTest::addRow("threads by name: fewer threads than pool-size decide") << "    mydumper-config-name: \"m\"\n"
                                                                              << "mydumpers:\n  m: {threads: 2}\n"
                                                                              << 2 << 0ULL << 0ULL << 0ULL << "";
        QTest::addRow("pool-size inline: fewer connections than threads decide")
            << "    mydumper: {threads: 8}\n    loader: {pool-size: 3}\n"
            << "" << 3 << 0ULL << 0ULL << 0ULL << "";
        QTest::addRow("mydumper-thread and loader-thread win over the sections")
            << "    mydumper-config-name: \"m\"\n    loader-config-name: \"l\"\n    mydumper-thread: 6\n"
               "    loader-thread: 5\n"
            << "mydumpers:\n  m: {threads: 2}\nloaders:\n  l: {pool-size: 1}\n"
            << 5 << 0ULL << 0ULL << 0ULL << "";
        QTest::addRow("rows is the chunk size in rows") << "    mydumper: {rows: 5000}\n"
                                                        << "" << 4 << 5000ULL << 0ULL << 0ULL << "";
        QTest::addRow("chunk-filesize as DM writes it (text) is megabytes per chunk")
            << "    mydumper: {chunk-filesize: \"64\"}\n"
            << "" << 4 << 0ULL << 64ULL * 1024 * 1024 << 0ULL << "";
        QTest::addRow("chunk-filesize as a number") << "    mydumper: {chunk-filesize: 8}\n"
                                                    << "" << 4 << 0ULL << 8ULL * 1024 * 1024 << 0ULL << "";
        QTest::addRow("rows wins over chunk-filesize") << "    mydumper: {rows: 700, chunk-filesize: \"64\"}\n"
                                                       << "" << 4 << 700ULL << 0ULL << 0ULL << "";
        QTest::addRow("rows 0 is off: chunk-filesize decides") << "    mydumper: {rows: 0, chunk-filesize: \"2\"}\n"
                                                               << "" << 4 << 0ULL << 2ULL * 1024 * 1024 << 0ULL << "";
        QTest::addRow("statement-size bounds one INSERT") << "    mydumper: {statement-size: 1000000}\n"
                                                          << "" << 4 << 0ULL << 0ULL << 1000000ULL << "";
        QTest::addRow("on-duplicate-logical replace") << "    loader: {on-duplicate-logical: replace}\n"
                                                      << "" << 4 << 0ULL << 0ULL << 0ULL << "replace";
        QTest::addRow("DM's older on-duplicate, any case") << "    loader: {on-duplicate: IGNORE}\n"
                                                           << "" << 4 << 0ULL << 0ULL << 0ULL << "ignore";
        QTest::addRow("import-mode logical, sql and loader are SQL statements, as this load sends")
            << "    loader: {import-mode: sql, on-duplicate-logical: error}\n"
            << "" << 4 << 0ULL << 0ULL << 0ULL << "error";
    }

    void keysDriveTheLoadSettings() {
        QFETCH(QString, instance);
        QFETCH(QString, top);
        QFETCH(int, workers);
        QFETCH(qulonglong, chunkRows);
        QFETCH(qulonglong, chunkBytes);
        QFETCH(qulonglong, statementBytes);
        QFETCH(QString, onDuplicate);
        const TaskConfig task = parseTaskConfig(taskText(instance.toStdString(), top.toStdString()), "sections.yaml");
        SourceConfig source;
        source.sourceId = "s1";
        std::vector<std::string> warnings;
        const TaskSetup setup = makeTaskSetup(task, source, warnings);
        QCOMPARE(setup.loadThreads, static_cast<size_t>(workers));
        QCOMPARE(setup.loadChunkRows, chunkRows == 0 ? TaskSetup::kDefaultLoadChunkRows : chunkRows);
        QCOMPARE(setup.loadChunkBytes, static_cast<uint64_t>(chunkBytes));
        QCOMPARE(setup.loadStatementBytes, static_cast<size_t>(statementBytes));
        QCOMPARE(QString::fromStdString(setup.loadOnDuplicate), onDuplicate);

        // The writer keeps every section and reference: read back, the same settings.
        const std::string written = toYaml(task);
        const TaskConfig reread = parseTaskConfig(written, "rewritten.yaml");
        QVERIFY2(task.sameSettings(reread), written.c_str());
        QVERIFY2(reread.instanceFor("s1").load == task.instanceFor("s1").load, written.c_str());
    }

    void keysThatWouldChangeTheRowsAreRefused_data() {
        QTest::addColumn<QString>("instance");
        QTest::addColumn<QString>("top");
        QTest::addColumn<QString>("error");

        QTest::addRow("where copies some rows while the binlog replicates all")
            << ""
            << "mydumpers:\n  m: {where: \"id < 10\"}\n"
            << "sections.yaml:7: key 'mydumpers.m.where': copying only the rows that match is not supported";
        QTest::addRow("physical import has no MariaDB counterpart")
            << "    loader: {import-mode: physical}\n"
            << ""
            << "key 'mysql-instances[0].loader.import-mode': physical import (TiDB Lightning's SST files";
        QTest::addRow("an unknown import-mode")
            << "    loader: {import-mode: turbo}\n"
            << ""
            << "key 'mysql-instances[0].loader.import-mode': unknown import-mode 'turbo'; use logical";
        QTest::addRow("extra-args choosing tables") << "    mydumper: {extra-args: \"--no-locks -T shop.orders\"}\n"
                                                    << ""
                                                    << "'-T' chooses which tables or rows mydumper dumps";
        QTest::addRow("extra-args choosing rows, with its value glued")
            << "    mydumper: {extra-args: \"--where=id<10\"}\n"
            << ""
            << "'--where=id<10' chooses which tables or rows mydumper dumps";
        QTest::addRow("an unknown on-duplicate rule")
            << "    loader: {on-duplicate-logical: overwrite}\n"
            << ""
            << "key 'mysql-instances[0].loader.on-duplicate-logical': unknown rule 'overwrite'";
        QTest::addRow("on-duplicate and on-duplicate-logical disagree")
            << "    loader: {on-duplicate: ignore, on-duplicate-logical: replace}\n"
            << ""
            << "on-duplicate-logical': says replace but on-duplicate says ignore";
        QTest::addRow("both mydumper and mydumper-config-name")
            << "    mydumper: {threads: 2}\n    mydumper-config-name: \"m\"\n"
            << "mydumpers:\n  m: {threads: 3}\n"
            << "key 'mysql-instances[0].mydumper-config-name': give either mydumper or mydumper-config-name";
        QTest::addRow("a loader name that is not defined")
            << "    loader-config-name: \"fast\"\n"
            << ""
            << "key 'mysql-instances[0].loader-config-name': names loader 'fast', which is not defined under "
               "'loaders'";
        QTest::addRow("threads 0") << "    mydumper: {threads: 0}\n"
                                   << ""
                                   << "key 'mysql-instances[0].mydumper.threads': 0 is out of range";
        QTest::addRow("loader-thread 0") << "    loader-thread: 0\n"
                                         << ""
                                         << "key 'mysql-instances[0].loader-thread': 0 is out of range";
        QTest::addRow("chunk-filesize with a unit")
            << "    mydumper: {chunk-filesize: \"64MiB\"}\n"
            << ""
            << "chunk-filesize': needs a whole number of megabytes (mydumper's -F)";
        QTest::addRow("a misspelt key, with a suggestion")
            << ""
            << "loaders:\n  l: {pool-sise: 4}\n"
            << "key 'loaders.l.pool-sise': unknown key; did you mean 'pool-size'?";
    }

    void keysThatWouldChangeTheRowsAreRefused() {
        QFETCH(QString, instance);
        QFETCH(QString, top);
        QFETCH(QString, error);
        const std::string message = errorOf(taskText(instance.toStdString(), top.toStdString()));
        QVERIFY2(message.find(error.toStdString()) != std::string::npos, message.c_str());
        QVERIFY2(message.find('\n') == std::string::npos, message.c_str());
    }

    void keysThatChangeNothingHereAreWarnedByName_data() {
        QTest::addColumn<QString>("instance");
        QTest::addColumn<QString>("top");
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("warning");

        QTest::addRow("dir: no dump files")
            << "    loader-config-name: \"l\"\n"
            << "loaders:\n  l: {dir: \"./dumped_data\"}\n"
            << "all"
            << "key 'loaders.l.dir': ignored: the load streams rows from the upstream snapshot straight into the "
               "target";
        QTest::addRow("skip-tz-utc: TIMESTAMP travels in UTC")
            << "    mydumper: {skip-tz-utc: true}\n"
            << ""
            << "full"
            << "key 'mysql-instances[0].mydumper.skip-tz-utc': ignored: the load reads and writes TIMESTAMP values "
               "in UTC";
        QTest::addRow("mydumper-path: no mydumper runs")
            << "    mydumper: {mydumper-path: \"./bin/mydumper\"}\n"
            << ""
            << "all"
            << "mydumper.mydumper-path': ignored: SyncScope reads the upstream itself";
        QTest::addRow("extra-args that choose nothing") << "    mydumper: {extra-args: \"--no-locks\"}\n"
                                                        << ""
                                                        << "all"
                                                        << "mydumper.extra-args': ignored ('--no-locks')";
        QTest::addRow("a physical import key") << "    loader: {import-mode: logical, disk-quota-physical: \"10GB\"}\n"
                                               << ""
                                               << "all"
                                               << "loader.disk-quota-physical': ignored: a key of DM's physical import";
        QTest::addRow("rows wins over chunk-filesize, said")
            << "    mydumper: {rows: 10, chunk-filesize: \"64\"}\n"
            << ""
            << "all"
            << "mydumper.chunk-filesize': ignored: rows is given, and rows wins";
        QTest::addRow("a section no instance names") << ""
                                                     << "mydumpers:\n  spare: {threads: 2}\n"
                                                     << "all"
                                                     << "key 'mydumpers.spare': defined but no mysql-instance uses it";
        QTest::addRow("pool-size larger than threads cannot take effect")
            << "    loader: {pool-size: 32}\n"
            << ""
            << "all"
            << "key 'mysql-instances[0]': the load runs 4 workers, the smaller of mydumper threads (4) and loader "
               "pool-size (32)";
        QTest::addRow("incremental has no load") << "    mydumper-thread: 8\n"
                                                 << ""
                                                 << "incremental"
                                                 << "names mydumper or loader settings, which only a load uses";
    }

    void keysThatChangeNothingHereAreWarnedByName() {
        QFETCH(QString, instance);
        QFETCH(QString, top);
        QFETCH(QString, mode);
        QFETCH(QString, warning);
        const TaskConfig task =
            parseTaskConfig(taskText(instance.toStdString(), top.toStdString(), mode.toStdString()), "sections.yaml");
        QVERIFY2(anyWarningContains(task.warnings, warning.toStdString()), allWarnings(task.warnings).c_str());
    }

    void defaultsWarnNothing() {
        const TaskConfig task = parseTaskConfig(
            taskText("    mydumper-config-name: \"m\"\n    loader-config-name: \"l\"\n",
                     "mydumpers:\n  m: {threads: 4, rows: 1000}\nloaders:\n  l: {import-mode: logical}\n"),
            "sections.yaml");
        QVERIFY2(task.warnings.empty(), allWarnings(task.warnings).c_str());
    }
};

QTEST_APPLESS_MAIN(TestLoadSections)
#include "test_load_sections.moc"
