// The recent tasks list (File > Recent tasks, the overview's start area): stored as "TASK\nSOURCE"
// entries, shown with labels that tell them apart (two demo-task.yaml in different folders, or one
// task file with two source files).
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace syncscope::ui {

struct RecentTask {
    QString taskPath;
    QString sourcePath;
    QString entry;    // as stored
    QString label;    // the task file's name, with as much of its folder (and the source) as tells it apart
    QString toolTip;  // both paths in full
};

QString recentTaskEntry(const QString& taskPath, const QString& sourcePath);

// The well-formed entries, in order, labelled.
QList<RecentTask> recentTasksOf(const QStringList& entries);

}  // namespace syncscope::ui
