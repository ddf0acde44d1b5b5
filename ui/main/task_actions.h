// The task commands as actions (menu, toolbar, shortcuts), enabled by the task's stage: Start when
// New or Stopped, Pause when Running, Resume when Paused or on an error, Stop unless stopped, Resume
// from and Skip only where the engine accepts them. While a snapshot load copies chunks, Start, Pause,
// Resume and Stop say what they do to the load (chunks in flight rolled back, committed chunks kept).
#pragma once

#include <QObject>
#include <optional>

#include "engine/task/status_snapshot.h"

class QAction;

namespace syncscope::ui {

class TaskActions : public QObject {
    Q_OBJECT

public:
    explicit TaskActions(QObject* parent);

    // nullopt: no task is open. busy: a command is on its way to the engine. loading: the task's
    // snapshot load (task-mode all/full) has not finished, so the commands act on the load.
    void updateFor(std::optional<task::Stage> stage, bool hasFailedEvent, bool busy, bool loading = false);

    QAction* start() const { return start_; }
    QAction* pause() const { return pause_; }
    QAction* resume() const { return resume_; }
    QAction* stop() const { return stop_; }
    QAction* resumeFrom() const { return resumeFrom_; }
    QAction* skip() const { return skip_; }
    QList<QAction*> all() const { return {start_, pause_, resume_, stop_, resumeFrom_, skip_}; }

private:
    QAction* make(const QString& text, const QKeySequence& shortcut, const QString& tip);
    // Sets the text and tips of the four commands for replication or for the snapshot load.
    void describe(bool loading);

    QAction* start_;
    QAction* pause_;
    QAction* resume_;
    QAction* stop_;
    QAction* resumeFrom_;
    QAction* skip_;
    std::optional<bool> describedLoading_;
};

}  // namespace syncscope::ui
