#include "ui/main/task_actions.h"

#include <QAction>

namespace syncscope::ui {

TaskActions::TaskActions(QObject* parent)
    : QObject(parent),
      start_(make(tr("&Start"), QKeySequence(Qt::Key_F5), tr("Start replicating from the persisted checkpoint"))),
      pause_(make(tr("&Pause"), QKeySequence(Qt::Key_F6),
                  tr("Pause after the current transaction; checkpoints "
                     "are flushed"))),
      resume_(make(tr("&Resume"), QKeySequence(Qt::Key_F7), tr("Resume (after an error: retry the failed event)"))),
      stop_(make(tr("S&top"), QKeySequence(Qt::SHIFT | Qt::Key_F5), tr("Stop the task at a transaction boundary"))),
      resumeFrom_(make(tr("Resume &from..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R),
                       tr("Resume from the global point, a table's point, a file:pos or a GTID set, with a preview"))),
      skip_(make(tr("S&kip failed event..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K),
                 tr("Drop the event the task stopped on (asks for confirmation; audited)"))) {
    updateFor(std::nullopt, false, false);
}

QAction* TaskActions::make(const QString& text, const QKeySequence& shortcut, const QString& tip) {
    auto* action = new QAction(text, this);
    action->setShortcut(shortcut);
    action->setToolTip(QStringLiteral("%1 (%2)").arg(tip, shortcut.toString(QKeySequence::NativeText)));
    action->setStatusTip(tip);
    return action;
}

void TaskActions::updateFor(std::optional<task::Stage> stage, bool hasFailedEvent, bool busy) {
    using task::Stage;
    const bool open = stage.has_value() && !busy;
    const Stage s = stage.value_or(Stage::New);
    start_->setEnabled(open && (s == Stage::New || s == Stage::Stopped));
    pause_->setEnabled(open && s == Stage::Running);
    resume_->setEnabled(open && (s == Stage::Paused || s == Stage::Error));
    stop_->setEnabled(open && (s == Stage::Running || s == Stage::Paused || s == Stage::Error));
    resumeFrom_->setEnabled(open && (s == Stage::Paused || s == Stage::Error || s == Stage::Stopped));
    skip_->setEnabled(open && s == Stage::Error && hasFailedEvent);
}

}  // namespace syncscope::ui
