#include "ui/main/source_picker.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>

#include "engine/config/source_config.h"
#include "engine/control/subtask_directory.h"
#include "ui/fleet/multi_source_group.h"

namespace syncscope::ui {

SourcePicker::SourcePicker(QWidget* parent) : QWidget(parent), label_(new QLabel(this)), combo_(new QComboBox(this)) {
    setObjectName(QStringLiteral("sourcePicker"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 0);
    label_->setText(tr("Source:"));
    label_->setBuddy(combo_);
    combo_->setObjectName(QStringLiteral("sourcePickerCombo"));
    combo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    const QString tip =
        tr("The source that Verify, the binlog browser, the previews, a stop point and the "
           "checkpoint inspection read (the first, or the one that failed, until you pick one)");
    label_->setToolTip(tip);
    combo_->setToolTip(tip);
    layout->addWidget(label_);
    layout->addWidget(combo_);
    connect(combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (!choosing_ && index >= 0) {
            pickedByHand_ = true;
            emit sourceChosen(chosenFile());
        }
    });
    hide();
}

void SourcePicker::setTask(const QString& sourceField, std::shared_ptr<task::TaskControl> task) {
    field_ = sourceField;
    task_ = std::move(task);
    sourceIds_.clear();
    files_.clear();
    markedFailed_.clear();
    pickedByHand_ = false;
    const QStringList files = sourceFileList(sourceField);
    if (files.size() > 1) {
        for (const QString& file : files) {
            QString sourceId;
            try {
                sourceId = QString::fromStdString(config::loadSourceConfig(file.toStdString()).sourceId);
            } catch (const std::exception&) {
                sourceId = file;  // a file that no longer loads is offered by its name: its page says why
            }
            sourceIds_.append(sourceId);
            files_.append(file);
        }
    }
    choosing_ = true;
    combo_->clear();
    combo_->addItems(sourceIds_);
    choosing_ = false;
    setVisible(offersChoice());
    const QString failed = offersChoice() ? failedSourceId() : QString();
    markFailed(failed);
    choose(failed.isEmpty() ? 0 : int(sourceIds_.indexOf(failed)));
}

void SourcePicker::clear() {
    setTask({}, nullptr);
}

void SourcePicker::observe(const task::StatusSnapshot& whole) {
    if (!offersChoice()) {
        return;
    }
    // The whole task shows Error when any source has failed (whole_task_status.h): only then are the subtasks asked.
    const QString failed = whole.stage == task::Stage::Error ? failedSourceId() : QString();
    if (failed == markedFailed_) {
        return;
    }
    markFailed(failed);
    if (!failed.isEmpty() && !pickedByHand_ && failed != chosenSourceId()) {
        choose(int(sourceIds_.indexOf(failed)));
        emit sourceChosen(chosenFile());
    }
}

QString SourcePicker::chosenFile() const {
    const int index = combo_->currentIndex();
    return offersChoice() && index >= 0 && index < files_.size() ? files_.at(index) : field_;
}

QString SourcePicker::chosenSourceId() const {
    const int index = combo_->currentIndex();
    return offersChoice() && index >= 0 && index < sourceIds_.size() ? sourceIds_.at(index) : QString();
}

std::shared_ptr<task::TaskControl> SourcePicker::chosenTask() const {
    const auto* directory = dynamic_cast<const control::SubtaskDirectory*>(task_.get());
    task::TaskControl* subtask =
        directory && offersChoice() ? directory->subtask(chosenSourceId().toStdString()) : nullptr;
    // Aliasing: the subtask lives as long as its task.
    return subtask ? std::shared_ptr<task::TaskControl>(task_, subtask) : task_;
}

QString SourcePicker::failedFile() const {
    const QString failed = offersChoice() ? failedSourceId() : QString();
    return failed.isEmpty() ? QString() : files_.at(sourceIds_.indexOf(failed));
}

bool SourcePicker::offersChoice() const {
    return sourceIds_.size() > 1;
}

QString SourcePicker::failedSourceId() const {
    const auto* directory = dynamic_cast<const control::SubtaskDirectory*>(task_.get());
    if (!directory) {
        return {};
    }
    for (const QString& sourceId : sourceIds_) {
        const task::TaskControl* subtask = directory->subtask(sourceId.toStdString());
        if (subtask && subtask->status()->stage == task::Stage::Error) {
            return sourceId;
        }
    }
    return {};
}

void SourcePicker::markFailed(const QString& sourceId) {
    markedFailed_ = sourceId;
    for (int i = 0; i < sourceIds_.size(); ++i) {
        combo_->setItemText(i,
                            sourceIds_.at(i) == sourceId ? tr("%1 (failed)").arg(sourceIds_.at(i)) : sourceIds_.at(i));
    }
}

void SourcePicker::choose(int index) {
    choosing_ = true;
    combo_->setCurrentIndex(index);
    choosing_ = false;
}

}  // namespace syncscope::ui
