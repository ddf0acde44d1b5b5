// TLS to both servers with DM's `security` keys (ssl-ca, ssl-cert, ssl-key). The suite makes its own
// CA and certificates (scripts/make-test-certs) and its own TLS-only MariaDB pair (scripts/dbpair with
// --require-secure-transport=ON, on the ports after the test pair's, in a temporary folder; stopped by
// PID at the end). The replication user upstream and root downstream also need a client certificate
// (REQUIRE X509). `syncscope-cli run` then streams the binlog and queries the upstream over TLS and
// applies downstream over TLS; a wrong CA or an unreadable file is an error naming the side and the file.
#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <filesystem>
#include <fstream>

#include "engine/common/server_settings.h"
#include "engine/source/upstream_connection.h"
#include "tests/integration/outage/engine_process.h"

using nlohmann::json;
using syncscope::source::UpstreamConnection;
using namespace syncscope::test;

namespace {

const char* const kRootPassword = "tls-root-pw-5150";
const char* const kReplPassword = "tls-repl-pw-5150";
const char* const kReplUser = "syncscope_repl";
constexpr int kScriptTimeoutMs = 180000;
constexpr int kCliTimeoutMs = 60000;
constexpr int kWaitMs = 60000;

struct Side {
    const char* name;  // "up" or "down"
    int port;
};

}  // namespace

class TlsTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::string certs_;
    QStringList pairEnv_;
    bool pairStarted_ = false;

    std::string cert(const char* file) const { return certs_ + "/" + file; }

    syncscope::ServerSettings server(int port, const std::string& user, const std::string& password,
                                     bool clientCertificate) const {
        syncscope::ServerSettings settings;
        settings.port = port;
        settings.user = user;
        settings.password = password;
        settings.tls.caFile = cert("ca.pem");
        if (clientCertificate) {
            settings.tls.certFile = cert("client-cert.pem");
            settings.tls.keyFile = cert("client-key.pem");
        }
        return settings;
    }
    syncscope::ServerSettings upRoot() const { return server(SYNCSCOPE_TEST_TLS_PORT, "root", kRootPassword, true); }
    syncscope::ServerSettings downRoot() const {
        return server(SYNCSCOPE_TEST_TLS_PORT + 1, "root", kRootPassword, true);
    }

    bool runScript(const QString& script, const QStringList& args, std::string& output) {
        QProcess process;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        for (const QString& entry : pairEnv_) {
            environment.insert(entry.section(QLatin1Char('='), 0, 0), entry.section(QLatin1Char('='), 1));
        }
        process.setProcessEnvironment(environment);
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.start(QStringLiteral(SYNCSCOPE_SOURCE_DIR "/scripts/") + script, args);
        bool ok = process.waitForFinished(kScriptTimeoutMs) && process.exitStatus() == QProcess::NormalExit &&
                  process.exitCode() == 0;
        output = process.readAll().toStdString();
        return ok;
    }

    // Task and source files with `security` on both sides; caFor names the CA file of each side.
    std::pair<std::string, std::string> writeFiles(const std::string& name, const std::string& upCa,
                                                   const std::string& downCa, const std::string& upCert = {}) {
        auto master = UpstreamConnection(upRoot()).query("SHOW MASTER STATUS");
        std::string folder = dir_.filePath(QString::fromStdString(name)).toStdString();
        std::filesystem::create_directories(folder);
        auto security = [&](const std::string& ca, const std::string& clientCert) {
            return "security: {ssl-ca: \"" + ca + "\", ssl-cert: \"" + clientCert + "\", ssl-key: \"" +
                   cert("client-key.pem") + "\"}";
        };
        std::string task = folder + "/task.yaml";
        std::string source = folder + "/source.yaml";
        std::ofstream(task) << "name: " << name << "\ntask-mode: incremental\n"
                            << "target-database: {host: \"127.0.0.1\", port: " << SYNCSCOPE_TEST_TLS_PORT + 1
                            << ", user: \"root\", password: \"" << kRootPassword << "\", "
                            << security(downCa, cert("client-cert.pem")) << "}\n"
                            << "mysql-instances:\n  - source-id: \"tls-source\"\n"
                            << "    meta: {binlog-name: \"" << *master.front()[0]
                            << "\", binlog-pos: " << *master.front()[1] << "}\n"
                            << "    block-allow-list: \"only-tlsdb\"\n"
                            << "    syncer: {worker-count: 2, checkpoint-flush-interval: 1}\n"
                            << "block-allow-list:\n  only-tlsdb: {do-dbs: [\"tlsdb\"]}\n";
        std::ofstream(source) << "source-id: \"tls-source\"\nflavor: mariadb\nenable-gtid: false\n"
                              << "from: {host: \"127.0.0.1\", port: " << SYNCSCOPE_TEST_TLS_PORT << ", user: \""
                              << kReplUser << "\", password: \"" << kReplPassword << "\", "
                              << security(upCa, upCert.empty() ? cert("client-cert.pem") : upCert) << "}\n";
        return {task, source};
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        certs_ = dir_.filePath(QStringLiteral("certs")).toStdString();
        std::string output;
        QVERIFY2(runScript(QStringLiteral("make-test-certs"), {QString::fromStdString(certs_)}, output),
                 output.c_str());
        pairEnv_ = {QStringLiteral("SYNCSCOPE_DB_DIR=") + dir_.filePath(QStringLiteral("db")),
                    QStringLiteral("SYNCSCOPE_UP_PORT=%1").arg(SYNCSCOPE_TEST_TLS_PORT),
                    QStringLiteral("SYNCSCOPE_DOWN_PORT=%1").arg(SYNCSCOPE_TEST_TLS_PORT + 1),
                    // its own pair has no replica; the test environment's replica port must not be its downstream
                    QStringLiteral("SYNCSCOPE_REPLICA_PORT=%1").arg(SYNCSCOPE_TEST_TLS_PORT + 2),
                    QStringLiteral("SYNCSCOPE_ROOT_PASSWORD=") + QString::fromLatin1(kRootPassword),
                    QStringLiteral("SYNCSCOPE_REPL_PASSWORD=") + QString::fromLatin1(kReplPassword),
                    QStringLiteral("SYNCSCOPE_SERVER_OPTIONS=--ssl-ca=%1 --ssl-cert=%2 --ssl-key=%3 "
                                   "--require-secure-transport=ON")
                        .arg(QString::fromStdString(cert("ca.pem")), QString::fromStdString(cert("server-cert.pem")),
                             QString::fromStdString(cert("server-key.pem")))};
        pairStarted_ = true;
        QVERIFY2(runScript(QStringLiteral("dbpair"), {QStringLiteral("start")}, output), output.c_str());

        // Client certificates required on top of TLS: the engine must present ssl-cert and ssl-key.
        UpstreamConnection up(server(SYNCSCOPE_TEST_TLS_PORT, "root", kRootPassword, false));
        up.execute(std::string("ALTER USER '") + kReplUser + "'@'127.0.0.1' REQUIRE X509");
        up.execute("ALTER USER 'root'@'127.0.0.1' REQUIRE X509");
        UpstreamConnection down(server(SYNCSCOPE_TEST_TLS_PORT + 1, "root", kRootPassword, false));
        down.execute("ALTER USER 'root'@'127.0.0.1' REQUIRE X509");
        for (const syncscope::ServerSettings& settings : {upRoot(), downRoot()}) {
            UpstreamConnection connection(settings);
            connection.execute("SET SESSION sql_log_bin = 0");
            connection.execute("CREATE DATABASE tlsdb");
            connection.execute("CREATE TABLE tlsdb.t (id INT PRIMARY KEY, v VARCHAR(40))");
        }
    }

    void cleanupTestCase() {
        if (pairStarted_) {
            std::string output;
            QVERIFY2(runScript(QStringLiteral("dbpair"), {QStringLiteral("stop")}, output), output.c_str());
        }
    }

    void theServersRefuseClientsWithoutTlsOrWithoutACertificate() {
        for (int port : {SYNCSCOPE_TEST_TLS_PORT, SYNCSCOPE_TEST_TLS_PORT + 1}) {
            syncscope::ServerSettings plain = server(port, "root", kRootPassword, false);
            plain.tls = {};
            QVERIFY_THROWS_EXCEPTION(syncscope::source::UpstreamError, UpstreamConnection{plain});
            // TLS without the client certificate is refused too (REQUIRE X509).
            QVERIFY_THROWS_EXCEPTION(syncscope::source::UpstreamError,
                                     UpstreamConnection{server(port, "root", kRootPassword, false)});
        }
        for (const syncscope::ServerSettings& settings : {upRoot(), downRoot()}) {
            UpstreamConnection connection(settings);
            QVERIFY(!connection.query("SHOW STATUS LIKE 'Ssl_cipher'").front()[1].value_or("").empty());
        }
    }

    void binlogStreamQueriesAndApplyAllRunOverTls() {
        auto [task, source] = writeFiles("tls-task", cert("ca.pem"), cert("ca.pem"));
        EngineProcess engine(task, source, dir_.filePath(QStringLiteral("tls-task/logs")).toStdString());
        QVERIFY2(engine.start(), engine.stderrText().c_str());
        UpstreamConnection up(upRoot());
        up.execute("INSERT INTO tlsdb.t VALUES (1, 'over tls'), (2, 'both ways')");
        up.execute("UPDATE tlsdb.t SET v = 'updated over tls' WHERE id = 2");
        std::string upstream = *up.query("CHECKSUM TABLE tlsdb.t").front()[1];
        QVERIFY2(waitFor(
                     [&] {
                         try {
                             return UpstreamConnection(downRoot()).query("CHECKSUM TABLE tlsdb.t").front()[1] ==
                                    upstream;
                         } catch (const std::exception&) {
                             return false;
                         }
                     },
                     kWaitMs),
                 (engine.status().dump(2) + engine.stderrText()).c_str());
        QVERIFY2(waitFor([&] { return engine.stage() == "Running"; }, kWaitMs),
                 (engine.status().dump(2) + engine.stderrText()).c_str());
        // The upstream's position is read over TLS as well (UpstreamWatch).
        auto master = up.query("SHOW MASTER STATUS");
        std::string masterText = "(" + *master.front()[0] + ", " + *master.front()[1] + ")";
        QVERIFY2(waitFor([&] { return engine.status().value("master_binlog", std::string()) == masterText; }, kWaitMs),
                 engine.status().dump(2).c_str());
        // The binlog dump is one of the replication user's sessions, which the server takes over TLS only.
        UpstreamConnection check(upRoot());
        QVERIFY(!check
                     .query("SELECT ID FROM information_schema.PROCESSLIST WHERE USER = 'syncscope_repl' AND "
                            "COMMAND = 'Binlog Dump'")
                     .empty());
        QCOMPARE(engine.terminate(), 0);
    }

    void aWrongCaOrAnUnreadableFileIsAnErrorNamingTheSideAndTheFile_data() {
        QTest::addColumn<QString>("side");
        QTest::addColumn<QString>("problem");
        QTest::addColumn<QString>("mentions");
        QTest::addRow("downstream, CA of another authority") << "down"
                                                             << "wrong-ca"
                                                             << "target database";
        QTest::addRow("upstream, CA of another authority") << "up"
                                                           << "wrong-ca"
                                                           << "upstream";
        QTest::addRow("downstream, missing CA file") << "down"
                                                     << "missing-ca"
                                                     << "target-database.security.ssl-ca";
        QTest::addRow("upstream, missing client certificate") << "up"
                                                              << "missing-cert"
                                                              << "security.ssl-cert";
    }

    void aWrongCaOrAnUnreadableFileIsAnErrorNamingTheSideAndTheFile() {
        QFETCH(QString, side);
        QFETCH(QString, problem);
        QFETCH(QString, mentions);
        std::string bad = problem == "wrong-ca" ? cert("other-ca.pem") : certs_ + "/no-such-file.pem";
        bool up = side == "up";
        std::string name = ("tls-" + side + "-" + problem).toStdString();
        auto [task, source] = problem == "missing-cert"
                                  ? writeFiles(name, cert("ca.pem"), cert("ca.pem"), bad)
                                  : writeFiles(name, up ? bad : cert("ca.pem"), up ? cert("ca.pem") : bad);
        EngineProcess engine(task, source, dir_.filePath(QString::fromStdString(name + "/logs")).toStdString());
        QVERIFY2(engine.start(), engine.stderrText().c_str());
        json status;
        QVERIFY2(waitFor(
                     [&] {
                         status = engine.status();
                         return status.value("stage", std::string()) == "Error";
                     },
                     kWaitMs),
                 status.dump(2).c_str());
        std::string reason = status.value("stage_reason", std::string());
        qInfo("%s", reason.c_str());
        QVERIFY2(reason.find(mentions.toStdString()) != std::string::npos, reason.c_str());
        QVERIFY2(reason.find(bad) != std::string::npos, reason.c_str());
        QVERIFY2(reason.find(up ? "upstream" : "target database") != std::string::npos, reason.c_str());
        QVERIFY2(reason.find(kRootPassword) == std::string::npos && reason.find(kReplPassword) == std::string::npos,
                 reason.c_str());
        // A retry cannot fix a certificate: the task waits for the DBA instead of retrying.
        QVERIFY2(reason.find("retrying") == std::string::npos, reason.c_str());
        QCOMPARE(engine.terminate(), 0);
        // Without --listen nobody can act: run prints the error and exits 1.
        CliResult cli = runCli({QStringLiteral("run"), QString::fromStdString(task), QStringLiteral("--source"),
                                QString::fromStdString(source), QStringLiteral("--log-dir"),
                                dir_.filePath(QString::fromStdString(name + "/logs-cli"))},
                               kCliTimeoutMs);
        QCOMPARE(cli.exitCode, 1);
        QVERIFY2(cli.err.find(bad) != std::string::npos, cli.err.c_str());
    }
};

QTEST_GUILESS_MAIN(TlsTest)
#include "test_tls.moc"
