#include "tests/support/second_pair.h"

#include <QProcess>
#include <QProcessEnvironment>

#include <cstdlib>

namespace syncscope::test {

namespace {

constexpr int kDbpairTimeoutMs = 180000;

int portFromEnvironment(const char* name) {
    const char* text = std::getenv(name);
    return text != nullptr && *text != '\0' ? std::atoi(text) : 0;
}

}  // namespace

SecondPair::~SecondPair() {
    QString ignored;
    stop(&ignored);
}

ServerSettings SecondPair::upstreamRoot() {
    ServerSettings root = test::upstreamRoot();
    root.port = portFromEnvironment("SYNCSCOPE_SECOND_UP_PORT");
    return root;
}

ServerSettings SecondPair::upstreamReplication() {
    ServerSettings replication = test::upstreamReplication();
    replication.port = portFromEnvironment("SYNCSCOPE_SECOND_UP_PORT");
    return replication;
}

bool SecondPair::run(const QStringList& args, QString* output) const {
    QProcess script;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SYNCSCOPE_DB_DIR"), QStringLiteral(SYNCSCOPE_BINARY_DIR "/test-db-second"));
    env.insert(QStringLiteral("SYNCSCOPE_UP_PORT"), qEnvironmentVariable("SYNCSCOPE_SECOND_UP_PORT"));
    env.insert(QStringLiteral("SYNCSCOPE_DOWN_PORT"), qEnvironmentVariable("SYNCSCOPE_SECOND_DOWN_PORT"));
    env.insert(QStringLiteral("SYNCSCOPE_REPLICA_PORT"), qEnvironmentVariable("SYNCSCOPE_SECOND_REPLICA_PORT"));
    script.setProcessEnvironment(env);
    script.setProcessChannelMode(QProcess::MergedChannels);
    script.start(QStringLiteral(SYNCSCOPE_SOURCE_DIR "/scripts/dbpair"), args);
    const bool ok = script.waitForFinished(kDbpairTimeoutMs) && script.exitStatus() == QProcess::NormalExit &&
                    script.exitCode() == 0;
    *output = QString::fromUtf8(script.readAll());
    return ok;
}

bool SecondPair::start(QString* output) {
    if (portFromEnvironment("SYNCSCOPE_SECOND_UP_PORT") <= 0) {
        *output = QStringLiteral("SYNCSCOPE_SECOND_UP_PORT is not set (CTest sets it: syncscope_use_second_pair)");
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
