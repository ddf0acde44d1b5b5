#include "tests/support/second_pair.h"

#include <QProcess>
#include <QProcessEnvironment>

#include <cstdlib>
#include <string>

namespace syncscope::test {

namespace {

constexpr int kDbpairTimeoutMs = 180000;

int portFromEnvironment(const std::string& name) {
    const char* text = std::getenv(name.c_str());
    return text != nullptr && *text != '\0' ? std::atoi(text) : 0;
}

// SYNCSCOPE_SECOND_UP_PORT, SYNCSCOPE_THIRD_DOWN_PORT, ...
std::string variable(int pair, const char* server) {
    return std::string("SYNCSCOPE_") + (pair == 3 ? "THIRD" : "SECOND") + "_" + server + "_PORT";
}

}  // namespace

SecondPair::~SecondPair() {
    QString ignored;
    stop(&ignored);
}

ServerSettings SecondPair::upstreamRoot(int pair) {
    ServerSettings root = test::upstreamRoot();
    root.port = portFromEnvironment(variable(pair, "UP"));
    return root;
}

ServerSettings SecondPair::upstreamReplication(int pair) {
    ServerSettings replication = test::upstreamReplication();
    replication.port = portFromEnvironment(variable(pair, "UP"));
    return replication;
}

bool SecondPair::run(const QStringList& args, QString* output) const {
    QProcess script;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SYNCSCOPE_DB_DIR"), pair_ == 3 ? QStringLiteral(SYNCSCOPE_BINARY_DIR "/test-db-third")
                                                              : QStringLiteral(SYNCSCOPE_BINARY_DIR "/test-db-second"));
    for (const char* server : {"UP", "DOWN", "REPLICA"}) {
        env.insert(QStringLiteral("SYNCSCOPE_%1_PORT").arg(QLatin1String(server)),
                   qEnvironmentVariable(variable(pair_, server).c_str()));
    }
    script.setProcessEnvironment(env);
    script.setProcessChannelMode(QProcess::MergedChannels);
    script.start(QStringLiteral(SYNCSCOPE_SOURCE_DIR "/scripts/dbpair"), args);
    const bool ok = script.waitForFinished(kDbpairTimeoutMs) && script.exitStatus() == QProcess::NormalExit &&
                    script.exitCode() == 0;
    *output = QString::fromUtf8(script.readAll());
    return ok;
}

bool SecondPair::start(QString* output) {
    if (portFromEnvironment(variable(pair_, "UP")) <= 0) {
        *output = QString::fromStdString(variable(pair_, "UP") + " is not set (CTest sets it: " +
                                         (pair_ == 3 ? "syncscope_use_third_pair)" : "syncscope_use_second_pair)"));
        return false;
    }
    run({QStringLiteral("stop")}, output);
    if (!run({QStringLiteral("clean")}, output)) {
        return false;
    }
    started_ = true;
    return run({QStringLiteral("start")}, output);
}

bool SecondPair::stop(QString* output) {
    if (!started_) {
        return true;
    }
    started_ = false;
    return run({QStringLiteral("stop")}, output) && run({QStringLiteral("clean")}, output);
}

bool SecondPair::restartUpstream(int secondsDown, QString* output) {
    return run({QStringLiteral("restart"), QStringLiteral("up"), QString::number(secondsDown)}, output);
}

}  // namespace syncscope::test
