// syncscope-cli answers --help and --version, and a bad command line is exit code 2 with a message.
#include <QtTest>

#include <QProcess>

namespace {

struct Outcome {
    int exitCode = -1;
    QString out;
    QString err;
};

Outcome runCli(const QStringList& args) {
    QProcess process;
    process.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"), args);
    if (!process.waitForFinished(10000)) {
        process.kill();
        process.waitForFinished();
        return {};
    }
    return {process.exitCode(), QString::fromUtf8(process.readAllStandardOutput()),
            QString::fromUtf8(process.readAllStandardError())};
}

}  // namespace

class CliEntryTest : public QObject {
    Q_OBJECT

private slots:
    void helpListsUsageAndExitsZero() {
        Outcome outcome = runCli({QStringLiteral("--help")});
        QCOMPARE(outcome.exitCode, 0);
        QVERIFY2(outcome.out.contains(QStringLiteral("Usage: syncscope-cli COMMAND")), qPrintable(outcome.out));
    }

    void versionPrintsTheProjectVersion() {
        Outcome outcome = runCli({QStringLiteral("--version")});
        QCOMPARE(outcome.exitCode, 0);
        QCOMPARE(outcome.out.trimmed(), QStringLiteral("syncscope-cli " SYNCSCOPE_VERSION));
    }

    void unknownCommandIsUsageErrorNamingIt() {
        Outcome outcome = runCli({QStringLiteral("frobnicate")});
        QCOMPARE(outcome.exitCode, 2);
        QVERIFY2(outcome.err.contains(QStringLiteral("unknown command 'frobnicate'")), qPrintable(outcome.err));
    }

    void noCommandIsUsageError() {
        Outcome outcome = runCli({});
        QCOMPARE(outcome.exitCode, 2);
        QVERIFY(outcome.err.contains(QStringLiteral("Usage:")));
    }
};

QTEST_GUILESS_MAIN(CliEntryTest)
#include "test_cli_entry.moc"
