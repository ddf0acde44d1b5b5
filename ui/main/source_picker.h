// Which source of a task with several sources the pages that read one source show: Verify, the binlog browser,
// the previews before a skip or a resume-from, a stop point and the checkpoint inspection's form. The first source,
// or the one that failed, until the DBA picks one. Hidden for a task with one source (nothing to pick).
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>
#include <memory>

#include "engine/task/status_snapshot.h"
#include "engine/task/task_control.h"

class QComboBox;
class QLabel;

namespace syncscope::ui {

class SourcePicker : public QWidget {
    Q_OBJECT

public:
    explicit SourcePicker(QWidget* parent = nullptr);

    // `sourceField`: the channel's source files (one, or several separated as multi_source_group.h keeps them);
    // `task`: the channel, a control::SubtaskDirectory when it has several sources (to find the one that failed).
    void setTask(const QString& sourceField, std::shared_ptr<task::TaskControl> task);
    void clear();
    // With each snapshot of the channel: follows a source that failed, unless the DBA has picked one.
    void observe(const task::StatusSnapshot& whole);

    // The one source file the pages read: the picked source's, or the field as given for one source.
    QString chosenFile() const;
    QString chosenSourceId() const;  // "" for a task with one source
    // The picked source's own channel (the task's subtask, kept alive with the task), for a page that follows its
    // progress; the task itself for one source.
    std::shared_ptr<task::TaskControl> chosenTask() const;
    // The file of the source whose subtask waits on a failed event (for a skip's preview); "" when none has.
    QString failedFile() const;
    bool offersChoice() const;
    bool pickedByHand() const { return pickedByHand_; }
    QComboBox* combo() const { return combo_; }

signals:
    void sourceChosen(const QString& file);

private:
    QString failedSourceId() const;  // asks the subtasks: the first in Error
    void markFailed(const QString& sourceId);
    void choose(int index);

    QLabel* label_;
    QComboBox* combo_;
    QString field_;
    QStringList sourceIds_;  // the combo's items, in the task file's order
    QStringList files_;      // the same order
    std::shared_ptr<task::TaskControl> task_;
    QString markedFailed_;  // the source shown as failed in the combo
    bool pickedByHand_ = false;
    bool choosing_ = false;  // the combo is set by code: not the DBA's pick
};

}  // namespace syncscope::ui
