#include "ui/main/browse_controller.h"

#include <QInputDialog>
#include <QLineEdit>

#include "engine/common/error.h"
#include "engine/preview/stop_point_plan.h"
#include "engine/preview/task_window_preview.h"
#include "ui/browse/event_browser_links.h"
#include "ui/browse/event_browser_page.h"
#include "ui/dialogs/stop_point_dialog.h"
#include "ui/engine/engine_adapter.h"
#include "ui/main/source_picker.h"
#include "ui/main/status_message.h"
#include "ui/main/task_files_setup.h"
#include "ui/main/task_view.h"

namespace syncscope::ui {

namespace {

constexpr int kBrowserWidth = 1280;
constexpr int kBrowserHeight = 760;

// What is surely downstream: the applied point while a session runs, else the persisted global point
// (a task stopped on an error, paused or stopped has no session to say more).
task::PointView committedPoint(const task::StatusSnapshot& snapshot) {
    return snapshot.applied.known() ? snapshot.applied : snapshot.globalPersisted;
}

browse::BrowsePoint committedDownstream(const task::StatusSnapshot& snapshot) {
    const task::PointView point = committedPoint(snapshot);
    return {point.file, point.pos};
}

}  // namespace

BrowseController::BrowseController(QWidget* window, TaskView* taskView, EngineAdapter* adapter,
                                   const ShownChannel* shown)
    : QObject(window),
      window_(window),
      taskView_(taskView),
      adapter_(adapter),
      shown_(shown),
      links_(new EventBrowserLinks(taskView->ruler(), taskView->tablesPage(), taskView->failedEventPanel(), this)) {
    connect(links_, &EventBrowserLinks::browseRequested, this, &BrowseController::browseAt);
}

EventBrowserPage* BrowseController::showEventBrowser() {
    if (!browser_) {
        browser_ = new EventBrowserPage(window_);
        browser_->setWindowFlag(Qt::Window);
        browser_->setWindowTitle(tr("Binlog events - SyncScope"));
        browser_->resize(kBrowserWidth, kBrowserHeight);
        connect(browser_, &EventBrowserPage::resumeFromRequested, this, &BrowseController::resumeFromRequested);
        connect(browser_, &EventBrowserPage::stopAtRequested, adapter_, &EngineAdapter::stopAt);
    }
    // The shown channel's binlog: a task with several sources reads the source picked beside the task view's
    // tabs. A channel with no local source file (a remote engine, a replica) leaves nothing to browse: the
    // browser must not go on reading, checking or resuming with the channel shown before.
    EventBrowserPage::HistoryFactory history;
    QString description;
    EventBrowserPage::RowCheckFactory rowCheck;
    std::shared_ptr<const filter::OnlineDdlRules> onlineDdl;
    const QString sourceFile = taskView_->sourcePicker()->chosenFile();
    if (!sourceFile.isEmpty()) {
        try {
            history = historyForSourceFile(sourceFile, &description);
            if (!shown_->files.taskPath.isEmpty()) {
                TaskFilesSetup task = readTaskFilesSetup(shown_->files.taskPath, sourceFile);
                if (task.known) {
                    onlineDdl = task.setup.onlineDdl;
                }
                // The row check reads the task's files on the worker, as they are when it runs.
                rowCheck = [taskPath = shown_->files.taskPath, sourcePath = sourceFile] {
                    TaskFilesSetup task = readTaskFilesSetup(taskPath, sourcePath);
                    if (!task.known) {
                        throw Error(task.problem);
                    }
                    return preview::windowRequestFor(task.setup);
                };
            }
        } catch (const std::exception& e) {
            emit statusMessage(tr("Cannot read the task's source file %1: %2").arg(sourceFile, e.what()),
                               kStatusMessageMilliseconds);
        }
    }
    browser_->setHistorySource(std::move(history), description);
    const QString checked = rowCheck ? tr("the task's downstream") : QString();
    browser_->setRowCheckSource(std::move(rowCheck), checked);
    browser_->setOnlineDdlRules(std::move(onlineDdl));
    browser_->setResumeEnabled(adapter_->hasTask());
    if (auto snapshot = adapter_->lastSnapshot()) {
        browser_->setAppliedPoint(committedDownstream(*snapshot));
    }
    browser_->show();
    browser_->raise();
    browser_->activateWindow();
    return browser_;
}

void BrowseController::browseAt(const browse::BrowsePoint& point, const QString& why) {
    showEventBrowser()->openAt(point, why);
}

void BrowseController::browseSkipWindow(const SkipWindowBrowse& window) {
    openSkipWindow(showEventBrowser(), window);
}

void BrowseController::followSource() {
    if (browser_ && browser_->isVisible()) {
        showEventBrowser();
    }
}

// A hidden browser is brought up to date when it is shown again (showEventBrowser).
void BrowseController::followSnapshot(const task::StatusSnapshot& snapshot) {
    if (browser_ && browser_->isVisible()) {
        browser_->setAppliedPoint(committedDownstream(snapshot));
    }
}

void BrowseController::showRefusal(const QString& text) {
    if (browser_) {
        browser_->showRefusal(text);
    }
}

void BrowseController::askStopPoint() {
    const auto snapshot = adapter_->lastSnapshot();
    const QString current = QString::fromStdString(snapshot ? snapshot->stopPoint : "");
    TaskFilesSetup task;
    if (!shown_->files.taskPath.isEmpty()) {
        task = readTaskFilesSetup(shown_->files.taskPath, taskView_->sourcePicker()->chosenFile());
    }
    if (!task.known) {
        // A replica channel or a remote engine has no task files here to read the binlog with: the engine
        // still refuses a point it has passed.
        bool ok = false;
        QString point = QInputDialog::getText(
            window_, tr("Stop at a point"),
            tr("The task pauses by itself at a transaction end: after FILE:POS, after a GTID, or before the first "
               "transaction at or after 'YYYY-MM-DD HH:MM:SS' (local time). Empty: no stop point."),
            QLineEdit::Normal, current, &ok);
        if (ok) {
            adapter_->stopAt(point.trimmed());
        }
        return;
    }
    // From what the task has surely applied when the dialog opens (the worker holds copies only; the task
    // itself refuses a point it has passed by the time it is set).
    auto job = [upstream = task.setup.upstream, applied = snapshot ? committedPoint(*snapshot) : task::PointView{}](
                   const std::string& point, const std::atomic<bool>* cancel) {
        return preview::planStopPoint(upstream, applied, point, cancel);
    };
    auto* dialog = new StopPointDialog(current, std::move(job), window_);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("stopPointDialog"));
    connect(dialog, &QDialog::accepted, adapter_,
            [adapter = adapter_, dialog] { adapter->stopAt(dialog->checkedPoint()); });
    dialog->open();
}

}  // namespace syncscope::ui
