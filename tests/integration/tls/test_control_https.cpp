// The CLI's remote commands against an engine whose control API runs over HTTPS with a token
// (`run --listen --tls-cert --tls-key --token-file`): with the right CA and token `verify --control
// https://...` gets the task's applied point and `preview` reaches the API; a wrong CA, a wrong token,
// a refused connection, plain HTTP against the HTTPS port and HTTPS against a plain HTTP port each end
// with one line on stderr that names the address and what to check; the GUI's remote entry (the
// overview's RemoteTask) gives the same reason in one line for each, and connects with the right ones.
#include <QtTest>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include "engine/remote/remote_task.h"
#include "tests/integration/outage/engine_process.h"
#include "tests/integration/outage/outage_helpers.h"
#include "tests/support/task_files.h"
#include "tests/support/test_env.h"

using namespace syncscope::test;
using syncscope::remote::RemoteEngineOptions;
namespace remote = syncscope::remote;

namespace {

const char* const kDatabase = "control_https";
const char* const kToken = "control-https-token-0123456789";
constexpr int kWaitMs = 60000;
constexpr int kCliTimeoutMs = 60000;
constexpr int kExitFailure = 1;

QString writeFile(const QTemporaryDir& dir, const QString& name, const std::string& text) {
    QFile file(dir.filePath(name));
    file.open(QIODevice::WriteOnly | QIODevice::Truncate);
    file.write(QByteArray::fromStdString(text + "\n"));
    return file.fileName();
}

int lineCount(const std::string& text) {
    int lines = 0;
    for (char c : text) {
        lines += c == '\n' ? 1 : 0;
    }
    return lines + (!text.empty() && text.back() != '\n' ? 1 : 0);
}

}  // namespace

class ControlHttpsTest : public QObject {
    Q_OBJECT

private slots:
    void remoteCommandsSpeakHttpsAndSayWhatIsWrong() {
        for (const auto& server : {upstreamRoot(), downstreamRoot()}) {
            auto connection = connectTo(server);
            connection->execute("SET SESSION sql_log_bin = 0");
            connection->execute(std::string("DROP DATABASE IF EXISTS ") + kDatabase);
            connection->execute(std::string("CREATE DATABASE ") + kDatabase);
            connection->execute(std::string("CREATE TABLE ") + kDatabase + ".t (id INT PRIMARY KEY, v INT)");
            connection->execute(std::string("INSERT INTO ") + kDatabase + ".t VALUES (1, 1), (2, 2)");
        }
        connectTo(downstreamRoot())->execute("DROP DATABASE IF EXISTS dm_meta");
        auto master = connectTo(upstreamRoot())->query("SHOW MASTER STATUS");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString certs = dir.filePath(QStringLiteral("certs"));
        QProcess makeCerts;
        makeCerts.start(QStringLiteral(SYNCSCOPE_SOURCE_DIR "/scripts/make-test-certs"), {certs});
        QVERIFY(makeCerts.waitForFinished(kWaitMs) && makeCerts.exitCode() == 0);
        const QString token = writeFile(dir, QStringLiteral("token"), kToken);
        const QString wrongToken = writeFile(dir, QStringLiteral("wrong-token"), "not-the-token-000000000000");

        TaskFileOptions options;
        options.name = "control-https";
        options.binlogName = *master.front()[0];
        options.binlogPos = std::stoull(*master.front()[1]);
        options.instanceExtra = "    block-allow-list: \"only\"\n";
        options.topLevelExtra = std::string("block-allow-list:\n  only: {do-dbs: [\"") + kDatabase + "\"]}\n";
        TaskFiles files = writeTaskFiles(dir.path().toStdString(), options);
        const int port = freeLoopbackPort();
        QProcess engine;
        engine.setProcessChannelMode(QProcess::MergedChannels);
        engine.setStandardOutputFile(dir.filePath(QStringLiteral("engine.log")));
        engine.start(
            QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"),
            {"run", QString::fromStdString(files.task), "--source", QString::fromStdString(files.source), "--log-dir",
             dir.filePath(QStringLiteral("logs")), "--listen", QStringLiteral("127.0.0.1:%1").arg(port), "--token-file",
             token, "--tls-cert", certs + "/server-cert.pem", "--tls-key", certs + "/server-key.pem"});
        QVERIFY(engine.waitForStarted());
        const QString https = QStringLiteral("https://127.0.0.1:%1").arg(port);
        const QStringList ca{"--ca", certs + "/ca.pem"};

        // The right CA and token: preview reaches the API (which has no failed event to preview).
        CliResult preview;
        QVERIFY2(waitFor(
                     [&] {
                         preview =
                             runCli(QStringList{"preview", "skip", "--control", https, "--token-file", token} + ca,
                                    kCliTimeoutMs);
                         return preview.err.find("HTTP ") != std::string::npos;
                     },
                     kWaitMs),
                 preview.err.c_str());
        QCOMPARE(preview.exitCode, kExitFailure);
        QVERIFY2(preview.err.find("refused the token") == std::string::npos, preview.err.c_str());

        // verify --control over HTTPS: the task's applied point is read, the table is equal.
        CliResult verified = runCli(
            QStringList{"verify", QString::fromStdString(files.task), "--source", QString::fromStdString(files.source),
                        "--control", https, "--token-file", token, "--json"} +
                ca,
            kCliTimeoutMs);
        QVERIFY2(verified.exitCode == 0, (verified.out + verified.err).c_str());

        struct Case {
            const char* name;
            QStringList args;
            const char* says;
        };
        const QString plainPort = QString::number(freeLoopbackPort());
        QProcess plainHttp;  // a plain HTTP server, to be asked in HTTPS
        plainHttp.start(QStringLiteral("python3"), {"-m", "http.server", plainPort, "--bind", "127.0.0.1"});
        QVERIFY(plainHttp.waitForStarted());
        QVERIFY(waitFor(
            [&] {
                return runCli({"preview", "skip", "--control", "http://127.0.0.1:" + plainPort}, kCliTimeoutMs)
                           .err.find("HTTP ") != std::string::npos;
            },
            kWaitMs));
        const QList<Case> cases{
            {"a CA that did not sign the certificate",
             QStringList{"--control", https, "--token-file", token, "--ca", certs + "/other-ca.pem"},
             "not signed by the CA"},
            {"a wrong token", QStringList{"--control", https, "--token-file", wrongToken} + ca,
             "refused the token (401)"},
            {"nothing listening",
             QStringList{"--control", QString("https://127.0.0.1:%1").arg(freeLoopbackPort())} + ca,
             "nothing answers there"},
            {"plain HTTP asked of the HTTPS port",
             QStringList{"--control", QString("127.0.0.1:%1").arg(port), "--token-file", token},
             "use https:// and --ca"},
            {"HTTPS asked of a plain HTTP port", QStringList{"--control", "127.0.0.1:" + plainPort} + ca,
             "is it a plain HTTP port?"},
        };
        for (const Case& wrong : cases) {
            for (const QString& command : {QStringLiteral("preview"), QStringLiteral("resume-from")}) {
                QStringList args = command == "preview" ? QStringList{"preview", "skip"}
                                                        : QStringList{"resume-from", "mariadb-bin.000001:4"};
                CliResult run = runCli(args + wrong.args, kCliTimeoutMs);
                const std::string what = std::string(wrong.name) + " (" + command.toStdString() + "): exit " +
                                         std::to_string(run.exitCode) + ": " + run.err + run.out;
                qInfo("%s", what.c_str());
                QVERIFY2(run.exitCode == kExitFailure, what.c_str());
                QVERIFY2(run.err.find(wrong.says) != std::string::npos, what.c_str());
                QVERIFY2(lineCount(run.err) == 1, what.c_str());
            }
        }
        // The GUI's remote entry (the overview's RemoteTask, over the same client) says the same, in one line:
        // the overview shows it as the entry's reason.
        auto remoteOptions = [&](bool tls, int atPort, const QString& caFile, const QString& tokenFile) {
            RemoteEngineOptions remote;
            remote.host = "127.0.0.1";
            remote.port = atPort;
            remote.tls = tls;
            remote.caFile = caFile.toStdString();
            remote.tokenFile = tokenFile.toStdString();
            return remote;
        };
        const QString caFile = certs + "/ca.pem";
        const QList<std::pair<RemoteEngineOptions, const char*>> remoteCases{
            {remoteOptions(true, port, certs + "/other-ca.pem", token), "not signed by the CA"},
            {remoteOptions(true, port, caFile, wrongToken), "refused the token (401)"},
            {remoteOptions(true, freeLoopbackPort(), caFile, {}), "nothing answers there"},
            {remoteOptions(false, port, {}, token), "use https:// and --ca"},
            {remoteOptions(true, plainPort.toInt(), caFile, {}), "is it a plain HTTP port?"},
        };
        for (const auto& [remoteCase, says] : remoteCases) {
            remote::RemoteTask entry(remoteCase);
            QVERIFY2(waitFor([&] { return entry.connection().failedPolls > 0; }, kWaitMs), says);
            const std::string error = entry.connection().error;
            qInfo("remote entry: %s", error.c_str());
            QVERIFY2(!entry.connection().connected, says);
            QVERIFY2(error.find(says) != std::string::npos, error.c_str());
            QVERIFY2(lineCount(error) == 1, error.c_str());
        }
        // The right CA and token: the entry connects and shows the engine's status.
        remote::RemoteTask connected(remoteOptions(true, port, caFile, token));
        QVERIFY2(waitFor([&] { return connected.connection().connected && connected.status() != nullptr; }, kWaitMs),
                 connected.connection().error.c_str());

        plainHttp.kill();
        plainHttp.waitForFinished();
        engine.terminate();
        QVERIFY(engine.waitForFinished(kWaitMs));
    }
};

QTEST_GUILESS_MAIN(ControlHttpsTest)
#include "test_control_https.moc"
