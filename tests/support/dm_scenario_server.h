// A stand-in dm-master for tests (dm_scenario_server.py, run with the python3 on PATH): it answers DM's
// OpenAPI from a scenario file and checks every request and answer against DM's published OpenAPI
// document, writing each exchange and its violations to a log the test reads back.
#pragma once

#include <QList>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <memory>

namespace syncscope::test {

// The scenario file of that name under tests/engine/dmcluster/scenarios.
QString dmScenario(const QString& name);

class DmScenarioServer {
public:
    struct Exchange {
        QString request;  // "GET /api/v1/tasks?with_status=true"
        QString body;
        int status = 0;
        bool checked = false;     // against DM's document
        QString outsideDocument;  // why the answer is not one the document describes (a non-leader's 502)
        QStringList violations;
    };

    // `port` 0: any free port.
    DmScenarioServer(QString scenarioPath, QString logPath, int port = 0);
    ~DmScenarioServer();
    DmScenarioServer(const DmScenarioServer&) = delete;
    DmScenarioServer& operator=(const DmScenarioServer&) = delete;

    // https with this certificate and key; a client certificate signed by `clientCa` required when given.
    void serveTls(const QString& cert, const QString& key, const QString& clientCa);
    // Starts it and waits for its first line; false with the reason (python3 missing, port taken).
    bool start(QString* error);
    void stop();  // kills it: nothing answers on its port any more

    int port() const { return port_; }
    QString url() const {
        return QStringLiteral("%1://127.0.0.1:%2").arg(tls_.isEmpty() ? "http" : "https").arg(port_);
    }
    // Its first line: where it listens and whether (and against what) it checks, or why it does not.
    const QString& announcement() const { return announcement_; }
    bool validating() const;
    QList<Exchange> exchanges() const;

private:
    QString scenarioPath_;
    QString logPath_;
    int port_ = 0;
    QStringList tls_;  // the server's TLS arguments
    QString announcement_;
    std::unique_ptr<QProcess> process_;
};

}  // namespace syncscope::test
