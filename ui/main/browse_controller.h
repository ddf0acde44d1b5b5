// The main window's event browser: one window, kept, over the shown task's upstream (the source picked for a
// task with several sources), opened from the Tools menu, from the task view's links (a ruler marker, the
// failed event, a table's point) and from a skip window of the checkpoint inspection. The downstream's
// applied point it marks follows the snapshots. Task > Stop at a point is asked here too: it reads the same
// upstream binlog to check the point before the task is told.
#pragma once

#include <QObject>
#include <QString>

#include "engine/browse/binlog_history.h"
#include "engine/task/task_control.h"
#include "ui/main/shown_channel.h"

class QWidget;

namespace syncscope::ui {

class EngineAdapter;
class EventBrowserLinks;
class EventBrowserPage;
class TaskView;
struct SkipWindowBrowse;

class BrowseController : public QObject {
    Q_OBJECT

public:
    BrowseController(QWidget* window, TaskView* taskView, EngineAdapter* adapter, const ShownChannel* shown);

    // The browser window over the shown task's upstream, shown and raised.
    EventBrowserPage* showEventBrowser();
    // The browser opened at a point the GUI shows (a ruler marker, the failed event, a table point).
    void browseAt(const browse::BrowsePoint& point, const QString& why);
    void browseSkipWindow(const SkipWindowBrowse& window);
    EventBrowserLinks* links() const { return links_; }
    // A source picked for a task with several sources: an open browser turns to its upstream.
    void followSource();
    void followSnapshot(const task::StatusSnapshot& snapshot);
    // Says in an open browser why a resume-from it asked for was refused.
    void showRefusal(const QString& text);
    // Task > Stop at a point: checked against the upstream's binlog when the task's files are known.
    void askStopPoint();

signals:
    // The DBA chose a transaction boundary in the browser: the preview confirms it before the task is told.
    void resumeFromRequested(const syncscope::task::ResumeTarget& target, const QString& description);
    void statusMessage(const QString& text, int milliseconds);

private:
    QWidget* window_;
    TaskView* taskView_;
    EngineAdapter* adapter_;
    const ShownChannel* shown_;
    EventBrowserLinks* links_;
    EventBrowserPage* browser_ = nullptr;
};

}  // namespace syncscope::ui
