#include "ui/main/recent_tasks_menu.h"

#include <QAction>
#include <QMenu>
#include <QSettings>

#include "ui/models/recent_tasks.h"
#include "ui/overview/overview_page.h"

namespace syncscope::ui {

namespace {
const char* const kRecentKey = "tasks/recent";
}  // namespace

RecentTasksMenu::RecentTasksMenu(QMenu* menu, OverviewPage* overview, QObject* parent)
    : QObject(parent), menu_(menu), overview_(overview) {
    menu_->setToolTipsVisible(true);
    rebuild();
}

QStringList RecentTasksMenu::entries() const {
    return QSettings().value(kRecentKey).toStringList();
}

void RecentTasksMenu::add(const TaskFiles& files) {
    QStringList recent = entries();
    const QString entry = recentTaskEntry(files.taskPath, files.sourcePath);
    recent.removeAll(entry);
    recent.prepend(entry);
    while (recent.size() > kMaxRecentTasks) {
        recent.removeLast();
    }
    QSettings().setValue(kRecentKey, recent);
    rebuild();
}

void RecentTasksMenu::rebuild() {
    menu_->clear();
    const QStringList recent = entries();
    overview_->setRecentTasks(recent);
    for (const RecentTask& task : recentTasksOf(recent)) {
        QAction* action = menu_->addAction(task.label);
        action->setToolTip(task.toolTip);
        connect(action, &QAction::triggered, this, [this, task] {
            emit openRequested({task.taskPath, task.sourcePath, QString()});
        });
    }
    menu_->setEnabled(!recent.isEmpty());
}

}  // namespace syncscope::ui
