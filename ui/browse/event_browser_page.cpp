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
#include <QtConcurrent/QtConcurrentRun>

#include "engine/browse/point_window.h"
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

QString imageText(const std::vector<std::string>& names, const std::vector<std::string>& values) {
    QStringList parts;
    for (size_t i = 0; i < values.size(); ++i) {
        parts.push_back(QString::fromStdString((i < names.size() ? names[i] : std::string("?")) + "=" + values[i]));
    }
    return parts.join(QStringLiteral(", "));
}

}  // namespace

EventBrowserPage::EventBrowserPage(QWidget* parent)
    : QWidget(parent), model_(new EventBrowserModel(this)), cancel_(std::make_shared<std::atomic<bool>>(false)) {
    qRegisterMetaType<task::ResumeTarget>();
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

    model_->setObjectName(QStringLiteral("eventBrowserModel"));
    tree_ = new QTreeView(this);
    tree_->setModel(model_);
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
    connect(&watcher_, &QFutureWatcher<browse::Page>::finished, this, &EventBrowserPage::onPageRead);
    connect(&checkWatcher_, &QFutureWatcher<RowCheckResult>::finished, this, &EventBrowserPage::onRowCheckRead);
    connect(checkRows_, &QPushButton::clicked, this, &EventBrowserPage::checkRows);
    connect(tree_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        showSelection();
        updateButtons();
    });
    connect(resumeHere_, &QPushButton::clicked, this, [this] { requestResume(false); });
    connect(resumeAfter_, &QPushButton::clicked, this, [this] { requestResume(true); });
    connect(stopAfter_, &QPushButton::clicked, this, [this] {
        if (const auto* trx = model_->transactionAt(tree_->currentIndex()); trx != nullptr && trx->complete) {
            emit stopAtRequested(QStringLiteral("%1:%2").arg(QString::fromStdString(trx->endFile)).arg(trx->endPos));
        }
    });
    updateButtons();
}

EventBrowserPage::~EventBrowserPage() {
    cancel_->store(true);
    watcher_.waitForFinished();
    checkWatcher_.waitForFinished();
}

void EventBrowserPage::setHistorySource(HistoryFactory factory, const QString& description) {
    factory_ = std::move(factory);
    source_->setText(tr("Binlog of %1").arg(description));
}

void EventBrowserPage::setRowCheckSource(RowCheckFactory factory, const QString& downstream) {
    rowCheckFactory_ = std::move(factory);
    checkedDownstream_ = downstream;
    updateButtons();
}

void EventBrowserPage::checkRows() {
    if (!rowCheckFactory_ || isBusy() || model_->transactionCount() == 0) {
        emit rowCheckShown();
        return;
    }
    std::vector<browse::BrowsedTransaction> transactions;
    transactions.reserve(model_->transactionCount());
    for (size_t i = 0; i < model_->transactionCount(); ++i) {
        browse::BrowsedTransaction trx = *model_->transactionAt(model_->index(static_cast<int>(i), 0));
        trx.events.clear();  // where it lies is enough
        transactions.push_back(std::move(trx));
    }
    go_->setEnabled(false);
    checkRows_->setEnabled(false);
    cancelButton_->setEnabled(true);
    status_->setText(tr("Checking the page's rows against %1...").arg(checkedDownstream_));
    // The worker holds copies only: the factory, the page's positions, its filter and the cancel flag.
    watcher_.waitForFinished();
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    checkWatcher_.setFuture(QtConcurrent::run([factory = rowCheckFactory_, transactions = std::move(transactions),
                                               filter = shownFilter_, cancel = cancel_]() -> RowCheckResult {
        RowCheckResult result;
        try {
            result.check = preview::checkPageRows(factory(), transactions, filter, cancel.get());
        } catch (const std::exception& e) {
            result.error = e.what();
        }
        return result;
    }));
}

void EventBrowserPage::onRowCheckRead() {
    RowCheckResult result = checkWatcher_.result();
    go_->setEnabled(true);
    cancelButton_->setEnabled(false);
    updateButtons();
    if (!result.check) {
        status_->setText(tr("<b>Rows not checked:</b> %1").arg(QString::fromStdString(result.error).toHtmlEscaped()));
        emit rowCheckShown();
        return;
    }
    const preview::PageRowCheck& check = *result.check;
    size_t equal = 0;
    size_t checked = 0;
    for (const auto& trx : check.transactions) {
        equal += trx.equal;
        checked += trx.checkedRows();
    }
    QString text = tr("%1 row(s) checked against %2 at their last change on this page: %3 equal, %4 not "
                      "(%5 binlog window(s), %6 events read).")
                       .arg(checked)
                       .arg(checkedDownstream_)
                       .arg(equal)
                       .arg(checked - equal)
                       .arg(check.windowsRead)
                       .arg(check.eventsRead);
    for (const auto& problem : check.problems) {
        text += QLatin1Char(' ') +
                tr("Not checked: %1: %2.")
                    .arg(QString::fromStdString(problem.table.text()), QString::fromStdString(problem.reason));
    }
    model_->setRowCheck(check.transactions);
    status_->setText(text.toHtmlEscaped());
    if (!key_->text().trimmed().isEmpty()) {
        showRowHistory();
    } else {
        showSelection();
    }
    emit rowCheckShown();
}

QString EventBrowserPage::downstreamOf(size_t transaction, const browse::BrowsedEvent& event,
                                       const browse::RowImages& row) const {
    if (const auto* check = model_->rowCheckAt(transaction)) {
        const std::string table = event.schema + "." + event.table;
        for (const auto& checked : check->rows) {
            if (checked.table == table && checked.key == row.keyText) {
                return QString::fromLatin1(verify::windowRowStateName(checked.state));
            }
        }
    }
    return model_->data(model_->index(static_cast<int>(transaction), EventBrowserModel::AppliedColumn)).toString();
}

void EventBrowserPage::setResumeEnabled(bool enabled) {
    resumeEnabled_ = enabled;
    updateButtons();
}

void EventBrowserPage::setAppliedPoint(const browse::BrowsePoint& applied) {
    if (applied == applied_) {
        return;  // the snapshot timer calls this several times a second
    }
    applied_ = applied;
    model_->setAppliedPoint(applied);
    showSelection();  // the rows pane's Downstream column follows too
}

bool EventBrowserPage::filterFromFields(browse::BrowseFilter& filter) {
    QString table = table_->text().trimmed();
    if (!table.isEmpty()) {
        qsizetype dot = table.indexOf('.');
        if (dot <= 0 || dot == table.size() - 1) {
            status_->setText(tr("Table '%1' is not db.table.").arg(table));
            return false;
        }
        filter.schema = table.left(dot).toStdString();
        filter.table = table.mid(dot + 1).toStdString();
    }
    QString operation = operation_->currentData().toString();
    if (!operation.isEmpty()) {
        filter.operations = {operation.toStdString()};
    }
    QString domain = domain_->text().trimmed();
    if (!domain.isEmpty()) {
        bool ok = false;
        uint value = domain.toUInt(&ok);
        if (!ok) {
            status_->setText(tr("GTID domain '%1' is not a number.").arg(domain));
            return false;
        }
        filter.gtidDomain = value;
    }
    QString key = key_->text().trimmed();
    if (!key.isEmpty()) {
        filter.keyValue = key.toStdString();
    }
    filter.rowImages = rowImages_->isChecked();
    return true;
}

void EventBrowserPage::openAt(const browse::BrowsePoint& point, const QString& why) {
    browse::PageRequest request;
    if (!filterFromFields(request.filter)) {
        emit pageShown();
        return;
    }
    request.around = point;
    from_->setText(QString::fromStdString(point.toString()));
    status_->setText(tr("Reading around %1 (%2)...").arg(QString::fromStdString(point.toString()), why));
    start(std::move(request));
}

void EventBrowserPage::openFrom(const QString& from) {
    browse::PageRequest request;
    if (!filterFromFields(request.filter)) {
        emit pageShown();
        return;
    }
    request.from = from.trimmed().toStdString();
    from_->setText(from.trimmed());
    status_->setText(from.trimmed().isEmpty() ? tr("Reading from the oldest binlog...")
                                              : tr("Reading from %1...").arg(from.trimmed()));
    start(std::move(request));
}

void EventBrowserPage::start(browse::PageRequest request) {
    if (!factory_) {
        status_->setText(tr("No binlog to browse: open a task first."));
        emit pageShown();
        return;
    }
    cancel();
    watcher_.waitForFinished();
    checkWatcher_.waitForFinished();
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    shownFilter_ = request.filter;
    go_->setEnabled(false);
    checkRows_->setEnabled(false);
    cancelButton_->setEnabled(true);
    // The worker holds copies only: the factory, the request and the cancel flag.
    watcher_.setFuture(
        QtConcurrent::run([factory = factory_, request = std::move(request), cancel = cancel_]() -> browse::Page {
            browse::Page page;
            try {
                auto history = factory();
                page = browse::readPage(*history, request, cancel.get());
                if (page.error.empty()) {
                    page.note += page.note.empty() ? "" : "; ";
                    page.note += "files: " + std::to_string(history->files().size());
                }
            } catch (const std::exception& e) {
                page.error = e.what();
            }
            return page;
        }));
}

void EventBrowserPage::cancel() {
    cancel_->store(true);
}

bool EventBrowserPage::isBusy() const {
    return watcher_.isRunning() || checkWatcher_.isRunning();
}

void EventBrowserPage::onPageRead() {
    browse::Page page = watcher_.result();
    go_->setEnabled(true);
    cancelButton_->setEnabled(false);
    if (!page.error.empty()) {
        status_->setText(tr("<b>Refused:</b> %1").arg(QString::fromStdString(page.error).toHtmlEscaped()));
        emit pageShown();
        return;
    }
    std::vector<binlog::BinlogFileSize> files;
    for (const auto& trx : page.transactions) {
        if (files.empty() || files.back().file != trx.file) {
            files.push_back({trx.file, 0});
        }
        if (files.back().file != trx.endFile) {
            files.push_back({trx.endFile, 0});
        }
    }
    files_ = files;
    // The From box says where the list starts (a page read around a point starts before it), so that
    // Go reads this page again.
    if (!page.transactions.empty()) {
        const auto& first = page.transactions.front();
        from_->setText(QStringLiteral("%1:%2").arg(QString::fromStdString(first.file)).arg(first.pos));
    }
    model_->setPage(std::move(page.transactions), page.target, files_);
    model_->setAppliedPoint(applied_);
    QString summary =
        tr("%n transaction(s) shown, %1 events read", nullptr, static_cast<int>(model_->transactionCount()))
            .arg(page.progress.eventsRead);
    if (page.cancelled) {
        summary += tr(" (cancelled)");
    }
    if (!page.note.empty()) {
        summary += QStringLiteral("; ") + QString::fromStdString(page.note);
    }
    status_->setText(summary.toHtmlEscaped());
    QModelIndex target = model_->targetIndex();
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
    emit pageShown();
}

void EventBrowserPage::showSelection() {
    rows_->setRowCount(0);
    QModelIndex current = tree_->currentIndex();
    const auto* trx = model_->transactionAt(current);
    if (trx == nullptr) {
        rowsTitle_->setText(tr("Rows"));
        return;
    }
    const auto* only = model_->eventAt(current);
    rowsTitle_->setText(only != nullptr ? tr("Rows of the event at %1:%2").arg(only->file.c_str()).arg(only->pos)
                                        : tr("Rows of the transaction at %1:%2").arg(trx->file.c_str()).arg(trx->pos));
    if (!key_->text().trimmed().isEmpty() && only == nullptr) {
        showRowHistory();
        return;
    }
    const int trxRow = current.parent().isValid() ? current.parent().row() : current.row();
    for (const auto& event : trx->events) {
        if (only != nullptr && &event != only) {
            continue;
        }
        for (const auto& row : event.rows) {
            for (const auto* image : {&row.before, &row.after}) {
                if (image->empty()) {
                    continue;
                }
                int at = rows_->rowCount();
                rows_->insertRow(at);
                rows_->setItem(at, RowsPosition,
                               new QTableWidgetItem(QStringLiteral("%1:%2").arg(event.file.c_str()).arg(event.pos)));
                rows_->setItem(at, RowsOperation,
                               new QTableWidgetItem(
                                   QString::fromStdString(event.schema + "." + event.table + " " + event.operation)));
                rows_->setItem(at, RowsImage, new QTableWidgetItem(image == &row.before ? tr("before") : tr("after")));
                rows_->setItem(at, RowsValues, new QTableWidgetItem(imageText(event.columnNames, *image)));
                rows_->setItem(at, RowsDownstream,
                               new QTableWidgetItem(downstreamOf(static_cast<size_t>(trxRow), event, row)));
            }
        }
    }
}

void EventBrowserPage::showRowHistory() {
    rows_->setRowCount(0);
    rowsTitle_->setText(
        tr("Row history of key %1: every change in this page, oldest first").arg(key_->text().trimmed()));
    for (size_t t = 0; t < model_->transactionCount(); ++t) {
        QModelIndex trxIndex = model_->index(static_cast<int>(t), 0);
        const auto* trx = model_->transactionAt(trxIndex);
        for (const auto& event : trx->events) {
            for (const auto& row : event.rows) {
                int at = rows_->rowCount();
                rows_->insertRow(at);
                rows_->setItem(at, RowsPosition,
                               new QTableWidgetItem(QStringLiteral("%1:%2").arg(event.file.c_str()).arg(event.pos)));
                rows_->setItem(at, RowsOperation,
                               new QTableWidgetItem(
                                   QString::fromStdString(event.schema + "." + event.table + " " + event.operation)));
                rows_->setItem(at, RowsImage, new QTableWidgetItem(tr("before -> after")));
                QString change = row.before.empty() ? tr("(none)") : imageText(event.columnNames, row.before);
                change += QStringLiteral("  ->  ") +
                          (row.after.empty() ? tr("(deleted)") : imageText(event.columnNames, row.after));
                rows_->setItem(at, RowsValues, new QTableWidgetItem(change));
                rows_->setItem(at, RowsDownstream, new QTableWidgetItem(downstreamOf(t, event, row)));
            }
        }
    }
}

void EventBrowserPage::updateButtons() {
    const auto* trx = model_->transactionAt(tree_->currentIndex());
    bool boundary = trx != nullptr && !trx->isMarker;
    resumeHere_->setEnabled(resumeEnabled_ && boundary);
    resumeAfter_->setEnabled(resumeEnabled_ && boundary && trx->complete);
    stopAfter_->setEnabled(resumeEnabled_ && boundary && trx->complete);
    checkRows_->setEnabled(rowCheckFactory_ != nullptr && model_->transactionCount() > 0 && !isBusy());
}

void EventBrowserPage::showRefusal(const QString& text) {
    status_->setText(QStringLiteral("<b>%1</b>").arg(text.toHtmlEscaped()));
}

void EventBrowserPage::requestResume(bool afterIt) {
    const auto* trx = model_->transactionAt(tree_->currentIndex());
    if (trx == nullptr || trx->isMarker) {
        return;
    }
    task::ResumeTarget target;
    target.file = afterIt ? trx->endFile : trx->file;
    target.pos = afterIt ? trx->endPos : trx->pos;
    QString what =
        QString::fromStdString(trx->gtid.empty() ? std::string("the transaction") : "transaction " + trx->gtid);
    QString description =
        afterIt ? tr("after %1 (it is skipped)").arg(what) : tr("from the start of %1 (the task applies it)").arg(what);
    emit resumeFromRequested(target, description);
}

}  // namespace syncscope::ui
