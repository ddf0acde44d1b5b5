// The main window's previews before a skip and a resume-from: the rows they leave out (or apply again)
// checked against the downstream (ui/dialogs/window_preview_dialog.h). Apart from main_window.cpp so
// that each file keeps one job.
#include <QDateTime>
#include <QDir>
#include <QFileInfo>

#include <spdlog/spdlog.h>

#include "engine/browse/browse_page.h"
#include "engine/browse/server_binlog_history.h"
#include "engine/filter/block_allow_list.h"
#include "engine/filter/table_router.h"
#include "engine/task/task_setup_builder.h"
#include "ui/dialogs/window_preview_dialog.h"
#include "ui/engine/engine_adapter.h"
#include "ui/main/main_window.h"

namespace syncscope::ui {

namespace {

// What the worker thread needs of the task: its servers and its route, copied.
struct PreviewServers {
    ServerSettings upstream;
    ServerSettings downstream;
    std::shared_ptr<const filter::TableRouter> router;
    std::shared_ptr<const filter::BlockAllowList> blockAllow;
    std::string taskName;
    std::string sourceId;
    bool known = false;  // read from the task's files
};

PreviewServers serversOf(const TaskFiles& files) {
    task::TaskConfig taskConfig = task::loadTaskConfig(files.taskPath.toStdString());
    task::SourceConfig sourceConfig = task::loadSourceConfig(files.sourcePath.toStdString());
    std::vector<std::string> warnings;
    task::TaskSetup setup = task::makeTaskSetup(taskConfig, sourceConfig, warnings);
    return {setup.upstream, setup.downstream, setup.router, setup.blockAllow, setup.taskName, setup.sourceId, true};
}

verify::WindowPreviewRequest requestFor(const PreviewServers& servers) {
    verify::WindowPreviewRequest request;
    request.upstream = servers.upstream;
    request.downstream = servers.downstream;
    if (auto router = servers.router) {
        request.route = [router](const schema::TableName& name) {
            filter::TableName routed = router->route({name.schema, name.table});
            return schema::TableName{routed.schema, routed.table};
        };
    }
    if (auto blockAllow = servers.blockAllow) {
        request.replicated = [blockAllow](const schema::TableName& name) {
            return blockAllow->allows({name.schema, name.table});
        };
    }
    return request;
}

}  // namespace

QString MainWindow::replaySqlPath(const std::string& taskName) const {
    const QString folder = files_.auditPath.isEmpty() ? QDir::tempPath() : QFileInfo(files_.auditPath).absolutePath();
    return folder + QStringLiteral("/%1-skipped-%2.sql")
                        .arg(QString::fromStdString(taskName),
                             QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")));
}

WindowPreviewDialog* MainWindow::previewDialog(std::function<verify::WindowPreview(const std::atomic<bool>*)> job,
                                               WindowPreviewAction action) {
    auto* dialog = new WindowPreviewDialog(std::move(job), std::move(action), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("windowPreviewDialog"));
    return dialog;
}

void MainWindow::skipWithPreview() {
    auto snapshot = adapter_->lastSnapshot();
    if (!snapshot || !snapshot->failedEvent || !snapshot->failedEvent->position.known()) {
        adapter_->skipFailedEvent();  // the task answers why there is nothing to skip
        return;
    }
    PreviewServers servers;
    try {
        servers = serversOf(files_);
    } catch (const std::exception& e) {
        servers.taskName = snapshot->taskName;
        servers.sourceId = snapshot->sourceId;
        spdlog::warn("skip preview: cannot read the task's files: {}", e.what());
    }
    const browse::BrowsePoint failed{snapshot->failedEvent->position.file, snapshot->failedEvent->position.pos};
    // The failed row's transaction, found in the binlog around the row, is the window.
    auto job = [servers, failed](const std::atomic<bool>* cancel) {
        if (!servers.known) {
            throw Error("the task's files could not be read: no servers to preview with");
        }
        browse::ServerBinlogHistory history(servers.upstream);
        browse::PageRequest around;
        around.around = failed;
        around.before = 0;
        around.count = 0;
        browse::Page page = browse::readPage(history, around, cancel);
        if (!page.error.empty() || !page.target || *page.target >= page.transactions.size()) {
            throw Error("the failed event's transaction at " + failed.toString() +
                        " was not found in the upstream's binlog: " + (page.error.empty() ? page.note : page.error));
        }
        const browse::BrowsedTransaction& trx = page.transactions[*page.target];
        verify::WindowPreviewRequest request = requestFor(servers);
        request.from = binlog::BinlogPosition(trx.file, trx.pos);
        request.to = binlog::BinlogPosition(trx.endFile, trx.endPos);
        verify::WindowPreviewer previewer;
        previewer.setCancelFlag(cancel);
        return previewer.preview(request);
    };
    WindowPreviewAction action;
    action.title = tr("Skip the failed transaction?");
    action.intro =
        tr("The transaction holding the failed row is skipped: none of its rows is applied by the task. "
           "Each row is checked against the downstream below.");
    action.confirmText = tr("Skip it");
    action.sqlPath = replaySqlPath(servers.taskName);
    action.auditPath = files_.auditPath;
    action.taskName = servers.taskName;
    action.sourceId = servers.sourceId;
    WindowPreviewDialog* dialog = previewDialog(std::move(job), std::move(action));
    connect(dialog, &QDialog::accepted, adapter_, &EngineAdapter::skipFailedEvent);
    dialog->open();
}

void MainWindow::resumeFromWithPreview(const task::ResumeTarget& target, const QString& description) {
    auto snapshot = adapter_->lastSnapshot();
    const task::PointView global = snapshot ? snapshot->globalPersisted : task::PointView{};
    if (target.file == global.file && target.pos == global.pos) {
        adapter_->resumeFrom(target);  // nothing is skipped or applied again
        return;
    }
    const QString where = QStringLiteral("%1:%2").arg(QString::fromStdString(target.file)).arg(target.pos);
    PreviewServers servers;
    std::string problem;
    try {
        servers = serversOf(files_);
    } catch (const std::exception& e) {
        problem = e.what();
    }
    binlog::BinlogPosition from;
    binlog::BinlogPosition to;
    bool skips = false;
    try {
        binlog::BinlogPosition chosen(target.file, target.pos);
        binlog::BinlogPosition persisted(global.file, global.pos);
        skips = persisted < chosen;
        from = skips ? persisted : chosen;
        to = skips ? chosen : persisted;
    } catch (const std::exception& e) {
        problem =
            std::string("no window between the persisted global point and ") + where.toStdString() + ": " + e.what();
    }
    auto job = [servers, from, to, problem](const std::atomic<bool>* cancel) {
        if (!problem.empty()) {
            throw Error(problem);
        }
        verify::WindowPreviewRequest request = requestFor(servers);
        request.from = from;
        request.to = to;
        verify::WindowPreviewer previewer;
        previewer.setCancelFlag(cancel);
        return previewer.preview(request);
    };
    WindowPreviewAction action;
    action.title = tr("Resume from %1?").arg(where);
    action.intro =
        (skips ? tr("Resume the task from %1, %2. The global checkpoint moves forward from %3 (written to the "
                    "audit log): the transactions below are <b>skipped</b>.")
               : tr("Resume the task from %1, %2. The global checkpoint moves back from %3 (written to the "
                    "audit log): the transactions below are <b>applied again</b>, in safe mode."))
            .arg(where, description, QString::fromStdString(global.text()));
    action.confirmText = tr("Resume");
    action.skipsRows = skips;
    action.sqlPath = replaySqlPath(servers.taskName.empty() && snapshot ? snapshot->taskName : servers.taskName);
    action.auditPath = files_.auditPath;
    action.auditAction = "resume-from-preview";
    action.taskName = servers.taskName;
    action.sourceId = servers.sourceId;
    WindowPreviewDialog* dialog = previewDialog(std::move(job), std::move(action));
    connect(dialog, &QDialog::accepted, adapter_, [this, target] { adapter_->resumeFrom(target); });
    dialog->open();
}

}  // namespace syncscope::ui
