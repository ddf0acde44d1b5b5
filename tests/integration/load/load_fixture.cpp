#include "tests/integration/load/load_fixture.h"

#include <QProcessEnvironment>

namespace syncscope::test {

namespace {

std::string valueOf(source::UpstreamConnection& connection, const std::string& sql) {
    try {
        return connection.queryValue(sql).value_or("NULL");
    } catch (const std::exception& e) {
        return std::string("ERROR: ") + e.what();
    }
}

}  // namespace

void createLoadSource(source::UpstreamConnection& up, source::UpstreamConnection& down, int rowsPerTable) {
    for (auto* server : {&up, &down}) {
        server->execute("DROP DATABASE IF EXISTS loadsrc");
        server->execute("DROP DATABASE IF EXISTS loaddst");
    }
    down.execute("DROP DATABASE IF EXISTS dm_meta");
    up.execute("CREATE DATABASE loadsrc");
    up.execute(
        "CREATE TABLE loadsrc.items (id INT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(64) CHARACTER SET utf8mb4, "
        "payload BLOB, price DECIMAL(12,2), at DATETIME(3), seen TIMESTAMP NULL, flags BIT(5), note TEXT, "
        "doubled BIGINT AS (id * 2) VIRTUAL, stored_name VARCHAR(70) AS (CONCAT('n:', name)) STORED)");
    up.execute(
        "CREATE TABLE loadsrc.pairs (region VARCHAR(16) NOT NULL, n INT NOT NULL, v DOUBLE, b VARBINARY(8), "
        "PRIMARY KEY (region, n))");
    up.execute("CREATE TABLE loadsrc.nokey (a INT, b VARCHAR(10), c DATE)");
    up.execute("CREATE TABLE loadsrc.ignored (id INT PRIMARY KEY)");
    // Awkward values: quotes, backslashes, NUL and control bytes, emoji, NULLs, key 0.
    up.execute("USE loadsrc");  // the seq_1_to_N tables of the SEQUENCE engine need a current database
    up.execute("SET SESSION sql_mode = 'NO_AUTO_VALUE_ON_ZERO'");
    up.execute(
        "INSERT INTO loadsrc.items (id, name, payload, price, at, seen, flags, note) VALUES "
        "(0, 'zero', X'00', 0, '2000-01-01', NULL, b'0', NULL)");
    up.execute(
        "INSERT INTO loadsrc.items (name, payload, price, at, seen, flags, note) "
        "SELECT CONCAT('it''s \\\\ \\n', seq, IF(seq % 7 = 0, '😀', '')), IF(seq % 5 = 0, NULL, "
        "UNHEX(CONCAT(HEX(seq), '00FF27'))), seq * 1.25 - 500, '2024-02-29 23:59:59.125' - INTERVAL seq MINUTE, "
        "IF(seq % 3 = 0, NULL, FROM_UNIXTIME(1700000000 + seq)), seq % 32, REPEAT('x', seq % 300) FROM seq_1_to_" +
        std::to_string(rowsPerTable));
    up.execute(
        "INSERT INTO loadsrc.pairs SELECT ELT(1 + seq % 4, 'north', 'south', 'east', 'we''st'), seq, seq / 3.0, "
        "UNHEX(LPAD(HEX(seq), 8, '0')) FROM seq_1_to_" +
        std::to_string(rowsPerTable));
    up.execute(
        "INSERT INTO loadsrc.nokey SELECT seq % 50, IF(seq % 9 = 0, NULL, CONCAT('v', seq % 13)), "
        "'2020-01-01' + INTERVAL seq % 400 DAY FROM seq_1_to_" +
        std::to_string(rowsPerTable));
    up.execute("INSERT INTO loadsrc.ignored SELECT seq FROM seq_1_to_10");
}

TaskFileOptions loadTaskOptions(const std::string& name, const std::string& mode) {
    TaskFileOptions options;
    options.name = name;
    options.taskMode = mode;
    options.instanceExtra =
        "    block-allow-list: \"loadsrc-only\"\n"
        "    route-rules: [\"items-renamed\", \"to-loaddst\"]\n";
    options.topLevelExtra =
        "block-allow-list:\n"
        "  loadsrc-only:\n"
        "    do-dbs: [\"loadsrc\"]\n"
        "    ignore-tables: [{db-name: \"loadsrc\", tbl-name: \"ignored\"}]\n"
        "routes:\n"
        "  items-renamed: {schema-pattern: \"loadsrc\", table-pattern: \"items\", target-schema: \"loaddst\", "
        "target-table: \"items_copy\"}\n"
        "  to-loaddst: {schema-pattern: \"loadsrc\", target-schema: \"loaddst\"}\n";
    return options;
}

std::string tableChecksums(source::UpstreamConnection& server, bool upstream) {
    std::string all;
    for (const auto& [source, target] : kLoadedTables) {
        const std::string& table = upstream ? source : target;
        all += valueOf(server, "SELECT COUNT(*) FROM " + table) + "/";
        try {
            all += server.query("CHECKSUM TABLE " + table).front()[1].value_or("NULL") + ";";
        } catch (const std::exception& e) {
            all += std::string("ERROR ") + e.what() + ";";
        }
    }
    return all;
}

void startRun(QProcess& process, const TaskFiles& files, const QString& logDir, int chunkRows, int threads,
              const QString& loadMethod, const QStringList& extraArguments) {
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    if (!loadMethod.isEmpty()) {
        environment.insert(QStringLiteral("SYNCSCOPE_LOAD_METHOD"), loadMethod);
    }
    environment.insert(QStringLiteral("SYNCSCOPE_LOAD_CHUNK_ROWS"), QString::number(chunkRows));
    environment.insert(QStringLiteral("SYNCSCOPE_LOAD_THREADS"), QString::number(threads));
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"),
                  QStringList{QStringLiteral("run"), QString::fromStdString(files.task), QStringLiteral("--source"),
                              QString::fromStdString(files.source), QStringLiteral("--log-dir"), logDir} +
                      extraArguments);
}

}  // namespace syncscope::test
