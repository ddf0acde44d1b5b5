#include "ui/overview/overview_page.h"

#include <algorithm>

#include <QCheckBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/fleet/fleet_filter_proxy.h"
#include "ui/fleet/fleet_model.h"
#include "ui/fleet/notification_center.h"
#include "ui/models/recent_tasks.h"

namespace syncscope::ui {

namespace {
constexpr int kStartButtonWidth = 260;
constexpr int kChannelColumnWidth = 220;
constexpr int kErrorColumnWidth = 360;
constexpr int kNotificationRowsShown = 5;
}  // namespace

OverviewPage::OverviewPage(FleetModel* model, NotificationLogModel* log, QWidget* parent)
    : QWidget(parent), model_(model), proxy_(new FleetFilterProxy(this)) {
    proxy_->setSourceModel(model_);
    stack_ = new QStackedWidget(this);
    startArea_ = makeStartArea();
    channelArea_ = makeChannelArea(log);
    stack_->addWidget(startArea_);
    stack_->addWidget(channelArea_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(stack_);
    connect(model_, &QAbstractItemModel::modelReset, this, &OverviewPage::updateState);
    connect(model_, &FleetModel::groupsChanged, this, &OverviewPage::updateState);
    connect(model_, &QAbstractItemModel::rowsInserted, this, &OverviewPage::updateState);
    connect(model_, &QAbstractItemModel::rowsRemoved, this, &OverviewPage::updateState);
    updateState();
}

QWidget* OverviewPage::makeStartArea() {
    auto* area = new QWidget(this);
    auto* layout = new QVBoxLayout(area);
    layout->addStretch();
    auto* title = new QLabel(tr("<h2>SyncScope</h2><p>No channel is open.</p>"
                                "<p>Watch DM tasks run here, SyncScope engines on other machines, MariaDB's "
                                "own replicas and DM clusters, side by side.</p>"),
                             area);
    title->setAlignment(Qt::AlignCenter);
    title->setWordWrap(true);
    layout->addWidget(title);
    auto addButton = [&](const QString& text, const QString& tip, void (OverviewPage::*signal)()) {
        auto* button = new QPushButton(text, area);
        button->setToolTip(tip);
        button->setFixedWidth(kStartButtonWidth);
        connect(button, &QPushButton::clicked, this, signal);
        layout->addWidget(button, 0, Qt::AlignHCenter);
    };
    addButton(tr("New task..."), tr("Write a DM task file after testing both connections"),
              &OverviewPage::newTaskRequested);
    addButton(tr("Open task..."), tr("Open a DM task file and its source file"), &OverviewPage::openTaskRequested);
    addButton(tr("Add remote engine..."), tr("A `syncscope-cli run --listen` on another machine, by address"),
              &OverviewPage::addRemoteRequested);
    addButton(tr("Add replica..."), tr("A MariaDB replica server: its channels from SHOW ALL SLAVES STATUS"),
              &OverviewPage::addReplicaRequested);
    addButton(tr("Add DM cluster..."), tr("A TiDB DM cluster by its dm-masters: its tasks through DM's OpenAPI"),
              &OverviewPage::addDmClusterRequested);
    addButton(tr("Inspect checkpoints..."), tr("Read any checkpoint table read-only and flag what a resume skips"),
              &OverviewPage::inspectRequested);
    auto* recentTitle = new QLabel(tr("Recent tasks"), area);
    recentTitle->setAlignment(Qt::AlignCenter);
    layout->addWidget(recentTitle);
    recent_ = new QListWidget(area);
    recent_->setFixedWidth(kStartButtonWidth * 2);
    recent_->setMaximumHeight(kStartButtonWidth / 2);
    recent_->setToolTip(tr("Double-click to open"));
    layout->addWidget(recent_, 0, Qt::AlignHCenter);
    connect(recent_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        const QList<RecentTask> tasks = recentTasksOf({item->data(Qt::UserRole).toString()});
        if (!tasks.isEmpty()) {
            emit recentTaskRequested(tasks.front().taskPath, tasks.front().sourcePath);
        }
    });
    layout->addStretch();
    return area;
}

QWidget* OverviewPage::makeChannelArea(NotificationLogModel* log) {
    auto* area = new QWidget(this);
    auto* layout = new QVBoxLayout(area);
    auto* bar = new QHBoxLayout();
    filter_ = new QLineEdit(area);
    filter_->setPlaceholderText(tr("Filter channels (name, kind, stage, error, host)"));
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, proxy_, &FleetFilterProxy::setText);
    onlyProblems_ = new QCheckBox(tr("Only problems"), area);
    onlyProblems_->setToolTip(tr("Show only failed, lost and flagged channels"));
    connect(onlyProblems_, &QCheckBox::toggled, proxy_, &FleetFilterProxy::setOnlyProblems);
    pauseSelected_ = new QPushButton(tr("Pause selected"), area);
    pauseSelected_->setToolTip(tr("Pause every selected running channel, after one confirmation"));
    resumeSelected_ = new QPushButton(tr("Resume selected"), area);
    resumeSelected_->setToolTip(tr("Resume every selected paused or failed channel, after one confirmation"));
    connect(pauseSelected_, &QPushButton::clicked, this,
            [this] { emit batchRequested(BatchCommand::Pause, selectedSourceRows()); });
    connect(resumeSelected_, &QPushButton::clicked, this,
            [this] { emit batchRequested(BatchCommand::Resume, selectedSourceRows()); });
    bar->addWidget(filter_, 1);
    bar->addWidget(onlyProblems_);
    bar->addWidget(pauseSelected_);
    bar->addWidget(resumeSelected_);
    layout->addLayout(bar);

    auto* splitter = new QSplitter(Qt::Vertical, area);
    table_ = new QTableView(splitter);
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(FleetModel::ChannelColumn, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setColumnWidth(FleetModel::ChannelColumn, kChannelColumnWidth);
    table_->setColumnWidth(FleetModel::LastErrorColumn, kErrorColumnWidth);
    table_->setToolTip(tr("Double-click a channel to open its view"));
    connect(table_, &QTableView::activated, this,
            [this](const QModelIndex& index) { emit channelActivated(proxy_->mapToSource(index).row()); });
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &OverviewPage::updateState);
    table_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(table_, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        const QModelIndex index = table_->indexAt(at);
        if (!index.isValid()) {
            return;
        }
        const int row = proxy_->mapToSource(index).row();
        QMenu menu(this);
        menu.addAction(tr("Open"), this, [this, row] { emit channelActivated(row); });
        menu.addAction(tr("Notifications..."), this, [this, row] { emit notificationSettingsRequested(row); });
        const QList<DmCommand> commands = dmCommandsOf(model_->rowAt(row));
        if (!commands.isEmpty()) {
            menu.addSeparator();
        }
        for (DmCommand command : commands) {
            menu.addAction(dmCommandName(command, model_->rowAt(row)), this,
                           [this, row, command] { emit dmCommandRequested(row, command); });
        }
        menu.addSeparator();
        menu.addAction(tr("Remove from workspace..."), this, [this, row] { emit removeRequested(row); });
        menu.exec(table_->viewport()->mapToGlobal(at));
    });

    notifications_ = new QTableView(splitter);
    notifications_->setModel(log);
    notifications_->verticalHeader()->hide();
    notifications_->horizontalHeader()->setStretchLastSection(true);
    notifications_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    notifications_->setToolTip(tr("Notifications: failures, lag above the threshold, checkpoint anomalies"));
    notifications_->setMinimumHeight(notifications_->verticalHeader()->defaultSectionSize() * kNotificationRowsShown);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    layout->addWidget(splitter, 1);
    return area;
}

void OverviewPage::setRecentTasks(const QStringList& entries) {
    recent_->clear();
    for (const RecentTask& task : recentTasksOf(entries)) {
        auto* item = new QListWidgetItem(task.label, recent_);
        item->setToolTip(task.toolTip);
        item->setData(Qt::UserRole, task.entry);
    }
}

bool OverviewPage::showingStartArea() const {
    return stack_->currentWidget() == startArea_;
}

QList<int> OverviewPage::selectedSourceRows() const {
    QList<int> rows;
    for (const QModelIndex& index : table_->selectionModel()->selectedRows()) {
        rows.append(proxy_->mapToSource(index).row());
    }
    std::sort(rows.begin(), rows.end());
    return rows;
}

void OverviewPage::updateState() {
    stack_->setCurrentWidget(model_->groupCount() == 0 ? startArea_ : channelArea_);
    const bool selected = table_->selectionModel() && table_->selectionModel()->hasSelection();
    pauseSelected_->setEnabled(selected);
    resumeSelected_->setEnabled(selected);
}

}  // namespace syncscope::ui
