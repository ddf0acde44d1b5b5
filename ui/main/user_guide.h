// The Help menu's pages: the user guide (the manual installed under /usr/share/doc/syncscope, else the
// repository's docs/ when SyncScope runs from its build tree), shown as Markdown in a window of its own so
// that its links and screenshots work without a browser, and the About text (version and license).
#pragma once

#include <QDialog>
#include <QString>
#include <QStringList>

class QTextBrowser;

namespace syncscope::ui {

// Where the user guide may be, in the order they are tried: $SYNCSCOPE_DOC_DIR, the installed manual
// beside the program (<prefix>/share/doc/syncscope/docs), /usr/share/doc/syncscope/docs, the source tree's.
QStringList userGuideCandidates();
// The first candidate that exists, or empty.
QString findUserGuide(const QStringList& candidates = userGuideCandidates());
// The About box's text: what SyncScope is, its version and its license.
QString aboutText();

// A page of the manual rendered from its Markdown; relative links open the other pages in the same window.
class UserGuideWindow : public QDialog {
    Q_OBJECT

public:
    explicit UserGuideWindow(const QString& path, QWidget* parent = nullptr);
    QTextBrowser* browser() const { return browser_; }

private:
    QTextBrowser* browser_;
};

}  // namespace syncscope::ui
