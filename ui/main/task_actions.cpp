#include "ui/main/task_actions.h"

#include <QAction>

namespace syncscope::ui {

namespace {

void setTexts(QAction* action, const QString& text, const QString& tip) {
    action->setText(text);
    action->setToolTip(QStringLiteral("%1 (%2)").arg(tip, action->shortcut().toString(QKeySequence::NativeText)));
    action->setStatusTip(tip);
}

}  // namespace

TaskActions::TaskActions(QObject* parent)
    : QObject(parent),
      start_(make(tr("&Start"), QKeySequence(Qt::Key_F5), {})),
      pause_(make(tr("&Pause"), QKeySequence(Qt::Key_F6), {})),
      resume_(make(tr("&Resume"), QKeySequence(Qt::Key_F7), {})),
      stop_(make(tr("S&top"), QKeySequence(Qt::SHIFT | Qt::Key_F5), {})),
      resumeFrom_(make(tr("Resume &from..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R),
                       tr("Resume from the global point, a table's point, a file:pos or a GTID set, with a preview"))),
      skip_(make(tr("S&kip failed event..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K),
                 tr("Drop the event the task stopped on (asks for confirmation; audited)"))) {
    updateFor(std::nullopt, false, false);
}

QAction* TaskActions::make(const QString& text, const QKeySequence& shortcut, const QString& tip) {
    auto* action = new QAction(text, this);
    action->setShortcut(shortcut);
    setTexts(action, text, tip);
    return action;
}

void TaskActions::describe(bool loading) {
    if (describedLoading_ == loading) {
        return;
    }
    describedLoading_ = loading;
    if (loading) {
        setTexts(start_, tr("&Start load"),
                 tr("Go on with the snapshot load: copy the chunks not yet committed (under a new snapshot)"));
        setTexts(pause_, tr("&Pause load"),
                 tr("Pause the snapshot load: the chunks being copied are rolled back, every committed chunk "
                    "stays; nothing is copied while paused"));
        setTexts(resume_, tr("&Resume load"),
                 tr("Resume the snapshot load: copy only the chunks not yet committed, under a new snapshot "
                    "(incremental replication then stays in safe mode until it passes it)"));
        setTexts(stop_, tr("S&top load"),
                 tr("Stop the snapshot load: the chunks being copied are rolled back, every committed chunk "
                    "stays; Start goes on with the rest"));
        return;
    }
    setTexts(start_, tr("&Start"), tr("Start replicating from the persisted checkpoint"));
    setTexts(pause_, tr("&Pause"), tr("Pause after the current transaction; checkpoints are flushed"));
    setTexts(resume_, tr("&Resume"), tr("Resume (after an error: retry the failed event)"));
    setTexts(stop_, tr("S&top"), tr("Stop the task at a transaction boundary"));
}

void TaskActions::updateFor(std::optional<task::Stage> stage, bool hasFailedEvent, bool busy, bool loading) {
    using task::Stage;
    const bool open = stage.has_value() && !busy;
    const Stage s = stage.value_or(Stage::New);
    describe(stage.has_value() && loading);
    start_->setEnabled(open && (s == Stage::New || s == Stage::Stopped));
    pause_->setEnabled(open && s == Stage::Running);
    resume_->setEnabled(open && (s == Stage::Paused || s == Stage::Error));
    stop_->setEnabled(open && (s == Stage::Running || s == Stage::Paused || s == Stage::Error));
    resumeFrom_->setEnabled(open && (s == Stage::Paused || s == Stage::Error || s == Stage::Stopped));
    skip_->setEnabled(open && s == Stage::Error && hasFailedEvent);
}

}  // namespace syncscope::ui
