// The main window's checkpoint inspection: one window, kept, its geometry saved with the window's. From the
// Tools menu the shown task's own checkpoint table, target and upstream are filled in; from the overview the
// form starts empty. A skip window it finds is handed on to the event browser.
#pragma once

#include <QObject>

#include "ui/inspect/checkpoint_inspection_page.h"
#include "ui/main/shown_channel.h"

class QWidget;

namespace syncscope::ui {

class SourcePicker;

class InspectionController : public QObject {
    Q_OBJECT

public:
    InspectionController(QWidget* window, const SourcePicker* picker, const ShownChannel* shown);

    // The inspection window, shown and raised.
    CheckpointInspectionPage* showInspection();
    // Tools > Inspect checkpoints: the form, with the shown task's checkpoints filled in when a task is open.
    void inspectShownTask();
    // The overview's Inspect: the form, empty.
    void inspectWithDialog();
    void saveGeometry() const;

signals:
    void browseWindowRequested(const syncscope::ui::SkipWindowBrowse& window);
    void statusMessage(const QString& text, int milliseconds);

private:
    QWidget* window_;
    const SourcePicker* picker_;
    const ShownChannel* shown_;
    CheckpointInspectionPage* page_ = nullptr;
};

}  // namespace syncscope::ui
