#include "ui/pages/status_header.h"

#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/models/checkpoint_anomaly.h"
#include "ui/models/online_change_text.h"
#include "ui/models/shard_lock_hold.h"
#include "ui/models/shard_lock_text.h"
#include "ui/widgets/stage_badge.h"

namespace syncscope::ui {

namespace {
constexpr double kSecondsPerMinute = 60;
constexpr double kSecondsPerHour = 3600;
constexpr int kFieldSpacing = 14;
const QColor kStaleColor(239, 108, 0);
const QColor kSafeModeColor(239, 160, 0);
const QColor kAheadColor(211, 47, 47);
constexpr int kAheadTextWidth = 180;
constexpr int kReasonTextWidth = 420;  // the reason line's room until the header is laid out
constexpr int kNameMinimumWidth = 120;
constexpr size_t kAheadTablesListed = 10;

QString secondsText(double seconds) {
    if (seconds < kSecondsPerMinute) {
        return StatusHeader::tr("%1 s").arg(seconds, 0, 'f', seconds < 10 ? 1 : 0);
    }
    if (seconds < kSecondsPerHour) {
        return StatusHeader::tr("%1 min %2 s").arg(int(seconds / kSecondsPerMinute)).arg(int(seconds) % 60);
    }
    return StatusHeader::tr("%1 h %2 min")
        .arg(int(seconds / kSecondsPerHour))
        .arg(int(seconds / kSecondsPerMinute) % 60);
}
}  // namespace

StatusHeader::StatusHeader(QWidget* parent) : QWidget(parent) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    layout->setSpacing(kFieldSpacing);
    badge_ = new StageBadge(this);
    layout->addWidget(badge_);

    auto* nameBox = new QVBoxLayout;
    nameBox->setSpacing(0);
    taskName_ = new QLabel(tr("No task open"), this);
    QFont bold = taskName_->font();
    bold.setBold(true);
    taskName_->setFont(bold);
    taskName_->setToolTip(tr("The task and its source (the upstream's source-id)"));
    reason_ = new QLabel(this);
    reason_->setToolTip(tr("Why the task is in this stage"));
    reason_->setWordWrap(false);
    reason_->installEventFilter(this);
    // The name and the reason take the room the figures leave (their tooltips hold the whole text), so
    // that the header never makes the window wider than a 1280-pixel screen.
    for (QLabel* label : {taskName_, reason_}) {
        label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        label->setMinimumWidth(kNameMinimumWidth);
    }
    nameBox->addWidget(taskName_);
    nameBox->addWidget(reason_);
    layout->addLayout(nameBox, 1);

    layout->addWidget(addField(tr("Lag"), tr("Age of the oldest event read but not yet applied downstream"), &lag_));
    layout->addWidget(addField(tr("Behind"),
                               tr("Binlog bytes between the applied point and the upstream's end, and the rows "
                                  "read but not yet applied (in the queues)"),
                               &behind_));
    layout->addWidget(addField(tr("Tables ahead"),
                               tr("Table points persisted ahead of the global point: a resume from the global "
                                  "point would skip their events up to their points"),
                               &ahead_));
    layout->addWidget(addField(tr("Rows/s"), tr("Rows applied per second, recently (and since the start)"), &rows_));
    layout->addWidget(addField(tr("Transactions"),
                               tr("Downstream transactions open now, of those allowed at once (adaptive "
                                  "concurrency's limit), and worker-count, the ceiling"),
                               &workers_));
    layout->addWidget(
        addField(tr("Safe mode"),
                 tr("When on, rows are written so that events applied twice after a resume leave the same "
                    "rows (upserts where exact, UPDATE then INSERT where a delete would cascade)"),
                 &safeMode_));
    layout->addWidget(addField(tr("Global persisted"),
                               tr("The global checkpoint in the checkpoint table: where a resume starts"),
                               &persisted_));
    layout->addWidget(addField(tr("Data age"),
                               tr("How old the shown status is (the engine publishes it several "
                                  "times a second)"),
                               &age_));
    setSnapshot(nullptr);
}

QWidget* StatusHeader::addField(const QString& title, const QString& tooltip, QLabel** valueLabel) {
    auto* box = new QWidget(this);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto* titleLabel = new QLabel(title, box);
    QFont small = titleLabel->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    titleLabel->setFont(small);
    titleLabel->setForegroundRole(QPalette::PlaceholderText);
    *valueLabel = new QLabel(box);
    QFont bold = (*valueLabel)->font();
    bold.setBold(true);
    (*valueLabel)->setFont(bold);
    (*valueLabel)->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(titleLabel);
    layout->addWidget(*valueLabel);
    box->setToolTip(tooltip);
    titleLabel->setToolTip(tooltip);
    (*valueLabel)->setToolTip(tooltip);
    return box;
}

void StatusHeader::setSnapshot(std::shared_ptr<const task::StatusSnapshot> snapshot) {
    snapshot_ = std::move(snapshot);
    collectTablesAhead();  // points into snapshot_: renewed with it
    if (!snapshot_) {
        badge_->clearStage();
        taskName_->setText(tr("No task open"));
        reason_->setText(tr("Open a task file with File > Open task"));
        for (QLabel* label : {lag_, behind_, ahead_, rows_, workers_, safeMode_, age_, persisted_}) {
            label->setText(QStringLiteral("-"));
            label->setStyleSheet({});
        }
        return;
    }
    const auto& s = *snapshot_;
    badge_->setStage(s.stage, QString::fromStdString(s.stageReason));
    taskName_->setText(
        s.sourceId.empty()
            ? QString::fromStdString(s.taskName)
            : tr("%1  (source %2)").arg(QString::fromStdString(s.taskName), QString::fromStdString(s.sourceId)));
    taskName_->setToolTip(taskName_->text());
    QString reason = QString::fromStdString(s.stageReason);
    if (s.stage == task::Stage::Error && !s.lastError.empty()) {
        reason = QString::fromStdString(s.lastError);
    }
    if (s.stream.reconnecting) {
        // The binlog connection was lost and is being resumed in place: nothing is read until it is back.
        reason = s.stream.lastError.empty() ? tr("Reconnecting to the upstream, attempt %1 (%2)")
                                                  .arg(s.stream.attempt)
                                                  .arg(QString::fromStdString(s.stream.lastCut))
                                            : tr("Reconnecting to the upstream, attempt %1; last error: %2")
                                                  .arg(s.stream.attempt)
                                                  .arg(QString::fromStdString(s.stream.lastError));
    }
    if (!s.onlineChanges.empty() && s.stage != task::Stage::Error && !s.stream.reconnecting) {
        // A running pt-osc or gh-ost change (online-ddl): its copy is read and never applied; its DDLs run
        // on the table at the tool's swap.
        const task::OnlineChangeView& change = s.onlineChanges.front();
        QString online = change.ddls.empty()
                             ? tr("Schema change of %1 by %2 starting")
                                   .arg(QString::fromStdString(change.real.quoted()), shortToolName(change))
                             : tr("Schema change of %1 by %2: %3 rows copied, waiting for the swap")
                                   .arg(QString::fromStdString(change.real.quoted()), shortToolName(change),
                                        QLocale().toString(qulonglong(change.rowsCopied)));
        if (s.onlineChanges.size() > 1) {
            online += tr(" (and %1 more)").arg(s.onlineChanges.size() - 1);
        }
        reason = reason.isEmpty() ? online : online + QStringLiteral("; ") + reason;  // first: it is shown whole
    }
    if (s.stage != task::Stage::Error && !s.stream.reconnecting) {
        // A shard DDL lock that waits (shard-mode) holds the global points of the sources that read its DDL.
        std::vector<const task::ShardLockStatus*> waiting;
        for (const auto& lock : s.shardLocks) {
            if (!lock.ranDownstream) {
                waiting.push_back(&lock);
            }
        }
        if (!waiting.empty()) {
            QString line = shardLockLine(*waiting.front(), s.takenAt);
            if (waiting.size() > 1) {
                line += tr(" (and %1 more locks)").arg(waiting.size() - 1);
            }
            reason = reason.isEmpty() ? line : line + QStringLiteral("; ") + reason;
        }
    }
    reason_->setStyleSheet(s.stream.reconnecting ? QStringLiteral("color: %1").arg(kSafeModeColor.name()) : QString());
    reasonShown_ = reason;
    elideReason();
    reason_->setToolTip(reason.isEmpty() ? tr("Why the task is in this stage") : reason);
    lag_->setText(lagText());
    behind_->setText(behindText());
    ahead_->setText(fontMetrics().elidedText(aheadText(), Qt::ElideRight, kAheadTextWidth));
    ahead_->setToolTip(aheadDetails());
    // Red only for a table ahead without a shard DDL lock holding its source's global point.
    ahead_->setStyleSheet(
        tablesAhead_.size() == aheadForShardLock_ ? QString() : QStringLiteral("color: %1").arg(kAheadColor.name()));
    rows_->setText(rowsText());
    workers_->setText(workersText());
    workers_->setToolTip(workersReason());
    safeMode_->setText(safeModeText());
    safeMode_->setStyleSheet(s.safeMode ? QStringLiteral("color: %1").arg(kSafeModeColor.name()) : QString());
    persisted_->setText(pointText(s.globalPersisted));
    refreshAge();
}

bool StatusHeader::eventFilter(QObject* watched, QEvent* event) {
    // The label's room changes when the figures beside it do (a longer "Tables ahead"), not only with the window.
    if (watched == reason_ && event->type() == QEvent::Resize) {
        elideReason();
    }
    return QWidget::eventFilter(watched, event);
}

void StatusHeader::elideReason() {
    if (!snapshot_) {
        return;
    }
    // To the room the figures leave it (laid out by now), so that a long line ends in an ellipsis, not mid-word,
    // and a wide screen shows it whole.
    const int room = reason_->width() > 0 ? reason_->width() : kReasonTextWidth;
    reason_->setText(reason_->fontMetrics().elidedText(reasonShown_, Qt::ElideRight, room));
}

// Whether the figures mean anything: a running task's do (caught up on an idle upstream it has read
// nothing, and its lag is 0), and so do those of a task that read; a task that never read (a failed
// start, one never started) has none: they are unknown, not zero.
bool StatusHeader::hasRun() const {
    return snapshot_ && (snapshot_->read.known() || snapshot_->stage == task::Stage::Running);
}

QString StatusHeader::lagText() const {
    if (!hasRun()) {
        return QStringLiteral("-");
    }
    const task::CatchUpView& catchUp = snapshot_->catchUp;
    if (snapshot_->lagSeconds > 0 && catchUp.etaSeconds && *catchUp.etaSeconds > 0) {
        return tr("%1 (caught up in %2)").arg(secondsText(snapshot_->lagSeconds), secondsText(*catchUp.etaSeconds));
    }
    if (snapshot_->lagSeconds > 0 && !catchUp.etaSeconds && catchUp.appliedBytesPerSecond > 0) {
        return tr("%1 (not catching up)").arg(secondsText(snapshot_->lagSeconds));
    }
    return secondsText(snapshot_->lagSeconds);
}

QString StatusHeader::behindText() const {
    if (!hasRun()) {
        return QStringLiteral("-");
    }
    uint64_t queued = snapshot_->readQueueDepth;
    for (uint64_t depth : snapshot_->workerQueueDepths) {
        queued += depth;
    }
    const QLocale locale;
    const QString bytes =
        locale.formattedDataSize(qint64(snapshot_->catchUp.behindBytes), 1, QLocale::DataSizeIecFormat);
    return queued == 0 ? bytes : tr("%1, %2 rows queued").arg(bytes, locale.toString(qulonglong(queued)));
}

void StatusHeader::collectTablesAhead() {
    tablesAhead_.clear();
    aheadForShardLock_ = 0;
    if (!snapshot_) {
        return;
    }
    for (const auto& table : snapshot_->tables) {
        if (table.aheadOfGlobal) {
            tablesAhead_.push_back(&table);
            aheadForShardLock_ += lockHoldingTable(table, *snapshot_) ? 1 : 0;
        }
    }
    // The farthest ahead first, as many as the details list: the most a resume would skip.
    const auto listed = tablesAhead_.begin() + std::ptrdiff_t(std::min(tablesAhead_.size(), kAheadTablesListed));
    std::partial_sort(tablesAhead_.begin(), listed, tablesAhead_.end(),
                      [](const auto* a, const auto* b) { return a->bytesFromGlobal > b->bytesFromGlobal; });
}

QString StatusHeader::aheadText() const {
    if (!snapshot_) {
        return QStringLiteral("-");
    }
    const auto& ahead = tablesAhead_;
    if (ahead.empty()) {
        return tr("none");
    }
    const QLocale locale;
    const auto* first = ahead.front();
    const QString farthest =
        tr("%1 +%2").arg(QString::fromStdString(first->schema + "." + first->table),
                         locale.formattedDataSize(first->bytesFromGlobal, 1, QLocale::DataSizeIecFormat));
    // The count first: a long table name is what the width cuts.
    return ahead.size() == 1 ? farthest : tr("%1 tables, %2").arg(ahead.size()).arg(farthest);
}

QString StatusHeader::aheadDetails() const {
    const auto& ahead = tablesAhead_;
    if (ahead.empty()) {
        return tr("No table point is persisted ahead of the global point: a resume skips nothing");
    }
    QStringList lines;
    if (aheadForShardLock_ > 0) {
        lines << tr("%1 of them ahead of a global point that a shard DDL lock holds, as expected: a restart reads "
                    "again from the held point and each table point passes over what was applied (Shard locks)")
                     .arg(aheadForShardLock_);
    }
    lines << tr("A resume from the persisted global point %1 would skip:").arg(pointText(snapshot_->globalPersisted));
    const QLocale locale;
    for (size_t i = 0; i < ahead.size() && i < kAheadTablesListed; ++i) {
        lines << tr("%1: %2 events, up to %3 (%4 bytes ahead)")
                     .arg(QString::fromStdString(ahead[i]->schema + "." + ahead[i]->table))
                     .arg(locale.toString(qulonglong(ahead[i]->eventsFromGlobal)))
                     .arg(pointText(ahead[i]->persisted))
                     .arg(locale.toString(qlonglong(ahead[i]->bytesFromGlobal)));
    }
    if (ahead.size() > kAheadTablesListed) {
        lines
            << tr("... and %1 more tables (Table checkpoints, Only anomalies)").arg(ahead.size() - kAheadTablesListed);
    }
    return lines.join(QLatin1Char('\n'));
}

QString StatusHeader::rowsText() const {
    if (!hasRun()) {
        return QStringLiteral("-");
    }
    const QLocale locale;
    return tr("%1 (avg %2)")
        .arg(locale.toString(snapshot_->recentRowsPerSecond, 'f', 0),
             locale.toString(snapshot_->totalRowsPerSecond, 'f', 0));
}

QString StatusHeader::workersText() const {
    if (!hasRun() || snapshot_->applyConcurrency.ceiling == 0) {
        return QStringLiteral("-");
    }
    const auto& c = snapshot_->applyConcurrency;
    return tr("%1 of %2 (max %3)").arg(c.busy).arg(c.allowed).arg(c.ceiling);
}

QString StatusHeader::workersReason() const {
    if (!snapshot_ || snapshot_->applyConcurrency.ceiling == 0) {
        return tr("Downstream transactions open now, of those allowed at once, and worker-count");
    }
    const auto& c = snapshot_->applyConcurrency;
    return (c.adaptive ? tr("Adaptive concurrency: %1") : tr("%1")).arg(QString::fromStdString(c.reason));
}

QString StatusHeader::safeModeText() const {
    if (!snapshot_) {
        return QStringLiteral("-");
    }
    if (!snapshot_->safeMode) {
        return tr("off");
    }
    // The end of the window the engine is in (a replay after an unclean stop, a resume-from, a skip);
    // safe mode for the whole run (the task's setting) has no end.
    if (snapshot_->safeModeUntil.known()) {
        return tr("on until %1").arg(pointText(snapshot_->safeModeUntil));
    }
    return tr("on");
}

QString StatusHeader::reasonText() const {
    return reason_->toolTip();
}

QString StatusHeader::ageText() const {
    return age_->text();
}

void StatusHeader::refreshAge() {
    if (!snapshot_) {
        return;
    }
    const double seconds = std::chrono::duration<double>(task::Clock::now() - snapshot_->takenAt).count();
    age_->setText(secondsText(std::max(0.0, seconds)));
    age_->setStyleSheet(seconds > kStaleSeconds ? QStringLiteral("color: %1").arg(kStaleColor.name()) : QString());
}

}  // namespace syncscope::ui
