#include "ui/pages/shard_locks_page.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/models/shard_lock_model.h"
#include "ui/models/shard_lock_text.h"

namespace syncscope::ui {

namespace {
constexpr int kCellPadding = 12;
}  // namespace

ShardLocksPage::ShardLocksPage(ShardLockModel* model, QWidget* parent) : QWidget(parent), model_(model) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    why_ = new QLabel(tr("While a lock waits, the sources whose shard tables read the DDL hold their global point "
                         "before it; their other tables go on applying, ahead of it, as expected."),
                      this);
    why_->setWordWrap(true);
    why_->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(summary_);
    layout->addWidget(why_);

    stack_ = new QStackedWidget(this);
    view_ = new QTableView(stack_);
    view_->setModel(model_);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setWordWrap(false);
    view_->verticalHeader()->hide();
    view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 6);
    view_->horizontalHeader()->setStretchLastSection(true);
    empty_ = new QLabel(tr("No shard DDL lock: every shard table of the merged tables is at the same DDL"), stack_);
    empty_->setAlignment(Qt::AlignCenter);
    empty_->setWordWrap(true);
    empty_->setForegroundRole(QPalette::PlaceholderText);
    stack_->addWidget(view_);
    stack_->addWidget(empty_);
    layout->addWidget(stack_, 1);

    auto* buttons = new QHBoxLayout;
    unlock_ = new QPushButton(tr("Unlock..."), this);
    unlock_->setToolTip(
        tr("Run the selected waiting lock's DDL now, without the shard tables it waits for (DM's "
           "shard-ddl-lock unlock): a preview says what it does first; audited"));
    buttons->addWidget(unlock_);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    connect(unlock_, &QPushButton::clicked, this, [this] {
        if (const QString target = selectedWaitingTarget(); !target.isEmpty()) {
            emit unlockRequested(target);
        }
    });
    connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ShardLocksPage::updateSummary);

    connect(model_, &QAbstractItemModel::modelReset, this, &ShardLocksPage::fitColumns);
    connect(model_, &QAbstractItemModel::modelReset, this, &ShardLocksPage::updateSummary);
    connect(model_, &QAbstractItemModel::dataChanged, this, &ShardLocksPage::updateSummary);
    updateSummary();
}

void ShardLocksPage::updateSummary() {
    QStringList lines;
    for (const auto& lock : model_->locks()) {
        lines << QStringLiteral("<b>%1</b>").arg(shardLockLine(lock, model_->now()).toHtmlEscaped());
    }
    for (const auto& column : model_->columns()) {
        lines << shardColumnLine(column).toHtmlEscaped();
    }
    empty_->setText(model_->columns().empty()
                        ? tr("No shard DDL lock: every shard table of the merged tables is at the same DDL")
                        : tr("No shard DDL lock waits"));
    summary_->setText(lines.join(QStringLiteral("<br>")));
    summary_->setVisible(!lines.isEmpty());
    why_->setVisible(!model_->locks().empty());
    stack_->setCurrentWidget(model_->rowCount() > 0 ? static_cast<QWidget*>(view_) : empty_);
    unlock_->setVisible(model_->rowCount() > 0);
    unlock_->setEnabled(!selectedWaitingTarget().isEmpty());
}

QString ShardLocksPage::selectedWaitingTarget() const {
    const QModelIndexList rows = view_->selectionModel()->selectedRows();
    if (rows.isEmpty()) {
        return {};
    }
    const task::ShardLockStatus* lock = model_->lockAt(rows.front().row());
    return lock == nullptr || lock->ranDownstream ? QString() : QString::fromStdString(lock->target.text());
}

void ShardLocksPage::fitColumns() {
    // A few rows (the shard tables of the locks): sized to what they hold, the DDLs taking the rest.
    view_->resizeColumnsToContents();
    for (int column = 0; column + 1 < ShardLockModel::ColumnCount; ++column) {
        view_->setColumnWidth(column, view_->columnWidth(column) + kCellPadding);
    }
}

QString ShardLocksPage::summaryText() const {
    QStringList lines;
    for (const auto& lock : model_->locks()) {
        lines << shardLockLine(lock, model_->now());
    }
    for (const auto& column : model_->columns()) {
        lines << shardColumnLine(column);
    }
    if (showsEmptyText()) {
        lines << empty_->text();
    }
    return lines.join(QLatin1Char('\n'));
}

bool ShardLocksPage::showsEmptyText() const {
    return stack_->currentWidget() == empty_;
}

}  // namespace syncscope::ui
