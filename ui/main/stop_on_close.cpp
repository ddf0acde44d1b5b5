#include "ui/main/stop_on_close.h"

#include <QProgressDialog>
#include <QTimer>
#include <QWidget>

#include "ui/engine/engine_adapter.h"

namespace syncscope::ui {

namespace {
bool isActive(task::Stage stage) {
    return stage == task::Stage::Running || stage == task::Stage::Paused;
}
}  // namespace

StopOnClose::StopOnClose(QWidget* window, EngineAdapter* adapter)
    : QObject(window), window_(window), adapter_(adapter) {}

bool StopOnClose::mayClose(bool localShown) {
    const auto snapshot = adapter_->lastSnapshot();
    if (!adapter_->hasTask() || !localShown || !snapshot || !isActive(snapshot->stage)) {
        if (stopping_) {
            stopping_->hide();
        }
        return true;
    }
    if (!closeWhenStopped_) {
        closeWhenStopped_ = true;
        adapter_->stop();
        stopping_ =
            new QProgressDialog(tr("Stopping the task at a transaction boundary..."), tr("Close now"), 0, 0, window_);
        stopping_->setWindowTitle(tr("Stopping"));
        stopping_->setToolTip(tr("Closing without waiting leaves the task's last checkpoints unflushed"));
        stopping_->setMinimumDuration(0);
        connect(stopping_, &QProgressDialog::canceled, this, [this] {
            adapter_->detachTask();
            window_->close();
        });
        stopping_->show();
        QTimer::singleShot(kStopTimeoutMilliseconds, this, [this] {
            if (closeWhenStopped_ && stopping_) {
                stopping_->setLabelText(tr("The task has not stopped after %1 s; it may be waiting on the "
                                           "network. Keep waiting or close now.")
                                            .arg(kStopTimeoutMilliseconds / 1000));
            }
        });
    }
    return false;
}

void StopOnClose::followSnapshot(const task::StatusSnapshot* snapshot) {
    if (closeWhenStopped_ && snapshot && !isActive(snapshot->stage)) {
        window_->close();
    }
}

}  // namespace syncscope::ui
