#include "ui/main/user_guide.h"

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QPushButton>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>
#include <QtGlobal>

#include "engine/common/version.h"

namespace syncscope::ui {

namespace {

constexpr const char* kGuideFile = "user-guide.md";
constexpr const char* kInstalledDocs = "/share/doc/syncscope/docs";
constexpr int kWindowWidth = 1000;
constexpr int kWindowHeight = 760;

}  // namespace

QStringList userGuideCandidates() {
    QStringList candidates;
    if (const QString overridden = qEnvironmentVariable("SYNCSCOPE_DOC_DIR"); !overridden.isEmpty()) {
        candidates << QDir(overridden).filePath(kGuideFile);
    }
    // <prefix>/bin/syncscope finds <prefix>/share/doc/syncscope/docs, wherever the package put the prefix.
    const QString prefix = QDir(QCoreApplication::applicationDirPath()).absoluteFilePath(QStringLiteral(".."));
    candidates << QDir::cleanPath(prefix + kInstalledDocs + "/" + kGuideFile);
    candidates << QStringLiteral("/usr") + kInstalledDocs + "/" + kGuideFile;
    candidates << QStringLiteral(SYNCSCOPE_SOURCE_DOCS_DIR) + "/" + kGuideFile;
    candidates.removeDuplicates();
    return candidates;
}

QString findUserGuide(const QStringList& candidates) {
    for (const QString& candidate : candidates) {
        if (QFileInfo(candidate).isFile()) {
            return candidate;
        }
    }
    return {};
}

QString aboutText() {
    return QCoreApplication::translate(
               "UserGuide",
               "<b>SyncScope %1</b><p>A replication monitor and controller for DBAs: watch, control and verify "
               "MySQL/MariaDB binlog replication.</p><p>License: GNU General Public License, version 2 or (at your "
               "option) any later version (GPL-2.0-or-later). SyncScope comes with no warranty.</p>"
               "<p>Built with Qt %2. The manual: Help &gt; User guide.</p>")
        .arg(QString::fromUtf8(syncscope::kVersion), QString::fromLatin1(QT_VERSION_STR));
}

UserGuideWindow::UserGuideWindow(const QString& path, QWidget* parent)
    : QDialog(parent), browser_(new QTextBrowser(this)) {
    setWindowTitle(tr("SyncScope user guide"));
    setObjectName(QStringLiteral("userGuideWindow"));
    browser_->setOpenExternalLinks(true);
    browser_->setToolTip(tr("The manual; links to its other pages open here"));
    browser_->setSource(QUrl::fromLocalFile(path), QTextDocument::MarkdownResource);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->button(QDialogButtonBox::Close)->setToolTip(tr("Close the user guide"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(browser_);
    layout->addWidget(buttons);
    resize(kWindowWidth, kWindowHeight);
}

}  // namespace syncscope::ui
