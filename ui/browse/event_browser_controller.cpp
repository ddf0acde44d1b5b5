#include "ui/browse/event_browser_controller.h"

#include <QStringList>
#include <QtConcurrent/QtConcurrentRun>

#include "engine/browse/point_window.h"
#include "ui/models/event_browser_model.h"

namespace syncscope::ui {

namespace {

QString imageText(const std::vector<std::string>& names, const std::vector<std::string>& values) {
    QStringList parts;
    for (size_t i = 0; i < values.size(); ++i) {
        parts.push_back(QString::fromStdString((i < names.size() ? names[i] : std::string("?")) + "=" + values[i]));
    }
    return parts.join(QStringLiteral(", "));
}

QString positionText(const browse::BrowsedEvent& event) {
    return QStringLiteral("%1:%2").arg(event.file.c_str()).arg(event.pos);
}

QString operationText(const browse::BrowsedEvent& event) {
    return QString::fromStdString(event.schema + "." + event.table + " " + event.operation);
}

}  // namespace

EventBrowserController::EventBrowserController(QObject* parent)
    : QObject(parent), model_(new EventBrowserModel(this)), cancel_(std::make_shared<std::atomic<bool>>(false)) {
    qRegisterMetaType<task::ResumeTarget>();
    model_->setObjectName(QStringLiteral("eventBrowserModel"));
    connect(&watcher_, &QFutureWatcher<browse::Page>::finished, this, &EventBrowserController::onPageRead);
    connect(&checkWatcher_, &QFutureWatcher<RowCheckResult>::finished, this, &EventBrowserController::onRowCheckRead);
}

EventBrowserController::~EventBrowserController() {
    cancel_->store(true);
    watcher_.waitForFinished();
    checkWatcher_.waitForFinished();
}

void EventBrowserController::setHistorySource(HistoryFactory factory) {
    factory_ = std::move(factory);
}

void EventBrowserController::setRowCheckSource(RowCheckFactory factory, const QString& downstream) {
    rowCheckFactory_ = std::move(factory);
    checkedDownstream_ = downstream;
}

void EventBrowserController::setResumeEnabled(bool enabled) {
    resumeEnabled_ = enabled;
}

bool EventBrowserController::setAppliedPoint(const browse::BrowsePoint& applied) {
    if (applied == applied_) {
        return false;  // the snapshot timer calls this several times a second
    }
    applied_ = applied;
    model_->setAppliedPoint(applied);
    return true;
}

bool EventBrowserController::filterFrom(const FilterFields& fields, browse::BrowseFilter& filter) {
    const QString table = fields.table.trimmed();
    if (!table.isEmpty()) {
        const qsizetype dot = table.indexOf('.');
        if (dot <= 0 || dot == table.size() - 1) {
            emit statusChanged(tr("Table '%1' is not db.table.").arg(table));
            return false;
        }
        filter.schema = table.left(dot).toStdString();
        filter.table = table.mid(dot + 1).toStdString();
    }
    if (!fields.operation.isEmpty()) {
        filter.operations = {fields.operation.toStdString()};
    }
    const QString domain = fields.domain.trimmed();
    if (!domain.isEmpty()) {
        bool ok = false;
        const uint value = domain.toUInt(&ok);
        if (!ok) {
            emit statusChanged(tr("GTID domain '%1' is not a number.").arg(domain));
            return false;
        }
        filter.gtidDomain = value;
    }
    const QString key = fields.key.trimmed();
    if (!key.isEmpty()) {
        filter.keyValue = key.toStdString();
    }
    filter.rowImages = fields.rowImages;
    return true;
}

void EventBrowserController::openAt(const browse::BrowsePoint& point, const QString& why, const FilterFields& fields) {
    browse::PageRequest request;
    if (!filterFrom(fields, request.filter)) {
        emit pageShown(false);
        return;
    }
    request.around = point;
    emit fromChanged(QString::fromStdString(point.toString()));
    emit statusChanged(tr("Reading around %1 (%2)...").arg(QString::fromStdString(point.toString()), why));
    start(std::move(request));
}

void EventBrowserController::openFrom(const QString& from, const FilterFields& fields) {
    browse::PageRequest request;
    if (!filterFrom(fields, request.filter)) {
        emit pageShown(false);
        return;
    }
    const QString trimmed = from.trimmed();
    request.from = trimmed.toStdString();
    emit fromChanged(trimmed);
    emit statusChanged(trimmed.isEmpty() ? tr("Reading from the oldest binlog...")
                                         : tr("Reading from %1...").arg(trimmed));
    start(std::move(request));
}

void EventBrowserController::start(browse::PageRequest request) {
    if (!factory_) {
        emit statusChanged(
            tr("No binlog to browse: the channel shown has no source file here; open the task's files to browse "
               "its upstream."));
        emit pageShown(false);
        return;
    }
    cancel();
    watcher_.waitForFinished();
    checkWatcher_.waitForFinished();
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    shownFilter_ = request.filter;
    emit readStarted();
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

void EventBrowserController::cancel() {
    cancel_->store(true);
}

bool EventBrowserController::isBusy() const {
    return watcher_.isRunning() || checkWatcher_.isRunning();
}

void EventBrowserController::onPageRead() {
    browse::Page page = watcher_.result();
    emit readFinished();
    if (!page.error.empty()) {
        emit statusChanged(tr("<b>Refused:</b> %1").arg(QString::fromStdString(page.error).toHtmlEscaped()));
        emit pageShown(false);
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
        emit fromChanged(QStringLiteral("%1:%2").arg(QString::fromStdString(first.file)).arg(first.pos));
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
    emit statusChanged(summary.toHtmlEscaped());
    emit pageShown(true);
}

bool EventBrowserController::checkRows() {
    if (!rowCheckFactory_ || isBusy() || model_->transactionCount() == 0) {
        return false;
    }
    std::vector<browse::BrowsedTransaction> transactions;
    transactions.reserve(model_->transactionCount());
    for (size_t i = 0; i < model_->transactionCount(); ++i) {
        browse::BrowsedTransaction trx = *model_->transactionAt(model_->index(static_cast<int>(i), 0));
        trx.events.clear();  // where it lies is enough
        transactions.push_back(std::move(trx));
    }
    emit readStarted();
    emit statusChanged(tr("Checking the page's rows against %1...").arg(checkedDownstream_));
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
    return true;
}

void EventBrowserController::onRowCheckRead() {
    RowCheckResult result = checkWatcher_.result();
    emit readFinished();
    if (!result.check) {
        emit statusChanged(tr("<b>Rows not checked:</b> %1").arg(QString::fromStdString(result.error).toHtmlEscaped()));
        emit rowCheckShown(false);
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
    emit statusChanged(text.toHtmlEscaped());
    emit rowCheckShown(true);
}

QString EventBrowserController::downstreamOf(size_t transaction, const browse::BrowsedEvent& event,
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

EventBrowserController::Offers EventBrowserController::offersAt(const QModelIndex& current) const {
    const auto* trx = model_->transactionAt(current);
    const bool boundary = trx != nullptr && !trx->isMarker;
    Offers offers;
    offers.resumeHere = resumeEnabled_ && boundary;
    offers.resumeAfter = resumeEnabled_ && boundary && trx->complete;
    offers.stopAfter = offers.resumeAfter;
    offers.checkRows = rowCheckFactory_ != nullptr && model_->transactionCount() > 0 && !isBusy();
    return offers;
}

EventBrowserController::RowsPane EventBrowserController::selectionRows(const QModelIndex& current,
                                                                       const QString& key) const {
    RowsPane pane;
    const auto* trx = model_->transactionAt(current);
    if (trx == nullptr) {
        pane.title = tr("Rows");
        return pane;
    }
    const auto* only = model_->eventAt(current);
    if (!key.trimmed().isEmpty() && only == nullptr) {
        return rowHistory(key);
    }
    pane.title = only != nullptr ? tr("Rows of the event at %1:%2").arg(only->file.c_str()).arg(only->pos)
                                 : tr("Rows of the transaction at %1:%2").arg(trx->file.c_str()).arg(trx->pos);
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
                pane.lines.push_back(
                    {positionText(event), operationText(event), image == &row.before ? tr("before") : tr("after"),
                     imageText(event.columnNames, *image), downstreamOf(static_cast<size_t>(trxRow), event, row)});
            }
        }
    }
    return pane;
}

EventBrowserController::RowsPane EventBrowserController::rowHistory(const QString& key) const {
    RowsPane pane;
    pane.title = tr("Row history of key %1: every change in this page, oldest first").arg(key.trimmed());
    for (size_t t = 0; t < model_->transactionCount(); ++t) {
        const auto* trx = model_->transactionAt(model_->index(static_cast<int>(t), 0));
        for (const auto& event : trx->events) {
            for (const auto& row : event.rows) {
                QString change = row.before.empty() ? tr("(none)") : imageText(event.columnNames, row.before);
                change += QStringLiteral("  ->  ") +
                          (row.after.empty() ? tr("(deleted)") : imageText(event.columnNames, row.after));
                pane.lines.push_back({positionText(event), operationText(event), tr("before -> after"), change,
                                      downstreamOf(t, event, row)});
            }
        }
    }
    return pane;
}

void EventBrowserController::requestResume(const QModelIndex& current, bool afterIt) {
    const auto* trx = model_->transactionAt(current);
    if (trx == nullptr || trx->isMarker) {
        return;
    }
    task::ResumeTarget target;
    target.file = afterIt ? trx->endFile : trx->file;
    target.pos = afterIt ? trx->endPos : trx->pos;
    const QString what =
        QString::fromStdString(trx->gtid.empty() ? std::string("the transaction") : "transaction " + trx->gtid);
    const QString description =
        afterIt ? tr("after %1 (it is skipped)").arg(what) : tr("from the start of %1 (the task applies it)").arg(what);
    emit resumeFromRequested(target, description);
}

void EventBrowserController::requestStopAfter(const QModelIndex& current) {
    if (const auto* trx = model_->transactionAt(current); trx != nullptr && trx->complete) {
        emit stopAtRequested(QStringLiteral("%1:%2").arg(QString::fromStdString(trx->endFile)).arg(trx->endPos));
    }
}

}  // namespace syncscope::ui
