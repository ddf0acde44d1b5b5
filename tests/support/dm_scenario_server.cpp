#include "tests/support/dm_scenario_server.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include "tests/support/test_env.h"

namespace syncscope::test {

namespace {

constexpr int kStartTimeoutMs = 20000;

}  // namespace

QString dmScenario(const QString& name) {
    return QStringLiteral(SYNCSCOPE_SOURCE_DIR "/tests/engine/dmcluster/scenarios/") + name;
}

DmScenarioServer::DmScenarioServer(QString scenarioPath, QString logPath, int port)
    : scenarioPath_(std::move(scenarioPath)), logPath_(std::move(logPath)), port_(port) {}

DmScenarioServer::~DmScenarioServer() {
    stop();
}

void DmScenarioServer::serveTls(const QString& cert, const QString& key, const QString& clientCa) {
    tls_ = QStringList{QStringLiteral("--tls-cert"), cert, QStringLiteral("--tls-key"), key};
    if (!clientCa.isEmpty()) {
        tls_ << QStringLiteral("--tls-client-ca") << clientCa;
    }
}

bool DmScenarioServer::start(QString* error) {
    stop();
    process_ = std::make_unique<QProcess>();
    process_->setProcessChannelMode(QProcess::SeparateChannels);
    // The server must not outlive the test (a test killed by its timeout), nor keep what the test inherited
    // open: a build lock held through `flock ... ctest` would stay held by an orphaned server.
    process_->setChildProcessModifier([] {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        const long last = sysconf(_SC_OPEN_MAX);
        for (long fd = 3; fd < last; ++fd) {
            const int flags = fcntl(static_cast<int>(fd), F_GETFD);
            if (flags >= 0 && (flags & FD_CLOEXEC) == 0) {  // QProcess's own pipes close at exec anyway
                close(static_cast<int>(fd));
            }
        }
    });
    const QString cacheDir = QString::fromStdString(outputDir("dm-openapi"));
    QStringList arguments{QStringLiteral(SYNCSCOPE_SOURCE_DIR "/tests/support/dm_scenario_server.py"),
                          QStringLiteral("--scenario"),
                          scenarioPath_,
                          QStringLiteral("--log"),
                          logPath_,
                          QStringLiteral("--port"),
                          QString::number(port_),
                          QStringLiteral("--cache-dir"),
                          cacheDir};
    process_->start(QStringLiteral("python3"), arguments + tls_);
    if (!process_->waitForStarted(kStartTimeoutMs)) {
        *error = QStringLiteral("python3 could not be started: %1").arg(process_->errorString());
        return false;
    }
    while (!process_->canReadLine()) {
        if (!process_->waitForReadyRead(kStartTimeoutMs)) {
            *error = QStringLiteral("the scenario server did not start: %1")
                         .arg(QString::fromUtf8(process_->readAllStandardError()).trimmed());
            return false;
        }
    }
    announcement_ = QString::fromUtf8(process_->readLine()).trimmed();
    QRegularExpressionMatch match =
        QRegularExpression(QStringLiteral("listening on 127\\.0\\.0\\.1:(\\d+)")).match(announcement_);
    if (!match.hasMatch()) {
        *error = QStringLiteral("the scenario server said: %1").arg(announcement_);
        return false;
    }
    port_ = match.captured(1).toInt();
    return true;
}

void DmScenarioServer::stop() {
    if (process_ && process_->state() != QProcess::NotRunning) {
        process_->kill();
        process_->waitForFinished(kStartTimeoutMs);
    }
    process_.reset();
}

bool DmScenarioServer::validating() const {
    return announcement_.contains(QStringLiteral("OpenAPI validation on"));
}

QList<DmScenarioServer::Exchange> DmScenarioServer::exchanges() const {
    QList<Exchange> out;
    QFile log(logPath_);
    if (!log.open(QIODevice::ReadOnly)) {
        return out;
    }
    while (!log.atEnd()) {
        const QJsonObject line = QJsonDocument::fromJson(log.readLine()).object();
        if (line.isEmpty()) {
            continue;
        }
        Exchange exchange;
        exchange.request = line.value(QStringLiteral("request")).toString();
        exchange.body = line.value(QStringLiteral("body")).toString();
        exchange.status = line.value(QStringLiteral("status")).toInt();
        exchange.checked = line.value(QStringLiteral("checked")).toBool();
        exchange.outsideDocument = line.value(QStringLiteral("outside_document")).toString();
        for (const auto& violation : line.value(QStringLiteral("violations")).toArray()) {
            exchange.violations << violation.toString();
        }
        out << exchange;
    }
    return out;
}

}  // namespace syncscope::test
