#include "ui/pages/log_page.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/models/log_filter_proxy.h"
#include "ui/models/log_model.h"

namespace syncscope::ui {

namespace {
constexpr int kTimeColumnWidth = 100;
constexpr int kLevelColumnWidth = 70;
constexpr int kPartColumnWidth = 90;
}  // namespace

LogPage::LogPage(LogModel* model, QWidget* parent) : QWidget(parent), model_(model), proxy_(new LogFilterProxy(this)) {
    proxy_->setSourceModel(model_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    level_ = new QComboBox(this);
    for (LogLevel level : {LogLevel::Trace, LogLevel::Debug, LogLevel::Info, LogLevel::Warning, LogLevel::Error}) {
        level_->addItem(tr("%1 and above").arg(QString::fromLatin1(logLevelName(level))), int(level));
    }
    level_->setCurrentIndex(level_->findData(int(LogLevel::Info)));
    proxy_->setMinimumLevel(LogLevel::Info);
    level_->setToolTip(tr("Show only lines at this level or more severe"));
    search_ = new QLineEdit(this);
    search_->setPlaceholderText(tr("Search the log"));
    search_->setClearButtonEnabled(true);
    search_->setToolTip(tr("Show only lines whose message or part contains this text"));
    follow_ = new QCheckBox(tr("&Follow"), this);
    follow_->setChecked(true);
    follow_->setToolTip(tr("Keep the newest line in view as lines arrive"));
    auto* clear = new QPushButton(tr("C&lear"), this);
    clear->setToolTip(tr("Remove every line from the view (the engine's log files keep them)"));
    count_ = new QLabel(this);
    count_->setToolTip(tr("Lines shown, lines kept, and the cap after which the oldest lines go"));
    bar->addWidget(level_);
    bar->addWidget(search_, 1);
    bar->addWidget(follow_);
    bar->addWidget(count_);
    bar->addWidget(clear);
    layout->addLayout(bar);

    view_ = new QTableView(this);
    view_->setModel(proxy_);
    view_->verticalHeader()->hide();
    view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 4);
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->setColumnWidth(LogModel::TimeColumn, kTimeColumnWidth);
    view_->setColumnWidth(LogModel::LevelColumn, kLevelColumnWidth);
    view_->setColumnWidth(LogModel::PartColumn, kPartColumnWidth);
    view_->setWordWrap(false);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setToolTip(tr("The engine's log lines and the task's notices"));
    layout->addWidget(view_, 1);

    connect(level_, &QComboBox::currentIndexChanged, this,
            [this] { proxy_->setMinimumLevel(LogLevel(level_->currentData().toInt())); });
    connect(search_, &QLineEdit::textChanged, proxy_, &LogFilterProxy::setSearchText);
    connect(clear, &QPushButton::clicked, model_, &LogModel::clear);
    connect(proxy_, &QAbstractItemModel::rowsInserted, this, &LogPage::scrollIfFollowing);
    connect(follow_, &QCheckBox::toggled, this, &LogPage::scrollIfFollowing);
    connect(model_, &QAbstractItemModel::rowsInserted, this, &LogPage::updateCount);
    connect(model_, &QAbstractItemModel::rowsRemoved, this, &LogPage::updateCount);
    connect(model_, &QAbstractItemModel::modelReset, this, &LogPage::updateCount);
    connect(proxy_, &QAbstractItemModel::layoutChanged, this, &LogPage::updateCount);
    updateCount();
}

void LogPage::scrollIfFollowing() {
    if (follow_->isChecked()) {
        view_->scrollToBottom();
    }
}

void LogPage::updateCount() {
    count_->setText(tr("%1 / %2 lines (cap %3)").arg(proxy_->rowCount()).arg(model_->rowCount()).arg(model_->cap()));
}

}  // namespace syncscope::ui
