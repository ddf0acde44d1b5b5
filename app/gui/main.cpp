// syncscope: the desktop GUI entry.
#include <QApplication>

#include "engine/common/version.h"
#include "ui/main/main_window.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("SyncScope"));
    QApplication::setOrganizationName(QStringLiteral("SyncScope"));
    QApplication::setApplicationVersion(QString::fromUtf8(syncscope::kVersion));

    syncscope::ui::MainWindow window;
    window.show();
    return QApplication::exec();
}
