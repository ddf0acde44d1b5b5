#include "ui/pages/verify_page.h"

#include <QCheckBox>
#include <QDateTime>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "engine/verify/verify_summary_file.h"
#include "ui/engine/verify_runner.h"
#include "ui/models/verify_results_model.h"

namespace syncscope::ui {

namespace {

constexpr int kProgressSteps = 1000;
constexpr size_t kDifferencesShown = 200;

QString valueText(const std::optional<std::string>& value) {
    return value ? QString::fromUtf8(value->data(), static_cast<qsizetype>(value->size())) : QStringLiteral("NULL");
}

QString rowText(const verify::TableVerifyResult& table, const verify::RowValues& row) {
    QStringList parts;
    for (size_t i = 0; i < row.size() && i < table.columns.size(); ++i) {
        parts << QString::fromStdString(table.columns[i]) + "=" + valueText(row[i]);
    }
    return parts.join(", ");
}

QString detailsText(const verify::TableVerifyResult& table) {
    QString text;
    if (!table.problem.empty()) {
        text += VerifyPage::tr("Failed: %1\n").arg(QString::fromStdString(table.problem));
    }
    for (const auto& note : table.notes) {
        text += VerifyPage::tr("Note: %1\n").arg(QString::fromStdString(note));
    }
    size_t shown = 0;
    for (const auto& difference : table.differences) {
        if (++shown > kDifferencesShown) {
            text += VerifyPage::tr("… %1 more\n").arg(table.differences.size() - kDifferencesShown);
            break;
        }
        text += QString::fromLatin1(verify::differenceKindName(difference.kind)).toUpper() + ": ";
        if (difference.kind != verify::DifferenceKind::Extra) {
            text += VerifyPage::tr("upstream (%1)").arg(rowText(table, difference.upstreamRow));
        }
        if (difference.kind != verify::DifferenceKind::Missing) {
            text += (difference.kind == verify::DifferenceKind::Different ? QStringLiteral("  ") : QString()) +
                    VerifyPage::tr("downstream (%1)").arg(rowText(table, difference.downstreamRow));
        }
        if (!difference.differingColumns.empty()) {
            QStringList columns;
            for (const auto& column : difference.differingColumns) {
                columns << QString::fromStdString(column);
            }
            text += VerifyPage::tr("  columns: %1").arg(columns.join(", "));
        }
        text += '\n';
    }
    if (table.repair && !table.repair->sql.empty()) {
        const auto& repair = *table.repair;
        if (repair.applied) {
            text += VerifyPage::tr("\nRepair applied (%n statement(s), audited); compared again: %1 still different:\n",
                                   nullptr, int(repair.statements))
                        .arg(repair.stillDifferent);
        } else if (!repair.error.empty()) {
            text += VerifyPage::tr("\nRepair failed, nothing of this table applied: %1\n")
                        .arg(QString::fromStdString(repair.error));
        } else {
            text += VerifyPage::tr("\nRepair SQL (review it, then Apply repair…):\n");
        }
        text += QString::fromStdString(repair.sql);
    }
    return text;
}

QString durationText(double seconds) {
    auto whole = static_cast<qint64>(seconds);
    return whole >= 60 ? VerifyPage::tr("%1 min %2 s").arg(whole / 60).arg(whole % 60)
                       : VerifyPage::tr("%1 s").arg(whole);
}

}  // namespace

VerifyPage::VerifyPage(QWidget* parent)
    : QWidget(parent), runner_(new VerifyRunner(this)), model_(new VerifyResultsModel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    startButton_ = new QPushButton(tr("&Verify tables"), this);
    startButton_->setToolTip(
        tr("Compare every replicated table upstream against downstream, chunk by chunk; "
           "rows in flight are confirmed once the task has applied them"));
    cancelButton_ = new QPushButton(tr("&Cancel"), this);
    cancelButton_->setToolTip(tr("Stop the verification that is running"));
    saveButton_ = new QPushButton(tr("&Save repair SQL…"), this);
    saveButton_->setToolTip(tr("Write the SQL that makes the downstream equal, for review"));
    repairButton_ = new QPushButton(tr("&Apply repair…"), this);
    repairButton_->setToolTip(
        tr("After your confirmation, verify the tables that differ again and repair them through the task's "
           "apply path (rows locked upstream meanwhile); every repair goes to the audit log"));
    bar_ = new QProgressBar(this);
    bar_->setRange(0, kProgressSteps);
    summary_ = new QLabel(this);
    bar->addWidget(startButton_);
    bar->addWidget(cancelButton_);
    bar->addWidget(bar_, 1);
    loadButton_ = new QPushButton(tr("&Load results…"), this);
    loadButton_->setToolTip(tr("Show the results of `syncscope-cli verify` (<log folder>/<task>-verify.json)"));
    bar->addWidget(saveButton_);
    bar->addWidget(repairButton_);
    bar->addWidget(loadButton_);
    layout->addLayout(bar);
    layout->addWidget(summary_);

    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(model_);
    proxy->setSortRole(VerifyResultsModel::SortRole);
    view_ = new QTableView(this);
    view_->setModel(proxy);
    view_->setSortingEnabled(true);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->verticalHeader()->hide();
    view_->setWordWrap(false);
    view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view_->horizontalHeader()->setStretchLastSection(true);
    details_ = new QPlainTextEdit(this);
    details_->setReadOnly(true);
    details_->setPlaceholderText(tr("Select a table to see its differing rows and the repair SQL"));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(view_);
    split->addWidget(details_);
    layout->addWidget(split, 1);

    connect(startButton_, &QPushButton::clicked, this, &VerifyPage::startVerify);
    connect(cancelButton_, &QPushButton::clicked, runner_, &VerifyRunner::cancel);
    connect(saveButton_, &QPushButton::clicked, this, [this] {
        QString file =
            QFileDialog::getSaveFileName(this, tr("Save repair SQL"), QStringLiteral("repair.sql"), tr("SQL (*.sql)"));
        if (!file.isEmpty()) {
            saveRepairSql(file);
        }
    });
    connect(repairButton_, &QPushButton::clicked, this, &VerifyPage::applyRepair);
    connect(loadButton_, &QPushButton::clicked, this, [this] {
        const QString folder = auditPath_.isEmpty() ? QString() : QFileInfo(auditPath_).absolutePath();
        QString file = QFileDialog::getOpenFileName(this, tr("Load verify results"), folder,
                                                    tr("Verify results (*-verify.json);;JSON (*.json)"));
        if (!file.isEmpty()) {
            loadSavedResults(file);
        }
    });
    connect(runner_, &VerifyRunner::progressChanged, this, &VerifyPage::showProgress);
    connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &VerifyPage::showDetails);
    setTask({}, {}, nullptr);
}

void VerifyPage::setTask(const QString& taskFile, const QString& sourceFile, std::shared_ptr<task::TaskControl> task) {
    taskFile_ = taskFile;
    sourceFile_ = sourceFile;
    task_ = std::move(task);
    startButton_->setEnabled(!taskFile_.isEmpty() && !runner_->running());
    cancelButton_->setEnabled(runner_->running());
    saveButton_->setEnabled(false);
    repairButton_->setEnabled(false);
    summary_->setText(taskFile_.isEmpty() ? tr("Open a task to verify its tables")
                                          : tr("Compares every table of %1 upstream (%2) against downstream")
                                                .arg(taskFile_, QFileInfo(sourceFile_).fileName()));
}

void VerifyPage::startVerify() {
    if (taskFile_.isEmpty() || runner_->running()) {
        return;
    }
    details_->clear();
    runner_->start(taskFile_, sourceFile_, task_);
}

void VerifyPage::showProgress(const VerifyProgress& progress) {
    shownTables_ = progress.tables;
    model_->setResults(progress.tables);
    bar_->setValue(static_cast<int>(progress.fraction * kProgressSteps));
    startButton_->setEnabled(!progress.running && !taskFile_.isEmpty());
    cancelButton_->setEnabled(progress.running);
    size_t differences = 0;
    size_t failed = 0;
    for (const auto& table : progress.tables) {
        differences += table.differences.size();
        failed += table.outcome == verify::TableOutcome::Failed ? 1 : 0;
    }
    saveButton_->setEnabled(!progress.running && differences > 0);
    repairButton_->setEnabled(!progress.running && differences > 0 && !auditPath_.isEmpty() && !progress.repairing);
    QString text;
    if (!progress.error.isEmpty()) {
        text = tr("Cannot verify: %1").arg(progress.error);
    } else if (progress.running) {
        text = tr("%1 of %2 tables, %3 differences, %4 elapsed")
                   .arg(progress.tables.size())
                   .arg(progress.tableCount)
                   .arg(differences)
                   .arg(durationText(progress.elapsedSeconds));
        if (progress.etaSeconds) {
            text += tr(", about %1 left").arg(durationText(*progress.etaSeconds));
        }
    } else {
        size_t applied = 0;
        size_t stillDifferent = 0;
        for (const auto& table : progress.tables) {
            if (table.repair && table.repair->applied) {
                applied += table.repair->statements;
                stillDifferent += table.repair->stillDifferent;
            }
        }
        text = progress.repairing ? tr("Repair: %1 statements applied (audited), %2 rows still different; ")
                                        .arg(applied)
                                        .arg(stillDifferent)
                                  : QString();
        text += tr("%1 tables, %2 differences, %3 failed%4 in %5")
                    .arg(progress.tables.size())
                    .arg(differences)
                    .arg(failed)
                    .arg(progress.cancelled ? tr(", cancelled") : QString())
                    .arg(durationText(progress.elapsedSeconds));
    }
    summary_->setText(text);
    showDetails();
}

void VerifyPage::showDetails() {
    auto rows = view_->selectionModel()->selectedRows();
    if (rows.isEmpty()) {
        return;
    }
    auto* proxy = static_cast<QSortFilterProxyModel*>(view_->model());
    const verify::TableVerifyResult* table = model_->result(proxy->mapToSource(rows.first()).row());
    if (table) {
        QString text = detailsText(*table);
        if (details_->toPlainText() != text) {
            details_->setPlainText(text);
        }
    }
}

void VerifyPage::setAuditPath(const QString& path) {
    auditPath_ = path;
    if (runner_->running()) {
        return;
    }
    showProgress(runner_->progress());
    // The task's last `syncscope-cli verify` (same log folder) is shown until a verify runs here.
    const QString audit = QStringLiteral("-audit.jsonl");
    if (runner_->progress().tables.empty() && path.endsWith(audit)) {
        const QString saved = path.left(path.size() - audit.size()) + QStringLiteral("-verify.json");
        if (QFileInfo::exists(saved)) {
            loadSavedResults(saved);
        }
    }
}

bool VerifyPage::loadSavedResults(const QString& file) {
    if (runner_->running()) {
        return false;
    }
    verify::SavedVerify saved;
    try {
        saved = verify::loadVerifySummary(file.toStdString());
    } catch (const std::exception& e) {
        summary_->setText(tr("Cannot show the saved results: %1").arg(QString::fromStdString(e.what())));
        return false;
    }
    VerifyProgress progress;
    progress.tables = std::move(saved.report.tables);
    progress.tableCount = progress.tables.size();
    progress.elapsedSeconds = saved.report.seconds;
    progress.cancelled = saved.report.cancelled;
    progress.fraction = 1;
    details_->clear();
    showProgress(progress);
    size_t listed = 0;
    for (const auto& table : progress.tables) {
        listed += table.differences.size();
    }
    const QString finished = QLocale().toString(QDateTime::fromSecsSinceEpoch(saved.finishedAt), QLocale::ShortFormat);
    summary_->setText(tr("From `syncscope-cli verify`, finished %1 (%2): ").arg(finished, file) + summary_->text() +
                      (listed < saved.differencesTotal
                           ? tr("; %1 of the %2 differing rows are listed").arg(listed).arg(saved.differencesTotal)
                           : QString()));
    emit savedResultsLoaded(progress);
    return true;
}

bool VerifyPage::askToRepair(const QString& question, bool hasKeyless, bool* includeKeyless) {
    if (confirm_) {
        return confirm_(question, hasKeyless, includeKeyless);
    }
    QMessageBox box(QMessageBox::Warning, tr("Apply repair"), question, QMessageBox::Yes | QMessageBox::Cancel, this);
    box.setDefaultButton(QMessageBox::Cancel);
    box.button(QMessageBox::Yes)->setText(tr("Repair"));
    QCheckBox* keyless = nullptr;
    if (hasKeyless) {
        keyless = new QCheckBox(tr("Also tables without a key (rows equal in every column change one copy at a time)"));
        box.setCheckBox(keyless);
    }
    const bool yes = box.exec() == QMessageBox::Yes;
    *includeKeyless = keyless && keyless->isChecked();
    return yes;
}

bool VerifyPage::applyRepair() {
    if (runner_->running() || taskFile_.isEmpty() || auditPath_.isEmpty()) {
        return false;
    }
    RepairRequest request;
    request.auditPath = auditPath_;
    size_t differences = 0;
    size_t statements = 0;
    bool hasKeyless = false;
    for (const auto& table : shownTables_) {
        if (table.differences.empty()) {
            continue;
        }
        request.tables.push_back(table.upstream);
        differences += table.differences.size();
        statements += table.repair ? table.repair->statements : 0;
        hasKeyless = hasKeyless || table.keyless;
    }
    if (request.tables.empty()) {
        return false;
    }
    const QString question =
        tr("Repair %1 differing rows in %2 tables of the downstream (%3 statements as shown)?\n\nThe tables are "
           "compared again first; what still differs is repaired through the task's apply path while the rows are "
           "locked upstream, then compared once more. Each table's repair, with its row images, is written to the "
           "audit log %4 before it is applied.")
            .arg(differences)
            .arg(request.tables.size())
            .arg(statements)
            .arg(auditPath_);
    if (!askToRepair(question, hasKeyless, &request.includeKeyless)) {
        return false;
    }
    details_->clear();
    runner_->startRepair(taskFile_, sourceFile_, task_, std::move(request));
    return true;
}

void VerifyPage::saveRepairSql(const QString& file) {
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        summary_->setText(tr("Cannot write %1: %2").arg(file, out.errorString()));
        return;
    }
    for (const auto& table : shownTables_) {
        if (table.repair && !table.repair->sql.empty()) {
            out.write(QStringLiteral("-- %1\n").arg(QString::fromStdString(table.downstream.text())).toUtf8());
            out.write(QByteArray::fromStdString(table.repair->sql));
        }
    }
}

}  // namespace syncscope::ui
