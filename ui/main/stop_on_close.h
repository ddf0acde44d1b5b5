// Closing the main window while a task of this process runs: the task is stopped gracefully first
// (checkpoints flushed at a transaction boundary) and the window closes once the engine says it stopped, or
// at once on "Close now". Closing never stops a remote engine or a replica.
#pragma once

#include <QObject>

#include "engine/task/task_control.h"

class QProgressDialog;
class QWidget;

namespace syncscope::ui {

class EngineAdapter;

class StopOnClose : public QObject {
    Q_OBJECT

public:
    static constexpr int kStopTimeoutMilliseconds = 30000;

    StopOnClose(QWidget* window, EngineAdapter* adapter);

    // Whether the window may close now. While the task of this process runs (localShown: the channel shown is
    // one), it may not: the task is asked to stop (once) and the window closes when it has.
    bool mayClose(bool localShown);
    // Closes the window once the stop asked for by mayClose() has happened.
    void followSnapshot(const task::StatusSnapshot* snapshot);

private:
    QWidget* window_;
    EngineAdapter* adapter_;
    QProgressDialog* stopping_ = nullptr;
    bool closeWhenStopped_ = false;
};

}  // namespace syncscope::ui
