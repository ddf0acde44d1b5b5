#include "ui/inspect/skip_window_dialog.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "engine/task/audit_log.h"
#include "engine/verify/repair_applier.h"
#include "engine/verify/repair_plan.h"

namespace syncscope::ui {

namespace {

constexpr int kDialogWidth = 900;
constexpr int kDialogHeight = 480;
const QColor kWrongRowBackground(220, 50, 47, 60);

enum RowsColumn { StateColumn, KeyColumn, LastChangeColumn, DifferingColumn, ImageColumn, RowsColumnCount };

QString valuesText(const std::vector<std::string>& names, const std::vector<size_t>& positions,
                   const std::vector<apply::SqlValue>& values) {
    QStringList parts;
    for (size_t i = 0; i < values.size(); ++i) {
        const std::string& name = positions.empty() ? names.at(i) : names.at(positions.at(i));
        parts << QString::fromStdString(name + "=" + values[i].display());
    }
    return parts.join(QStringLiteral(", "));
}

nlohmann::json windowJson(const verify::SkipWindowReport& report, const verify::SkipWindowReport& missing) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : missing.rows) {
        nlohmann::json key = nlohmann::json::object();
        for (size_t i = 0; i < row.key.size(); ++i) {
            key[report.columns[report.keyColumns[i]]] =
                row.key[i].isNull() ? nullptr : nlohmann::json(row.key[i].display());
        }
        nlohmann::json image = nlohmann::json::object();
        for (size_t i = 0; i < row.image.size(); ++i) {
            image[report.columns[i]] = row.image[i].isNull() ? nullptr : nlohmann::json(row.image[i].display());
        }
        rows.push_back({{"state", verify::windowRowStateName(row.state)},
                        {"key", key},
                        {"final_image", image},
                        {"last_change", row.lastChange}});
    }
    return {{"table", report.table.text()},
            {"downstream_table", report.downstreamTable.text()},
            {"from", report.from.toString()},
            {"to", report.to.toString()},
            {"rows", rows}};
}

// The window's missing rows only: what Repair missing rows inserts.
verify::SkipWindowReport missingRowsOf(const verify::SkipWindowReport& report) {
    verify::SkipWindowReport missing = report;
    std::erase_if(missing.rows,
                  [](const verify::WindowRow& row) { return row.state != verify::WindowRowState::Missing; });
    return missing;
}

size_t countState(const verify::SkipWindowReport& report, verify::WindowRowState state) {
    return size_t(std::count_if(report.rows.begin(), report.rows.end(),
                                [state](const verify::WindowRow& row) { return row.state == state; }));
}

}  // namespace

SkipWindowDialog::SkipWindowDialog(verify::SkipWindowRequest request, QString taskName, QString sourceId,
                                   QString auditPath, QWidget* parent)
    : QDialog(parent),
      request_(std::move(request)),
      taskName_(std::move(taskName)),
      sourceId_(std::move(sourceId)),
      auditPath_(std::move(auditPath)) {
    setWindowTitle(tr("Verify skip window of %1").arg(QString::fromStdString(request_.table.text())));
    resize(kDialogWidth, kDialogHeight);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    rows_ = new QTableWidget(0, RowsColumnCount, this);
    rows_->setHorizontalHeaderLabels(
        {tr("State"), tr("Key"), tr("Last change in the window"), tr("Differing columns"), tr("Final image")});
    rows_->setToolTip(tr("Every row of the table changed in the window, with its final image checked downstream"));
    rows_->verticalHeader()->hide();
    rows_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    rows_->setSelectionBehavior(QAbstractItemView::SelectRows);
    rows_->setWordWrap(false);
    rows_->horizontalHeader()->setStretchLastSection(true);
    again_ = new QPushButton(tr("Verify &again"), this);
    again_->setToolTip(tr("Decode the window and check the downstream once more"));
    repair_ = new QPushButton(tr("&Repair missing rows…"), this);
    repair_->setToolTip(
        tr("After your confirmation, insert the rows the downstream lacks with their final images from the "
           "window (audited first), then verify the window again"));
    repair_->setEnabled(false);
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    close->button(QDialogButtonBox::Close)->setToolTip(tr("Close this window (a running check finishes on its own)"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(again_);
    buttons->addWidget(repair_);
    buttons->addStretch();
    buttons->addWidget(close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary_);
    layout->addWidget(rows_, 1);
    layout->addLayout(buttons);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(again_, &QPushButton::clicked, this, &SkipWindowDialog::start);
    connect(repair_, &QPushButton::clicked, this, &SkipWindowDialog::repairMissing);
    connect(&watcher_, &QFutureWatcher<SkipWindowOutcome>::finished, this, &SkipWindowDialog::onFinished);
}

// A check still running holds only its own copies; closing never waits on the network.
SkipWindowDialog::~SkipWindowDialog() = default;

bool SkipWindowDialog::isBusy() const {
    return watcher_.isRunning();
}

void SkipWindowDialog::setBusy(bool busy) {
    again_->setEnabled(!busy);
    repair_->setEnabled(!busy && report_ && countState(*report_, verify::WindowRowState::Missing) > 0 &&
                        !auditPath_.isEmpty());
    setCursor(busy ? Qt::BusyCursor : Qt::ArrowCursor);
}

void SkipWindowDialog::start() {
    if (isBusy()) {
        return;
    }
    summary_->setText(tr("Decoding the upstream's binlog from %1 to %2 for %3…")
                          .arg(QString::fromStdString(request_.from.toString()),
                               QString::fromStdString(request_.to.toString()),
                               QString::fromStdString(request_.table.text())));
    setBusy(true);
    watcher_.setFuture(QtConcurrent::run([request = request_] {
        SkipWindowOutcome outcome;
        try {
            outcome.report = verify::SkipWindowVerifier().verify(request);
        } catch (const std::exception& e) {
            outcome.error = QString::fromUtf8(e.what());
        }
        return outcome;
    }));
}

bool SkipWindowDialog::repairMissing() {
    if (isBusy() || !report_ || auditPath_.isEmpty()) {
        return false;
    }
    verify::SkipWindowReport missing = missingRowsOf(*report_);
    if (missing.rows.empty()) {
        return false;
    }
    const QString question =
        tr("Insert %n missing row(s) into %1 on %2 with their final images from the window?\n\nThe rows and the "
           "SQL are written to the audit log %3 first; then the window is verified again.",
           nullptr, int(missing.rows.size()))
            .arg(QString::fromStdString(report_->downstreamTable.text()),
                 QString::fromStdString(request_.downstream.describe()), auditPath_);
    const bool yes = confirm_ ? confirm_(question)
                              : QMessageBox::warning(this, tr("Repair missing rows"), question,
                                                     QMessageBox::Yes | QMessageBox::Cancel,
                                                     QMessageBox::Cancel) == QMessageBox::Yes;
    if (!yes) {
        return false;
    }
    summary_->setText(tr("Inserting %n missing row(s)…", nullptr, int(missing.rows.size())));
    setBusy(true);
    watcher_.setFuture(QtConcurrent::run([request = request_, report = *report_, missing = std::move(missing),
                                          task = taskName_.toStdString(), sourceId = sourceId_.toStdString(),
                                          auditPath = auditPath_.toStdString()] {
        SkipWindowOutcome outcome;
        try {
            verify::RepairPlan plan(missing.repairChanges());
            task::AuditEntry entry;
            entry.action = "verify-window-repair";
            entry.task = task;
            entry.sourceId = sourceId;
            entry.positionBefore = report.from.toString();
            entry.positionAfter = report.to.toString();
            entry.details = {{"sql", plan.sqlText()}, {"window", windowJson(report, missing)}, {"from", "gui"}};
            task::AuditLog(auditPath).append(entry);
            verify::RepairApplier(request.downstream, {}).apply(plan);
            outcome.repairSql = QString::fromStdString(plan.sqlText());
            outcome.report = verify::SkipWindowVerifier().verify(request);
        } catch (const std::exception& e) {
            outcome.error = QString::fromUtf8(e.what());
        }
        return outcome;
    }));
    return true;
}

void SkipWindowDialog::onFinished() {
    const SkipWindowOutcome outcome = watcher_.result();
    if (outcome.report) {
        report_ = outcome.report;
        lastRepairSql_ = outcome.repairSql;
        showReport(*report_);
    } else {
        summary_->setText(tr("<b>Cannot verify the window:</b> %1").arg(outcome.error.toHtmlEscaped()));
    }
    setBusy(false);
    emit finished(outcome.report.has_value());
}

void SkipWindowDialog::showReport(const verify::SkipWindowReport& report) {
    const size_t missing = countState(report, verify::WindowRowState::Missing);
    const size_t different = countState(report, verify::WindowRowState::Different);
    const size_t notDeleted = countState(report, verify::WindowRowState::NotDeleted);
    QString text = tr("Window of <b>%1</b> (downstream %2), after %3 up to %4: %5 row changes in %6 events, %7 rows: "
                      "%8 present and equal, <b>%9 missing</b>, %10 different, %11 not deleted.")
                       .arg(QString::fromStdString(report.table.text()).toHtmlEscaped(),
                            QString::fromStdString(report.downstreamTable.text()).toHtmlEscaped(),
                            QString::fromStdString(report.from.toString()).toHtmlEscaped(),
                            QString::fromStdString(report.to.toString()).toHtmlEscaped())
                       .arg(report.rowChanges)
                       .arg(report.eventsRead)
                       .arg(report.rows.size())
                       .arg(countState(report, verify::WindowRowState::Equal))
                       .arg(missing)
                       .arg(different)
                       .arg(notDeleted);
    if (!lastRepairSql_.isEmpty()) {
        text += tr(" Repaired (audited): %1").arg(lastRepairSql_.trimmed().toHtmlEscaped());
    }
    if (different + notDeleted > 0) {
        text +=
            tr(" Different and not-deleted rows may have changed again after the window: compare them with "
               "the upstream (Verify tab) before changing them.");
    }
    summary_->setText(text);
    rows_->setRowCount(int(report.rows.size()));
    for (int i = 0; i < int(report.rows.size()); ++i) {
        const verify::WindowRow& row = report.rows[size_t(i)];
        QStringList differing;
        for (const auto& column : row.differingColumns) {
            differing << QString::fromStdString(column);
        }
        const QStringList cells{QString::fromLatin1(verify::windowRowStateName(row.state)),
                                valuesText(report.columns, report.keyColumns, row.key),
                                QString::fromStdString(row.lastChange), differing.join(QStringLiteral(", ")),
                                row.image.empty() ? tr("(deleted)") : valuesText(report.columns, {}, row.image)};
        for (int column = 0; column < RowsColumnCount; ++column) {
            auto* item = new QTableWidgetItem(cells[column]);
            if (row.state != verify::WindowRowState::Equal) {
                item->setBackground(kWrongRowBackground);
            }
            rows_->setItem(i, column, item);
        }
    }
    rows_->resizeColumnsToContents();
}

QString SkipWindowDialog::summaryText() const {
    return summary_->text();
}

}  // namespace syncscope::ui
