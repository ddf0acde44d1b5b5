// Fills the history charts of a remote engine's view from the engine's own history when the view opens (GET
// /api/v1/history, API revision 4), so that they show the minutes before the GUI connected rather than start
// empty. The request runs off the GUI thread holding the remote task, never `this`; an answer that comes after
// another channel was opened is dropped.
#pragma once

#include <QObject>
#include <QString>
#include <memory>

#include "engine/task/task_control.h"

namespace syncscope::ui {

class HistoryRecorder;

class RemoteHistoryLoader : public QObject {
    Q_OBJECT

public:
    RemoteHistoryLoader(HistoryRecorder* recorder, QObject* parent = nullptr);

    // A remote engine: its history of the recorder's window is requested; any other task: nothing. Either way an
    // answer still on its way for an earlier channel is dropped.
    void load(const std::shared_ptr<task::TaskControl>& task);

signals:
    // Samples added to the recorder, or why none could be read (named with the engine).
    void loaded(int added, const QString& error);

private:
    HistoryRecorder* recorder_;
    quint64 generation_ = 0;
};

}  // namespace syncscope::ui
