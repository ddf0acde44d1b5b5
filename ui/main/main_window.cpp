#include "ui/main/main_window.h"

#include <QApplication>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QVBoxLayout>

#include "engine/common/version.h"

namespace syncscope::ui {

namespace {
constexpr int kDefaultWidth = 1280;
constexpr int kDefaultHeight = 800;
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("SyncScope"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/syncscope.svg")));
    resize(kDefaultWidth, kDefaultHeight);

    welcome_ = new QLabel(this);
    welcome_->setAlignment(Qt::AlignCenter);
    welcome_->setWordWrap(true);
    welcome_->setText(
        tr("<h2>SyncScope</h2>"
           "<p>No task is open.</p>"
           "<p>Open a DM task file to watch where its replication stands:<br>"
           "upstream position, read, applied, and the global and table checkpoints.</p>"));
    setCentralWidget(welcome_);

    createMenus();
    statusBar()->showMessage(tr("No task open"));
}

void MainWindow::createMenus() {
    QMenu* fileMenu = menuBar()->addMenu(tr("&File"));
    QAction* quit = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setToolTip(tr("Close SyncScope"));

    QMenu* helpMenu = menuBar()->addMenu(tr("&Help"));
    helpMenu->addAction(tr("&About SyncScope"), this, &MainWindow::showAbout);
}

void MainWindow::showAbout() {
    QMessageBox::about(this, tr("About SyncScope"),
                       tr("<b>SyncScope %1</b><p>A replication monitor and controller for DBAs.</p>")
                           .arg(QString::fromUtf8(syncscope::kVersion)));
}

}  // namespace syncscope::ui
