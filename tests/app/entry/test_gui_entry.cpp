// The GUI binary run as a script runs it (offscreen): a task file it cannot open ends it with exit 4 and
// the reason on stderr (it used to exit 0 with the reason only in the status bar), and Qt's offscreen
// noise ("does not support propagateSizeHints()") is not printed.
#include <QtTest>

#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>

namespace {

const QString kGui = QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope");
constexpr int kTimeoutMs = 60000;
constexpr int kExitTaskNotOpened = 4;

}  // namespace

class GuiEntryTest : public QObject {
    Q_OBJECT

private slots:
    void aTaskThatCannotOpenOffscreenExitsNonZeroSayingWhy() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QProcess gui;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.path());  // no workspace of the user's
        env.insert(QStringLiteral("XDG_STATE_HOME"), dir.path());
        gui.setProcessEnvironment(env);
        gui.start(kGui, {dir.filePath(QStringLiteral("missing-task.yaml")), QStringLiteral("--source"),
                         dir.filePath(QStringLiteral("missing-source.yaml")), QStringLiteral("--start")});
        QVERIFY(gui.waitForFinished(kTimeoutMs));
        const QString err = QString::fromLocal8Bit(gui.readAllStandardError());
        QCOMPARE(gui.exitCode(), kExitTaskNotOpened);
        QVERIFY2(
            err.contains(QStringLiteral("cannot open the task")) && err.contains(QStringLiteral("missing-task.yaml")),
            qPrintable(err));
        QVERIFY2(!err.contains(QStringLiteral("propagateSizeHints")), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(GuiEntryTest)
#include "test_gui_entry.moc"
