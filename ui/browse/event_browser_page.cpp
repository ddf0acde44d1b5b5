#include "ui/browse/event_browser_page.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QTreeView>
#include <QVBoxLayout>

#include "ui/models/event_browser_model.h"

namespace syncscope::ui {

namespace {

constexpr int kTreeHeight = 420;
constexpr int kRowsHeight = 180;
constexpr int kPositionWidth = 230;
constexpr int kTimeWidth = 140;
constexpr int kGtidWidth = 90;
constexpr int kTypeWidth = 200;
constexpr int kTableWidth = 220;
constexpr int kRowsColumnWidth = 50;
constexpr int kDomainWidth = 60;

enum RowsColumn { RowsPosition, RowsOperation, RowsImage, RowsValues, RowsDownstream, RowsColumnCount };

}  // namespace

EventBrowserPage::EventBrowserPage(QWidget* parent) : QWidget(parent), controller_(new EventBrowserController(this)) {
    source_ = new QLabel(tr("No binlog to browse: open a task first."), this);
    source_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    from_ = new QLineEdit(this);
    from_->setPlaceholderText(tr("FILE:POS, GTID position or YYYY-MM-DD HH:MM:SS (empty: the oldest binlog)"));
    from_->setToolTip(
        tr("Where to start: a transaction boundary, after a GTID position, or the first transaction at "
           "or after a time (local time)"));
    from_->setClearButtonEnabled(true);
    go_ = new QPushButton(tr("&Go"), this);
    go_->setDefault(true);
    go_->setToolTip(tr("Read a page of transactions from this point with the filters below"));
    cancelButton_ = new QPushButton(tr("Cancel"), this);
    cancelButton_->setToolTip(tr("Stop reading; what was read so far is kept"));
    cancelButton_->setEnabled(false);

    table_ = new QLineEdit(this);
    table_->setPlaceholderText(tr("db.table"));
    table_->setToolTip(tr("Only events of this table (and DDL naming it)"));
    table_->setClearButtonEnabled(true);
    operation_ = new QComboBox(this);
    operation_->addItem(tr("any operation"), QString());
    for (const char* op : {"insert", "update", "delete", "ddl"}) {
        operation_->addItem(QString::fromLatin1(op), QString::fromLatin1(op));
    }
    operation_->setToolTip(tr("Only events of this operation"));
    domain_ = new QLineEdit(this);
    domain_->setPlaceholderText(tr("domain"));
    domain_->setToolTip(tr("Only transactions of this MariaDB GTID domain"));
    domain_->setMaximumWidth(kDomainWidth);
    key_ = new QLineEdit(this);
    key_->setPlaceholderText(tr("key value, e.g. 42 or 7,2026-01-02"));
    key_->setToolTip(
        tr("Row history: every change of the row with this primary key (comma-separated for a "
           "composite key), its before and after images and whether it is applied downstream yet"));
    key_->setClearButtonEnabled(true);
    rowImages_ = new QCheckBox(tr("Row &images"), this);
    rowImages_->setToolTip(tr("Decode every row of the page (row history always does)"));
    rowImages_->setChecked(true);

    tree_ = new QTreeView(this);
    tree_->setModel(controller_->model());
    tree_->setUniformRowHeights(true);
    tree_->setAlternatingRowColors(true);
    tree_->setSelectionBehavior(QAbstractItemView::SelectRows);
    tree_->setMinimumHeight(kTreeHeight);
    tree_->setColumnWidth(EventBrowserModel::PositionColumn, kPositionWidth);
    tree_->setColumnWidth(EventBrowserModel::TimeColumn, kTimeWidth);
    tree_->setColumnWidth(EventBrowserModel::GtidColumn, kGtidWidth);
    tree_->setColumnWidth(EventBrowserModel::TypeColumn, kTypeWidth);
    tree_->setColumnWidth(EventBrowserModel::TableColumn, kTableWidth);
    tree_->setColumnWidth(EventBrowserModel::RowsColumn, kRowsColumnWidth);

    rowsTitle_ = new QLabel(tr("Rows"), this);
    rows_ = new QTableWidget(0, RowsColumnCount, this);
    rows_->setHorizontalHeaderLabels({tr("Position"), tr("Operation"), tr("Image"), tr("Values"), tr("Downstream")});
    rows_->horizontalHeader()->setSectionResizeMode(RowsValues, QHeaderView::Stretch);
    rows_->setColumnWidth(RowsPosition, kPositionWidth);
    rows_->setColumnWidth(RowsOperation, kTableWidth);
    rows_->setWordWrap(false);
    rows_->verticalHeader()->hide();
    rows_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    rows_->setMinimumHeight(kRowsHeight);

    status_ = new QLabel(this);
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    resumeHere_ = new QPushButton(tr("&Resume from here"), this);
    resumeHere_->setToolTip(
        tr("Resume the task from the start of the selected transaction: it and everything after "
           "it is applied again (in safe mode)"));
    resumeAfter_ = new QPushButton(tr("Resume &after it"), this);
    resumeAfter_->setToolTip(tr("Resume the task from the end of the selected transaction: it is skipped"));
    checkRows_ = new QPushButton(tr("&Check rows downstream"), this);
    checkRows_->setToolTip(
        tr("Check every row of this page against the downstream, at its last change on the page: already there "
           "and equal, missing, different, or deleted but still there"));
    stopAfter_ = new QPushButton(tr("&Pause the task after it"), this);
    stopAfter_->setToolTip(
        tr("The running task pauses by itself at the end of the selected transaction (stop at a "
           "point, like START SLAVE UNTIL)"));

    auto* fromRow = new QHBoxLayout;
    fromRow->addWidget(new QLabel(tr("From:"), this));
    fromRow->addWidget(from_, 1);
    fromRow->addWidget(go_);
    fromRow->addWidget(cancelButton_);
    auto* filterRow = new QHBoxLayout;
    filterRow->addWidget(new QLabel(tr("Table:"), this));
    filterRow->addWidget(table_, 1);
    filterRow->addWidget(operation_);
    filterRow->addWidget(new QLabel(tr("GTID domain:"), this));
    filterRow->addWidget(domain_);
    filterRow->addWidget(new QLabel(tr("Key:"), this));
    filterRow->addWidget(key_, 1);
    filterRow->addWidget(rowImages_);
    auto* rowsBox = new QWidget(this);
    auto* rowsLayout = new QVBoxLayout(rowsBox);
    rowsLayout->setContentsMargins(0, 0, 0, 0);
    rowsLayout->addWidget(rowsTitle_);
    rowsLayout->addWidget(rows_);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(tree_);
    splitter->addWidget(rowsBox);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    auto* buttonRow = new QHBoxLayout;
    buttonRow->addWidget(checkRows_);
    buttonRow->addStretch(1);
    buttonRow->addWidget(resumeHere_);
    buttonRow->addWidget(resumeAfter_);
    buttonRow->addWidget(stopAfter_);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(source_);
    layout->addLayout(fromRow);
    layout->addLayout(filterRow);
    layout->addWidget(splitter, 1);
    layout->addWidget(status_);
    layout->addLayout(buttonRow);

    connect(go_, &QPushButton::clicked, this, [this] { openFrom(from_->text()); });
    connect(from_, &QLineEdit::returnPressed, this, [this] { openFrom(from_->text()); });
    connect(cancelButton_, &QPushButton::clicked, this, &EventBrowserPage::cancel);
    connect(checkRows_, &QPushButton::clicked, this, &EventBrowserPage::checkRows);
    connect(tree_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        showSelection();
        updateButtons();
    });
    connect(resumeHere_, &QPushButton::clicked, this,
            [this] { controller_->requestResume(tree_->currentIndex(), false); });
    connect(resumeAfter_, &QPushButton::clicked, this,
            [this] { controller_->requestResume(tree_->currentIndex(), true); });
    connect(stopAfter_, &QPushButton::clicked, this, [this] { controller_->requestStopAfter(tree_->currentIndex()); });

    connect(controller_, &EventBrowserController::statusChanged, status_, &QLabel::setText);
    connect(controller_, &EventBrowserController::fromChanged, from_, &QLineEdit::setText);
    connect(controller_, &EventBrowserController::readStarted, this, [this] {
        go_->setEnabled(false);
        checkRows_->setEnabled(false);
        cancelButton_->setEnabled(true);
    });
    connect(controller_, &EventBrowserController::readFinished, this, [this] {
        go_->setEnabled(true);
        cancelButton_->setEnabled(false);
    });
    connect(controller_, &EventBrowserController::pageShown, this, &EventBrowserPage::onPageShown);
    connect(controller_, &EventBrowserController::rowCheckShown, this, &EventBrowserPage::onRowCheckShown);
    connect(controller_, &EventBrowserController::resumeFromRequested, this, &EventBrowserPage::resumeFromRequested);
    connect(controller_, &EventBrowserController::stopAtRequested, this, &EventBrowserPage::stopAtRequested);
    updateButtons();
}

void EventBrowserPage::setHistorySource(HistoryFactory factory, const QString& description) {
    const bool none = !factory;
    controller_->setHistorySource(std::move(factory));
    source_->setText(none ? tr("No binlog to browse: the channel shown has no source file here; open the task's "
                               "files to browse its upstream.")
                          : tr("Binlog of %1").arg(description));
}

void EventBrowserPage::setOnlineDdlRules(std::shared_ptr<const filter::OnlineDdlRules> rules) {
    controller_->model()->setOnlineDdlRules(std::move(rules));
}

void EventBrowserPage::setRowCheckSource(RowCheckFactory factory, const QString& downstream) {
    controller_->setRowCheckSource(std::move(factory), downstream);
    updateButtons();
}

void EventBrowserPage::checkRows() {
    if (!controller_->checkRows()) {
        emit rowCheckShown();
    }
}

void EventBrowserPage::setResumeEnabled(bool enabled) {
    controller_->setResumeEnabled(enabled);
    updateButtons();
}

void EventBrowserPage::setAppliedPoint(const browse::BrowsePoint& applied) {
    if (controller_->setAppliedPoint(applied)) {
        showSelection();  // the rows pane's Downstream column follows too
    }
}

EventBrowserController::FilterFields EventBrowserPage::filterFields() const {
    return {table_->text(), operation_->currentData().toString(), domain_->text(), key_->text(),
            rowImages_->isChecked()};
}

void EventBrowserPage::openAt(const browse::BrowsePoint& point, const QString& why) {
    controller_->openAt(point, why, filterFields());
}

void EventBrowserPage::openFrom(const QString& from) {
    controller_->openFrom(from, filterFields());
}

void EventBrowserPage::cancel() {
    controller_->cancel();
}

bool EventBrowserPage::isBusy() const {
    return controller_->isBusy();
}

void EventBrowserPage::onPageShown(bool listed) {
    if (listed) {
        const QModelIndex target = controller_->model()->targetIndex();
        if (target.isValid()) {
            tree_->setCurrentIndex(target);
            tree_->expand(target);
            tree_->scrollTo(target, QAbstractItemView::PositionAtCenter);
        }
        if (!key_->text().trimmed().isEmpty()) {
            showRowHistory();
        } else {
            showSelection();
        }
        updateButtons();
    }
    emit pageShown();
}

void EventBrowserPage::onRowCheckShown(bool checked) {
    updateButtons();
    if (checked) {
        if (!key_->text().trimmed().isEmpty()) {
            showRowHistory();
        } else {
            showSelection();
        }
    }
    emit rowCheckShown();
}

void EventBrowserPage::showSelection() {
    showRows(controller_->selectionRows(tree_->currentIndex(), key_->text()));
}

void EventBrowserPage::showRowHistory() {
    showRows(controller_->rowHistory(key_->text()));
}

void EventBrowserPage::showRows(const EventBrowserController::RowsPane& pane) {
    rows_->setRowCount(0);
    rowsTitle_->setText(pane.title);
    for (const EventBrowserController::RowLine& line : pane.lines) {
        const int at = rows_->rowCount();
        rows_->insertRow(at);
        rows_->setItem(at, RowsPosition, new QTableWidgetItem(line.position));
        rows_->setItem(at, RowsOperation, new QTableWidgetItem(line.operation));
        rows_->setItem(at, RowsImage, new QTableWidgetItem(line.image));
        rows_->setItem(at, RowsValues, new QTableWidgetItem(line.values));
        rows_->setItem(at, RowsDownstream, new QTableWidgetItem(line.downstream));
    }
}

void EventBrowserPage::updateButtons() {
    const EventBrowserController::Offers offers = controller_->offersAt(tree_->currentIndex());
    resumeHere_->setEnabled(offers.resumeHere);
    resumeAfter_->setEnabled(offers.resumeAfter);
    stopAfter_->setEnabled(offers.stopAfter);
    checkRows_->setEnabled(offers.checkRows);
}

void EventBrowserPage::showRefusal(const QString& text) {
    status_->setText(QStringLiteral("<b>%1</b>").arg(text.toHtmlEscaped()));
}

}  // namespace syncscope::ui
