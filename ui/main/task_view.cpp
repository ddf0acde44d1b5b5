#include "ui/main/task_view.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <utility>

#include "ui/engine/remote_history_loader.h"
#include "ui/engine/verify_runner.h"
#include "ui/main/source_picker.h"
#include "ui/models/audit_model.h"
#include "ui/models/history_recorder.h"
#include "ui/models/load_progress_model.h"
#include "ui/models/log_model.h"
#include "ui/models/shard_lock_model.h"
#include "ui/models/table_checkpoint_model.h"
#include "ui/models/table_verification.h"
#include "ui/models/ui_resources.h"
#include "ui/pages/audit_page.h"
#include "ui/pages/failed_event_panel.h"
#include "ui/pages/history_page.h"
#include "ui/pages/load_page.h"
#include "ui/pages/log_page.h"
#include "ui/pages/shard_locks_page.h"
#include "ui/pages/status_header.h"
#include "ui/pages/table_checkpoints_page.h"
#include "ui/pages/verify_page.h"
#include "ui/widgets/position_ruler.h"

namespace syncscope::ui {

namespace {
constexpr int kFailedEventTab = 0;

QString failureKey(const task::FailedEvent& event) {
    return QString::fromStdString(event.position.text() + "|" + event.schema + "." + event.table + "|" +
                                  std::to_string(event.errorCode));
}

QToolButton* toolButton(const QString& text, const QString& tip, QWidget* parent) {
    auto* button = new QToolButton(parent);
    button->setText(text);
    button->setToolTip(tip);
    button->setAutoRaise(true);
    return button;
}
}  // namespace

TaskView::TaskView(QWidget* parent)
    : QWidget(parent),
      tableModel_(new TableCheckpointModel(this)),
      logModel_(new LogModel(this)),
      auditModel_(new AuditModel(this)),
      history_(new HistoryRecorder(this)),
      historyLoader_(new RemoteHistoryLoader(history_, this)),
      loadModel_(new LoadProgressModel(this)),
      shardLockModel_(new ShardLockModel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    header_ = new StatusHeader(this);
    layout->addWidget(header_);
    auto* line = new QFrame(this);
    line->setFrameShape(QFrame::HLine);
    line->setFrameShadow(QFrame::Sunken);
    layout->addWidget(line);
    layout->addWidget(makeRulerRow());

    tabs_ = new QTabWidget(this);
    tabs_->setDocumentMode(true);
    tablesPage_ = new TableCheckpointsPage(tableModel_, tabs_);
    failedPanel_ = new FailedEventPanel(tabs_);
    historyPage_ = new HistoryPage(history_, tabs_);
    logPage_ = new LogPage(logModel_, tabs_);
    auditPage_ = new AuditPage(auditModel_, tabs_);
    loadPage_ = new LoadPage(loadModel_, tabs_);
    loadPage_->hide();
    shardLocksPage_ = new ShardLocksPage(shardLockModel_, tabs_);
    shardLocksPage_->hide();
    tabs_->addTab(tablesPage_, tr("Table checkpoints"));
    tabs_->setTabToolTip(0, tr("Every table's checkpoint, with the ones ahead of the global point flagged"));
    tabs_->addTab(historyPage_, tr("History"));
    tabs_->setTabToolTip(1, tr("Lag, rows per second and positions over the last minutes"));
    tabs_->addTab(logPage_, tr("Log"));
    tabs_->setTabToolTip(2, tr("The engine's log and the task's notices"));
    tabs_->addTab(auditPage_, tr("Audit"));
    tabs_->setTabToolTip(3, tr("Audited operator actions: skips, resume-from, position moves"));
    verifyPage_ = new VerifyPage(tabs_);
    int verifyTab = tabs_->addTab(verifyPage_, tr("Verify"));
    tabs_->setTabToolTip(verifyTab,
                         tr("Compare the task's tables upstream against downstream, row by row where they differ"));
    failedPanel_->hide();
    sourcePicker_ = new SourcePicker(tabs_);
    tabs_->setCornerWidget(sourcePicker_, Qt::TopRightCorner);
    layout->addWidget(tabs_, 1);

    // Each finished verify marks its tables on the checkpoints page and the ruler.
    connect(verifyPage_->runner(), &VerifyRunner::finished, this, [this](const VerifyProgress& progress) {
        if (progress.tables.empty()) {
            return;
        }
        // A repair run compares only the tables that differed: the others keep their last verify.
        TableVerifications verifications = progress.repairing ? tableModel_->verifications() : TableVerifications{};
        verifications.insert(tableVerificationsFrom(progress.tables));
        showVerifications(verifications);
    });
    // So does a CLI verify's results file, read by the Verify page.
    connect(verifyPage_, &VerifyPage::savedResultsLoaded, this,
            [this](const VerifyProgress& progress) { showVerifications(tableVerificationsFrom(progress.tables)); });
    connect(failedPanel_, &FailedEventPanel::retryRequested, this, &TaskView::retryRequested);
    connect(failedPanel_, &FailedEventPanel::skipConfirmed, this, &TaskView::skipConfirmed);
}

QWidget* TaskView::makeRulerRow() {
    auto* row = new QWidget(this);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(4, 0, 4, 0);
    ruler_ = new PositionRuler(row);
    auto* buttons = new QVBoxLayout;
    buttons->setSpacing(0);
    auto* zoomIn = toolButton(QStringLiteral("+"), tr("Zoom in on the ruler (or use the mouse wheel)"), row);
    auto* zoomOut = toolButton(QStringLiteral("\u2212"), tr("Zoom out"), row);
    auto* fit = toolButton(tr("All"), tr("Show every binlog file the upstream has"), row);
    auto* global = toolButton(tr("Span"),
                              tr("Back to the span that matters, followed as it moves: from the persisted global "
                                 "point (where a resume starts) to the upstream's end"),
                              row);
    for (QToolButton* button : {zoomIn, zoomOut, fit, global}) {
        buttons->addWidget(button);
    }
    buttons->addStretch();
    layout->addWidget(ruler_, 1);
    layout->addLayout(buttons);
    connect(zoomIn, &QToolButton::clicked, ruler_, &PositionRuler::zoomIn);
    connect(zoomOut, &QToolButton::clicked, ruler_, &PositionRuler::zoomOut);
    connect(fit, &QToolButton::clicked, ruler_, &PositionRuler::zoomToFit);
    connect(global, &QToolButton::clicked, ruler_, &PositionRuler::zoomToGlobal);
    // A table's mark on the ruler leads to its row.
    connect(ruler_, &PositionRuler::tableClicked, this, [this](const QString& schema, const QString& table) {
        tabs_->setCurrentWidget(tablesPage_);
        tablesPage_->selectTable(schema, table);
    });
    return row;
}

void TaskView::setSnapshot(std::shared_ptr<const task::StatusSnapshot> snapshot) {
    if (snapshot) {
        sourcePicker_->observe(*snapshot);
        history_->record(*snapshot);  // the charts have no hole where the view was hidden
    }
    // A task view behind the overview cost the GUI thread its header, ruler and table model on every tick
    // (bench_gui_fleet): held until shown. A window never shown (a test driving the view) takes each one.
    if (snapshot && !isVisible() && window()->isVisible()) {
        heldSnapshot_ = std::move(snapshot);
        return;
    }
    heldSnapshot_.reset();
    showSnapshot(snapshot);
}

void TaskView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (heldSnapshot_) {
        showSnapshot(std::exchange(heldSnapshot_, nullptr));
    }
}

void TaskView::showSnapshot(const std::shared_ptr<const task::StatusSnapshot>& snapshot) {
    header_->setSnapshot(snapshot);
    ruler_->setSnapshot(snapshot);
    tableModel_->setSnapshot(snapshot);
    showLoad(snapshot);
    showShardLocks(snapshot);
    if (snapshot) {
        // The engine keeps its last failure in the snapshot while a retry runs; the panel is for a task
        // that stopped on it, so it clears when the task runs again and comes back if it fails again.
        showFailedEvent(snapshot->stage == task::Stage::Error ? snapshot->failedEvent : std::nullopt);
    } else {
        showFailedEvent(std::nullopt);
    }
}

void TaskView::showVerifications(const TableVerifications& verifications) {
    tableModel_->setVerifications(verifications);
    ruler_->setVerifications(verifications);
}

void TaskView::showLoad(const std::shared_ptr<const task::StatusSnapshot>& snapshot) {
    loadPage_->setSnapshot(snapshot);
    // Only a load with tables: a resumed task's load stage reports none (its load was done before).
    bool wanted = snapshot && snapshot->load && !snapshot->load->tables.empty();
    bool shown = tabs_->indexOf(loadPage_) >= 0;
    if (wanted && !shown) {
        // After the failed-event panel when it is there, first otherwise.
        int at = failedEventShown() ? 1 : 0;
        tabs_->insertTab(at, loadPage_, tr("Load"));
        tabs_->setTabToolTip(at, tr("The snapshot load of task-mode all/full: progress per table"));
        if (!snapshot->load->finished) {
            tabs_->setCurrentWidget(loadPage_);
        }
    } else if (!wanted && shown) {
        tabs_->removeTab(tabs_->indexOf(loadPage_));
        loadPage_->hide();
    }
}

void TaskView::showShardLocks(const std::shared_ptr<const task::StatusSnapshot>& snapshot) {
    shardLockModel_->setSnapshot(snapshot);
    // Only a task in shard-mode ever has a lock: the tab comes with the first and stays for the task, so that a
    // lock that ran reads "No shard DDL lock" where the DBA looked, rather than a tab that vanishes.
    const size_t locks = snapshot ? snapshot->shardLocks.size() : 0;
    if (locks > 0 && !shardLocksShown()) {
        const int at = tabs_->indexOf(tablesPage_) + 1;
        tabs_->insertTab(at, shardLocksPage_, tr("Shard locks"));
        tabs_->setTabToolTip(at, tr("Shard-mode: the shard DDL locks, the shard tables that read each DDL and those "
                                    "it waits for"));
    }
    if (shardLocksShown()) {
        tabs_->setTabText(tabs_->indexOf(shardLocksPage_),
                          locks > 0 ? tr("Shard locks (%1)").arg(locks) : tr("Shard locks"));
    }
}

bool TaskView::shardLocksShown() const {
    return tabs_->indexOf(shardLocksPage_) >= 0;
}

bool TaskView::failedEventShown() const {
    return tabs_->indexOf(failedPanel_) >= 0;
}

void TaskView::showFailedEvent(const std::optional<task::FailedEvent>& event) {
    if (!event) {
        if (failedEventShown()) {
            tabs_->removeTab(tabs_->indexOf(failedPanel_));
            failedPanel_->setFailedEvent(std::nullopt);
            failedPanel_->hide();
        }
        shownFailureKey_.clear();
        return;
    }
    const QString key = failureKey(*event);
    if (key == shownFailureKey_) {
        return;
    }
    shownFailureKey_ = key;
    failedPanel_->setFailedEvent(event);
    if (!failedEventShown()) {
        tabs_->insertTab(kFailedEventTab, failedPanel_, aheadOfGlobalIcon(), tr("Failed event"));
        tabs_->setTabToolTip(kFailedEventTab, tr("The event the task stopped on, and what to do about it"));
    }
    tabs_->setCurrentWidget(failedPanel_);
}

void TaskView::appendLogLines(const std::vector<LogLine>& lines, uint64_t dropped) {
    logModel_->noteDropped(dropped);
    logModel_->appendLines(lines);
}

void TaskView::appendNotices(const std::vector<task::Notice>& notices) {
    std::vector<LogLine> lines;
    lines.reserve(notices.size());
    for (const auto& notice : notices) {
        // A stage change is news, not a warning; one without a reason is the stage's name alone.
        std::string text = task::stageName(notice.stage);
        if (!notice.message.empty()) {
            text += ": " + notice.message;
        }
        lines.push_back({notice.at, notice.isError ? LogLevel::Error : LogLevel::Info, "task", std::move(text)});
    }
    logModel_->appendLines(lines);
}

void TaskView::setAuditPath(const QString& path) {
    auditPage_->setPath(path);
    verifyPage_->setAuditPath(path);
}

void TaskView::refreshAge() {
    header_->refreshAge();
}

void TaskView::loadHistoryOf(const std::shared_ptr<task::TaskControl>& task) {
    historyLoader_->load(task);
}

void TaskView::clear() {
    setSnapshot(nullptr);
    if (shardLocksShown()) {  // the next task shows it with its first lock
        tabs_->removeTab(tabs_->indexOf(shardLocksPage_));
        shardLocksPage_->hide();
    }
    historyLoader_->load(nullptr);  // an answer still on its way for the channel shown before is dropped
    history_->clear();
    logModel_->clear();
    showVerifications({});
    setAuditPath({});
}

}  // namespace syncscope::ui
