#include "ui/models/recent_tasks.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <functional>

namespace syncscope::ui {

namespace {

const QChar kSeparator = QLatin1Char('\n');

// The last `count` folders above the file, "a/b" ("" for 0).
QString foldersAbove(const QString& path, int count) {
    QStringList folders = QDir::cleanPath(QFileInfo(path).absolutePath()).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    count = std::min<int>(count, static_cast<int>(folders.size()));
    return folders.mid(folders.size() - count).join(QLatin1Char('/'));
}

int folderCount(const QString& path) {
    return static_cast<int>(
        QDir::cleanPath(QFileInfo(path).absolutePath()).split(QLatin1Char('/'), Qt::SkipEmptyParts).size());
}

QString labelAt(const RecentTask& task, int taskFolders, bool withSource, int sourceFolders) {
    QString label = QFileInfo(task.taskPath).fileName();
    if (taskFolders > 0) {
        label += QStringLiteral(" (") + foldersAbove(task.taskPath, taskFolders) + QStringLiteral(")");
    }
    if (withSource) {
        QString source = QFileInfo(task.sourcePath).fileName();
        if (sourceFolders > 0) {
            source = foldersAbove(task.sourcePath, sourceFolders) + QLatin1Char('/') + source;
        }
        label += QStringLiteral(" \u00b7 ") + source;
    }
    return label;
}

bool unique(const QList<RecentTask>& tasks, const QString& label, const RecentTask& self,
            const std::function<QString(const RecentTask&)>& labelOf) {
    for (const RecentTask& other : tasks) {
        if (other.entry != self.entry && labelOf(other) == label) {
            return false;
        }
    }
    return true;
}

}  // namespace

QString recentTaskEntry(const QString& taskPath, const QString& sourcePath) {
    return taskPath + kSeparator + sourcePath;
}

QList<RecentTask> recentTasksOf(const QStringList& entries) {
    QList<RecentTask> tasks;
    for (const QString& entry : entries) {
        const QStringList parts = entry.split(kSeparator);
        if (parts.size() != 2 || parts[0].isEmpty()) {
            continue;
        }
        RecentTask task;
        task.taskPath = parts[0];
        task.sourcePath = parts[1];
        task.entry = entry;
        task.toolTip = QCoreApplication::translate("RecentTasks", "Task %1\nSource %2").arg(parts[0], parts[1]);
        tasks.append(task);
    }
    // Each label grows only as far as it must: first folders of the task file (as many as set it apart
    // from other task files), then the source file, then the source's folders (one task, several sources).
    for (RecentTask& task : tasks) {
        int folders = 0;
        for (const int depth = folderCount(task.taskPath); folders < depth; ++folders) {
            auto labelOf = [folders](const RecentTask& t) { return labelAt(t, folders, false, 0); };
            bool apart = true;
            for (const RecentTask& other : tasks) {
                apart = apart && (other.taskPath == task.taskPath || labelOf(other) != labelOf(task));
            }
            if (apart) {
                break;
            }
        }
        auto byTask = [folders](const RecentTask& t) { return labelAt(t, folders, false, 0); };
        QString label = byTask(task);
        bool found = unique(tasks, label, task, byTask);
        for (int sourceFolders = 0; sourceFolders <= folderCount(task.sourcePath) && !found; ++sourceFolders) {
            auto bySource = [folders, sourceFolders](const RecentTask& t) {
                return labelAt(t, folders, true, sourceFolders);
            };
            label = bySource(task);
            found = unique(tasks, label, task, bySource);
        }
        task.label = label;
    }
    return tasks;
}

}  // namespace syncscope::ui
