#include "ui/inspect/checkpoint_inspection_page.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "engine/apply/downstream_connection.h"
#include "engine/common/state_directory.h"
#include "engine/source/upstream_connection.h"
#include "ui/inspect/checkpoint_inspection_model.h"
#include "ui/inspect/inspection_connection_dialog.h"
#include "ui/inspect/inspection_filter_proxy.h"
#include "ui/inspect/skip_window_dialog.h"

namespace syncscope::ui {

namespace {
constexpr int kTableHeight = 480;
constexpr int kDetailsHeight = 200;

// "1 anomaly", "2 anomalies".
QString counted(qsizetype count, const QString& one, const QString& many) {
    return QStringLiteral("%1 %2").arg(count).arg(count == 1 ? one : many);
}
}  // namespace

InspectionOutcome runInspection(const inspect::InspectionRequest& request) {
    InspectionOutcome outcome;
    try {
        outcome.report = inspect::inspectCheckpoints(request);
    } catch (const source::UpstreamError& e) {
        outcome.error = QCoreApplication::translate("CheckpointInspectionPage", "Upstream: %1").arg(e.what());
    } catch (const apply::DownstreamError& e) {
        outcome.error = QCoreApplication::translate("CheckpointInspectionPage", "Downstream: %1").arg(e.what());
    } catch (const std::exception& e) {
        outcome.error = QString::fromUtf8(e.what());
    }
    return outcome;
}

CheckpointInspectionPage::CheckpointInspectionPage(QWidget* parent)
    : QWidget(parent), model_(new CheckpointInspectionModel(this)), proxy_(new InspectionFilterProxy(this)) {
    proxy_->setSourceModel(model_);

    summary_ =
        new QLabel(tr("Not connected. Choose <b>Connect...</b> to read a downstream's checkpoint tables."), this);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    connect_ = new QPushButton(tr("&Connect..."), this);
    connect_->setToolTip(tr("Choose a downstream (and optionally its upstream) and read its checkpoint tables"));
    refresh_ = new QPushButton(tr("&Refresh"), this);
    refresh_->setToolTip(tr("Read the same checkpoint tables again (F5)"));
    refresh_->setShortcut(QKeySequence::Refresh);
    refresh_->setEnabled(false);
    onlyAnomalies_ = new QCheckBox(tr("Only &anomalies"), this);
    onlyAnomalies_->setToolTip(tr("Show only points that are flagged"));
    search_ = new QLineEdit(this);
    search_->setPlaceholderText(tr("Filter task, source or table"));
    search_->setToolTip(tr("Show only rows whose task, source-id or schema.table contains this text"));
    search_->setClearButtonEnabled(true);
    copy_ = new QPushButton(tr("C&opy"), this);
    copy_->setToolTip(tr("Copy the visible rows as tab-separated text"));
    verifyWindow_ = new QPushButton(tr("&Verify window…"), this);
    verifyWindow_->setToolTip(
        tr("For a table point ahead of its global point: decode the upstream's binlog between the two points and "
           "check each row changed there against the downstream (needs the upstream)"));
    verifyWindow_->setEnabled(false);
    browseWindow_ = new QPushButton(tr("&Browse window…"), this);
    browseWindow_->setToolTip(
        tr("For a table point ahead of its global point: page through the upstream's binlog from the global point, "
           "filtered to that table, in the event browser (needs the upstream)"));
    browseWindow_->setEnabled(false);

    auto* bar = new QHBoxLayout;
    bar->addWidget(connect_);
    bar->addWidget(refresh_);
    bar->addSpacing(12);
    bar->addWidget(onlyAnomalies_);
    bar->addWidget(search_, 1);
    bar->addWidget(browseWindow_);
    bar->addWidget(verifyWindow_);
    bar->addWidget(copy_);

    view_ = new QTableView(this);
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setAlternatingRowColors(false);
    view_->verticalHeader()->hide();
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    view_->sortByColumn(-1, Qt::AscendingOrder);

    details_ = new QTextBrowser(this);
    details_->setOpenLinks(false);
    details_->setPlaceholderText(tr("Select a point to see what a resume would do with it."));

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(view_);
    splitter->addWidget(details_);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({kTableHeight, kDetailsHeight});

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary_);
    layout->addLayout(bar);
    layout->addWidget(splitter, 1);

    connect(connect_, &QPushButton::clicked, this, [this] { inspectWithDialog(); });
    connect(refresh_, &QPushButton::clicked, this, [this] {
        if (lastRequest_) {
            inspect(*lastRequest_);
        }
    });
    connect(onlyAnomalies_, &QCheckBox::toggled, proxy_, &InspectionFilterProxy::setOnlyAnomalies);
    connect(search_, &QLineEdit::textChanged, proxy_, &InspectionFilterProxy::setTextFilter);
    connect(copy_, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(visibleRowsText()); });
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &CheckpointInspectionPage::showDetails);
    connect(verifyWindow_, &QPushButton::clicked, this, [this] {
        if (SkipWindowDialog* dialog = verifyWindow()) {
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            dialog->show();
        }
    });
    connect(browseWindow_, &QPushButton::clicked, this, &CheckpointInspectionPage::browseWindow);
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &CheckpointInspectionPage::updateVerifyWindowButton);
    connect(&watcher_, &QFutureWatcher<InspectionOutcome>::finished, this, &CheckpointInspectionPage::onFinished);
}

// No wait for a job still running: it holds only its own copies and never touches this object, so
// closing never blocks on the network; its result is dropped with the future.
CheckpointInspectionPage::~CheckpointInspectionPage() = default;

bool CheckpointInspectionPage::isBusy() const {
    return watcher_.isRunning();
}

void CheckpointInspectionPage::inspect(const inspect::InspectionRequest& request) {
    if (isBusy()) {
        return;
    }
    lastRequest_ = request;
    lastError_.clear();
    setBusy(true);
    summary_->setText(
        tr("Reading the checkpoint tables of %1...").arg(QString::fromStdString(request.target.describe())));
    watcher_.setFuture(QtConcurrent::run([request] { return runInspection(request); }));
}

bool CheckpointInspectionPage::inspectWithDialog() {
    return runConnectionDialog(lastRequest_ ? &*lastRequest_ : nullptr);
}

bool CheckpointInspectionPage::inspectWithDialog(const inspect::InspectionRequest& initial) {
    return runConnectionDialog(&initial);
}

bool CheckpointInspectionPage::runConnectionDialog(const inspect::InspectionRequest* initial) {
    InspectionConnectionDialog dialog(this);
    if (initial) {
        dialog.setRequest(*initial);
    }
    if (dialog.exec() != QDialog::Accepted) {
        return false;
    }
    inspect(dialog.request());
    return true;
}

void CheckpointInspectionPage::setBusy(bool busy) {
    connect_->setEnabled(!busy);
    refresh_->setEnabled(!busy && lastRequest_.has_value());
    setCursor(busy ? Qt::BusyCursor : Qt::ArrowCursor);
}

void CheckpointInspectionPage::onFinished() {
    const InspectionOutcome outcome = watcher_.result();
    setBusy(false);
    if (!outcome.report) {
        lastError_ = outcome.error;
        model_->clear();
        updateVerifyWindowButton();
        summary_->setText(tr("<b>Cannot inspect:</b> %1").arg(outcome.error.toHtmlEscaped()));
        details_->clear();
        emit inspectionFinished(false);
        return;
    }
    model_->setReport(*outcome.report);
    view_->resizeColumnsToContents();
    updateVerifyWindowButton();
    showReportSummary(*outcome.report);
    emit inspectionFinished(true);
}

void CheckpointInspectionPage::showReportSummary(const inspect::InspectionReport& report) {
    QString text = tr("Downstream <b>%1</b>, %2")
                       .arg(QString::fromStdString(report.target).toHtmlEscaped(),
                            counted(qsizetype(report.tables.size()), tr("checkpoint table"), tr("checkpoint tables")));
    if (report.upstream) {
        text += tr("; upstream <b>%1</b> at %2, %3")
                    .arg(QString::fromStdString(report.upstream->server).toHtmlEscaped(),
                         QString::fromStdString(report.upstream->current.toString()).toHtmlEscaped(),
                         counted(qsizetype(report.upstream->files.size()), tr("binlog file"), tr("binlog files")));
    } else {
        text += tr("; no upstream compared");
    }
    const size_t anomalies = report.anomalyCount();
    if (anomalies == 0) {
        text += tr(". <b>No anomalies.</b>");
    } else {
        text += tr(". <span style=\"color:#e53935\"><b>%1</b></span> on %2.")
                    .arg(counted(qsizetype(anomalies), tr("anomaly"), tr("anomalies")),
                         counted(model_->anomalyRowCount(), tr("point"), tr("points")));
    }
    if (report.tables.empty()) {
        text += tr(" No <tt>*_syncer_checkpoint</tt> table was found.");
    }
    summary_->setText(text);
    details_->clear();
}

void CheckpointInspectionPage::showDetails() {
    const QModelIndex current = view_->currentIndex();
    if (!current.isValid()) {
        return;
    }
    details_->setText(current.siblingAtColumn(0)
                          .data(Qt::ToolTipRole)
                          .toString()
                          .toHtmlEscaped()
                          .replace(QLatin1Char('\n'), QStringLiteral("<br>")));
}

namespace {
// The current point's skip window, when it has one.
const inspect::SkipWindow* skipWindowOf(const CheckpointInspectionModel::PointRow& row) {
    for (const auto& anomaly : row.anomalies) {
        if (anomaly.kind == inspect::AnomalyKind::TableAheadOfGlobal && anomaly.skipWindow) {
            return &*anomaly.skipWindow;
        }
    }
    return nullptr;
}
}  // namespace

void CheckpointInspectionPage::updateVerifyWindowButton() {
    const QModelIndex current = view_->currentIndex();
    bool possible = false;
    if (current.isValid() && lastRequest_ && lastRequest_->upstream) {
        const int row = proxy_->mapToSource(current).row();
        possible = row >= 0 && row < model_->rowCount() && skipWindowOf(model_->pointRow(row)) != nullptr;
    }
    verifyWindow_->setEnabled(possible);
    browseWindow_->setEnabled(possible);
}

bool CheckpointInspectionPage::browseWindow() {
    const QModelIndex current = view_->currentIndex();
    if (!current.isValid() || !lastRequest_ || !lastRequest_->upstream) {
        return false;
    }
    const auto& point = model_->pointRow(proxy_->mapToSource(current).row());
    const inspect::SkipWindow* window = skipWindowOf(point);
    if (!window) {
        return false;
    }
    SkipWindowBrowse browse;
    browse.upstream = *lastRequest_->upstream;
    browse.globalPoint = {window->from.position().file(), window->from.position().offset()};
    browse.tablePoint = {window->to.position().file(), window->to.position().offset()};
    browse.table = point.pointOf;
    emit browseWindowRequested(browse);
    return true;
}

SkipWindowDialog* CheckpointInspectionPage::verifyWindow() {
    const QModelIndex current = view_->currentIndex();
    if (!current.isValid() || !lastRequest_ || !lastRequest_->upstream) {
        return nullptr;
    }
    const auto& point = model_->pointRow(proxy_->mapToSource(current).row());
    const inspect::SkipWindow* window = skipWindowOf(point);
    const qsizetype dot = point.pointOf.indexOf(QLatin1Char('.'));
    if (!window || dot <= 0) {
        return nullptr;
    }
    verify::SkipWindowRequest request;
    request.upstream = *lastRequest_->upstream;
    request.downstream = lastRequest_->target;
    request.table = {point.pointOf.left(dot).toStdString(), point.pointOf.mid(dot + 1).toStdString()};
    request.from = window->from;
    request.to = window->to;
    QString dir = auditDirectory_.isEmpty() ? QString::fromStdString(defaultLogDirectory()) : auditDirectory_;
    QDir().mkpath(dir);
    auto* dialog = new SkipWindowDialog(request, point.task, point.sourceId,
                                        dir + QLatin1Char('/') + point.task + "-audit.jsonl", this);
    dialog->start();
    return dialog;
}

QString CheckpointInspectionPage::summaryText() const {
    return summary_->text();
}

QString CheckpointInspectionPage::detailsText() const {
    return details_->toPlainText();
}

QString CheckpointInspectionPage::visibleRowsText() const {
    QStringList lines;
    QStringList header;
    for (int column = 0; column < proxy_->columnCount(); ++column) {
        header << proxy_->headerData(column, Qt::Horizontal).toString();
    }
    lines << header.join(QLatin1Char('\t'));
    for (int row = 0; row < proxy_->rowCount(); ++row) {
        QStringList cells;
        for (int column = 0; column < proxy_->columnCount(); ++column) {
            cells << proxy_->index(row, column).data().toString();
        }
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

}  // namespace syncscope::ui
