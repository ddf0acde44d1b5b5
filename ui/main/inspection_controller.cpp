#include "ui/main/inspection_controller.h"

#include <QSettings>
#include <QTimer>
#include <QWidget>
#include <optional>

#include "ui/inspect/checkpoint_inspection_page.h"
#include "ui/inspect/task_inspection_request.h"
#include "ui/main/source_picker.h"
#include "ui/main/status_message.h"

namespace syncscope::ui {

namespace {
const char* const kInspectionGeometryKey = "inspect/geometry";
constexpr int kInspectionWidth = 1280;
constexpr int kInspectionHeight = 640;
}  // namespace

InspectionController::InspectionController(QWidget* window, const SourcePicker* picker, const ShownChannel* shown)
    : QObject(window), window_(window), picker_(picker), shown_(shown) {}

CheckpointInspectionPage* InspectionController::showInspection() {
    if (!page_) {
        page_ = new CheckpointInspectionPage(window_);
        page_->setWindowFlag(Qt::Window);
        page_->setWindowTitle(tr("Checkpoint inspection - SyncScope"));
        page_->resize(kInspectionWidth, kInspectionHeight);
        page_->restoreGeometry(QSettings().value(kInspectionGeometryKey).toByteArray());
        connect(page_, &CheckpointInspectionPage::browseWindowRequested, this,
                &InspectionController::browseWindowRequested);
    }
    page_->show();
    page_->raise();
    page_->activateWindow();
    return page_;
}

void InspectionController::inspectShownTask() {
    CheckpointInspectionPage* page = showInspection();
    if (page->isBusy()) {
        return;
    }
    // With a task open, its own checkpoint table, target and upstream are filled in.
    std::optional<inspect::InspectionRequest> forTask;
    if (!shown_->files.taskPath.isEmpty()) {
        try {
            forTask =
                inspectionRequestForTask(shown_->files.taskPath.toStdString(), picker_->chosenFile().toStdString());
        } catch (const std::exception& e) {
            emit statusMessage(tr("Cannot fill in the task's checkpoints: %1").arg(e.what()),
                               kStatusMessageMilliseconds);
        }
    }
    QTimer::singleShot(0, page, [page, forTask] {
        if (forTask) {
            page->inspectWithDialog(*forTask);
        } else {
            page->inspectWithDialog();
        }
    });
}

void InspectionController::inspectWithDialog() {
    CheckpointInspectionPage* page = showInspection();
    QTimer::singleShot(0, page, [page] {
        if (!page->isBusy()) {
            page->inspectWithDialog();
        }
    });
}

void InspectionController::saveGeometry() const {
    if (page_) {
        QSettings().setValue(kInspectionGeometryKey, page_->saveGeometry());
    }
}

}  // namespace syncscope::ui
