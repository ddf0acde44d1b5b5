// Help > User guide shows the manual's user guide offscreen (the repository's copy when no installed one
// is named), its links open the other pages in the same window, a missing manual is said rather than
// shown empty, and About names the version and the license.
#include <QtTest>

#include <QAction>
#include <QDir>
#include <QMenu>
#include <QMenuBar>
#include <QTemporaryDir>
#include <QTextBrowser>

#include "tests/support/test_env.h"
#include "ui/main/main_window.h"
#include "ui/main/user_guide.h"

using namespace syncscope::ui;

namespace {

QString repositoryDocs() {
    return QDir(QStringLiteral(SYNCSCOPE_SOURCE_DIR)).filePath(QStringLiteral("docs"));
}

QAction* helpAction(MainWindow& window, const QString& text) {
    for (QAction* menu : window.menuBar()->actions()) {
        if (menu->text().remove(QLatin1Char('&')) != QLatin1String("Help") || !menu->menu()) {
            continue;
        }
        for (QAction* action : menu->menu()->actions()) {
            if (action->text().remove(QLatin1Char('&')) == text) {
                return action;
            }
        }
    }
    return nullptr;
}

}  // namespace

class UserGuideTest : public QObject {
    Q_OBJECT

private slots:
    void theFirstExistingCandidateIsTheGuide() {
        QTemporaryDir empty;
        const QString missing = empty.filePath(QStringLiteral("user-guide.md"));
        const QString repository = QDir(repositoryDocs()).filePath(QStringLiteral("user-guide.md"));
        QCOMPARE(findUserGuide({missing, repository}), repository);
        QVERIFY(findUserGuide({missing}).isEmpty());
    }

    void theDocDirVariableComesFirstAndTheSourceTreeLast() {
        qputenv("SYNCSCOPE_DOC_DIR", "/nowhere/docs");
        const QStringList candidates = userGuideCandidates();
        qunsetenv("SYNCSCOPE_DOC_DIR");
        QCOMPARE(candidates.front(), QStringLiteral("/nowhere/docs/user-guide.md"));
        QVERIFY(candidates.contains(QStringLiteral("/usr/share/doc/syncscope/docs/user-guide.md")));
        QCOMPARE(QFileInfo(candidates.back()).canonicalFilePath(),
                 QFileInfo(QDir(repositoryDocs()).filePath(QStringLiteral("user-guide.md"))).canonicalFilePath());
    }

    void aboutNamesTheVersionAndTheLicense() {
        const QString text = aboutText();
        QVERIFY2(text.contains(QStringLiteral(SYNCSCOPE_VERSION)), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("GPL-2.0-or-later")), qPrintable(text));
    }

    void helpUserGuideShowsTheGuideAndFollowsItsLinks() {
        qputenv("SYNCSCOPE_DOC_DIR", repositoryDocs().toUtf8());
        MainWindow window;
        QAction* guide = helpAction(window, QStringLiteral("User guide"));
        QVERIFY(guide);
        QCOMPARE(guide->shortcut(), QKeySequence(QKeySequence::HelpContents));
        QVERIFY(!guide->toolTip().isEmpty() && guide->toolTip() != QLatin1String("User guide"));
        QVERIFY(helpAction(window, QStringLiteral("About SyncScope")));

        guide->trigger();
        qunsetenv("SYNCSCOPE_DOC_DIR");
        auto* shown = window.findChild<UserGuideWindow*>();
        QVERIFY(shown);
        QVERIFY(shown->isVisible());
        QTextBrowser* browser = shown->browser();
        QVERIFY(browser->source().toLocalFile().endsWith(QLatin1String("docs/user-guide.md")));
        const QString text = browser->toPlainText();
        QVERIFY2(text.startsWith(QLatin1String("User guide")), qPrintable(text.left(200)));
        QVERIFY(text.contains(QLatin1String("The overview")));
        QVERIFY(!text.contains(QLatin1String("## ")));  // rendered, not shown as Markdown source

        // A relative link of the guide (as a click resolves it) opens that page in the same window.
        browser->setSource(browser->source().resolved(QUrl(QStringLiteral("cli.md"))));
        QVERIFY(browser->source().toLocalFile().endsWith(QLatin1String("docs/cli.md")));
        QVERIFY(browser->toPlainText().startsWith(QLatin1String("Command line")));

        // Asked again: the same window, raised.
        QCOMPARE(window.showUserGuide(), shown);
    }
};

QTEST_MAIN(UserGuideTest)
#include "test_user_guide.moc"
