#include "tests/integration/outage/outage_helpers.h"

#include <QProcess>

#include "engine/common/server_settings.h"

namespace syncscope::test {

namespace {

constexpr int kRestartTimeoutMs = 180000;

}  // namespace

std::unique_ptr<source::UpstreamConnection> connectTo(const ServerSettings& server) {
    return std::make_unique<source::UpstreamConnection>(engineSettings(server));
}

QStringList sysbenchArgs(const std::string& database, int tables, int tableSize, int seconds, const char* command,
                         int rate) {
    ServerSettings up = upstreamRoot();
    return {QStringLiteral("oltp_write_only"),
            QStringLiteral("--db-driver=mysql"),
            QStringLiteral("--mysql-host=127.0.0.1"),
            QStringLiteral("--mysql-port=%1").arg(up.port),
            QStringLiteral("--mysql-user=%1").arg(QString::fromStdString(up.user)),
            QStringLiteral("--mysql-password=%1").arg(QString::fromStdString(up.password)),
            QStringLiteral("--mysql-db=%1").arg(QString::fromStdString(database)),
            QStringLiteral("--tables=%1").arg(tables),
            QStringLiteral("--table-size=%1").arg(tableSize),
            QStringLiteral("--threads=2"),
            QStringLiteral("--rate=%1").arg(rate),
            QStringLiteral("--time=%1").arg(seconds),
            QString::fromLatin1(command)};
}

std::string tableFingerprint(const ServerSettings& server, const std::string& database, int tables) {
    try {
        auto connection = connectTo(server);
        std::string all;
        for (int t = 1; t <= tables; ++t) {
            std::string table = "`" + database + "`.sbtest" + std::to_string(t);
            all += connection->queryValue("SELECT COUNT(*) FROM " + table).value_or("NULL") + "/";
            all += connection->query("CHECKSUM TABLE " + table).front()[1].value_or("NULL") + ";";
        }
        return all;
    } catch (const std::exception& e) {
        return std::string("ERROR: ") + e.what();
    }
}

RestartResult restartServer(const char* which, double secondsDown) {
    QProcess script;
    script.setProcessChannelMode(QProcess::MergedChannels);
    script.start(QStringLiteral(SYNCSCOPE_SOURCE_DIR "/scripts/dbpair"),
                 {QStringLiteral("restart"), QString::fromLatin1(which), QString::number(secondsDown)});
    RestartResult result;
    result.ok = script.waitForFinished(kRestartTimeoutMs) && script.exitStatus() == QProcess::NormalExit &&
                script.exitCode() == 0;
    result.output = script.readAll().toStdString();
    return result;
}

size_t occurrences(const std::string& text, const std::string& needle) {
    size_t count = 0;
    for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
        ++count;
    }
    return count;
}

}  // namespace syncscope::test
