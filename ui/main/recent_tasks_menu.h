// File > Recent tasks: the tasks opened last (kept in QSettings, newest first, at most kMaxRecentTasks), listed
// in the menu and on the overview's start area; choosing one asks for it to be opened.
#pragma once

#include <QObject>
#include <QStringList>

#include "ui/main/task_files.h"

class QMenu;

namespace syncscope::ui {

class OverviewPage;

class RecentTasksMenu : public QObject {
    Q_OBJECT

public:
    static constexpr int kMaxRecentTasks = 8;

    RecentTasksMenu(QMenu* menu, OverviewPage* overview, QObject* parent);

    // The stored entries, newest first.
    QStringList entries() const;
    // Puts the task first (once), drops the oldest past the limit, and lists them again.
    void add(const TaskFiles& files);

signals:
    void openRequested(const syncscope::ui::TaskFiles& files);

private:
    void rebuild();

    QMenu* menu_;
    OverviewPage* overview_;
};

}  // namespace syncscope::ui
