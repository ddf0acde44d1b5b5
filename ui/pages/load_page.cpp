#include "ui/pages/load_page.h"

#include <QApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QProgressBar>
#include <QSortFilterProxyModel>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/models/load_progress_model.h"

namespace syncscope::ui {

namespace {

constexpr int kBarScale = 1000;  // QProgressBar counts in ints: per mille
constexpr double kBytesPerMegabyte = 1024.0 * 1024.0;
constexpr int kSecondsPerMinute = 60;
constexpr int kTableColumnWidth = 200;
constexpr int kProgressColumnWidth = 160;

// Draws the progress column as a bar, from FractionRole.
class ProgressBarDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override {
        QStyleOptionProgressBar bar;
        bar.rect = option.rect.adjusted(2, 2, -2, -2);
        bar.minimum = 0;
        bar.maximum = kBarScale;
        bar.progress = static_cast<int>(index.data(LoadProgressModel::FractionRole).toDouble() * kBarScale);
        bar.text = index.data(Qt::DisplayRole).toString();
        bar.textVisible = true;
        bar.state = option.state | QStyle::State_Horizontal;
        QApplication::style()->drawControl(QStyle::CE_ProgressBar, &bar, painter);
    }
};

QString duration(double seconds) {
    auto whole = static_cast<long long>(seconds);
    return QStringLiteral("%1:%2")
        .arg(whole / kSecondsPerMinute)
        .arg(whole % kSecondsPerMinute, 2, 10, QLatin1Char('0'));
}

}  // namespace

LoadPage::LoadPage(LoadProgressModel* model, QWidget* parent)
    : QWidget(parent), model_(model), proxy_(new QSortFilterProxyModel(this)) {
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(LoadProgressModel::SortRole);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout;
    unit_ = new QLabel(this);
    unit_->setToolTip(tr("DM's unit: Dump (snapshot, schema, plan), Load (chunks copied), Sync (incremental)"));
    total_ = new QProgressBar(this);
    total_->setRange(0, kBarScale);
    total_->setToolTip(tr("Rows loaded of the estimate (InnoDB's estimate until a table is done)"));
    top->addWidget(unit_);
    top->addWidget(total_, 1);
    layout->addLayout(top);
    summary_ = new QLabel(this);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);
    controls_ = new QLabel(
        tr("During the load, Pause and Stop roll back the chunks being copied (every committed chunk stays); "
           "Resume copies the remaining chunks under a new snapshot, and incremental replication then runs in "
           "safe mode until it passes the latest snapshot."),
        this);
    controls_->setWordWrap(true);
    layout->addWidget(controls_);
    view_ = new QTableView(this);
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->sortByColumn(LoadProgressModel::TableColumn, Qt::AscendingOrder);
    view_->setItemDelegateForColumn(LoadProgressModel::ProgressColumn, new ProgressBarDelegate(view_));
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->verticalHeader()->hide();
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->setColumnWidth(LoadProgressModel::TableColumn, kTableColumnWidth);
    view_->setColumnWidth(LoadProgressModel::TargetColumn, kTableColumnWidth);
    view_->setColumnWidth(LoadProgressModel::ProgressColumn, kProgressColumnWidth);
    layout->addWidget(view_, 1);
}

QString LoadPage::summaryText() const {
    return summary_->text();
}

void LoadPage::setSnapshot(const std::shared_ptr<const task::StatusSnapshot>& snapshot) {
    model_->setSnapshot(snapshot);
    const auto& progress = model_->progress();
    if (!progress) {
        unit_->setText(QString());
        summary_->setText(tr("No snapshot load: the task runs with task-mode incremental"));
        total_->setValue(0);
        return;
    }
    unit_->setText(QStringLiteral("<b>%1</b>").arg(QString::fromStdString(progress->unit)));
    double fraction =
        progress->finished || progress->rowsEstimated == 0
            ? (progress->finished ? 1.0 : 0.0)
            : std::min(1.0, static_cast<double>(progress->rowsDone) / static_cast<double>(progress->rowsEstimated));
    total_->setValue(static_cast<int>(fraction * kBarScale));
    size_t tablesDone = 0;
    for (const auto& table : progress->tables) {
        tablesDone += table.chunksDone == table.chunksTotal ? 1 : 0;
    }
    QLocale locale;
    QString text = tr("%1 of %2 tables, %3 of ~%4 rows, %5 MB, chunks %6 of %7")
                       .arg(tablesDone)
                       .arg(progress->tables.size())
                       .arg(locale.toString(static_cast<qulonglong>(progress->rowsDone)),
                            locale.toString(static_cast<qulonglong>(progress->rowsEstimated)))
                       .arg(static_cast<double>(progress->bytesDone) / kBytesPerMegabyte, 0, 'f', 1)
                       .arg(progress->chunksDone)
                       .arg(progress->chunksTotal);
    if (progress->rowsPerSecond > 0) {
        text += tr("; %1 rows/s, %2 MB/s")
                    .arg(locale.toString(static_cast<qlonglong>(progress->rowsPerSecond)))
                    .arg(progress->bytesPerSecond / kBytesPerMegabyte, 0, 'f', 1);
    }
    if (progress->etaSeconds) {
        text += tr("; ETA %1").arg(duration(*progress->etaSeconds));
    }
    if (!progress->snapshotPoint.empty()) {
        text += tr("; snapshot at %1 (upstream commits waited %2 ms)")
                    .arg(QString::fromStdString(progress->snapshotPoint))
                    .arg(progress->writersBlockedMilliseconds, 0, 'f', 1);
    }
    if (progress->finished) {
        text += progress->mode == "full" ? tr("; load finished") : tr("; load finished, replicating incrementally");
    }
    summary_->setText(text);
}

}  // namespace syncscope::ui
