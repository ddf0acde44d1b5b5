#include "ui/dialogs/window_preview_dialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "engine/common/local_time.h"
#include "engine/preview/preview_json.h"
#include "engine/preview/replay_sql_file.h"
#include "engine/preview/task_window_preview.h"

namespace syncscope::ui {

namespace {

constexpr int kWidth = 1000;
constexpr int kHeight = 560;
constexpr int kTableWidth = 200;
constexpr int kKeyWidth = 120;
constexpr int kStateWidth = 90;
constexpr int kChangeWidth = 200;

enum Column { TableColumn, KeyColumn, StateColumn, LastChangeColumn, DetailColumn, ColumnCount };

QString valuesText(const std::vector<apply::SqlValue>& values) {
    QStringList parts;
    for (const auto& value : values) {
        auto text = value.text();
        parts.push_back(text ? QString::fromStdString(*text) : QStringLiteral("NULL"));
    }
    return parts.join(QStringLiteral(", "));
}

QString imageText(const verify::SkipWindowReport& table, const verify::WindowRow& row) {
    if (row.image.empty()) {
        return QObject::tr("deleted in the window");
    }
    QStringList parts;
    for (size_t i = 0; i < row.image.size() && i < table.columns.size(); ++i) {
        auto text = row.image[i].text();
        parts.push_back(QString::fromStdString(table.columns[i]) + "=" +
                        (text ? QString::fromStdString(*text) : QStringLiteral("NULL")));
    }
    return parts.join(QStringLiteral(", "));
}

}  // namespace

WindowPreviewDialog::WindowPreviewDialog(WindowPreviewJob job, WindowPreviewAction action, QWidget* parent)
    : QDialog(parent), action_(std::move(action)), cancel_(std::make_shared<std::atomic<bool>>(false)) {
    setWindowTitle(action_.title);
    resize(kWidth, kHeight);
    auto* intro = new QLabel(action_.intro, this);
    intro->setWordWrap(true);
    summary_ = new QLabel(tr("Reading the binlog window and checking each row downstream..."), this);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    rows_ = new QTableWidget(0, ColumnCount, this);
    rows_->setHorizontalHeaderLabels(
        {tr("Table"), tr("Key"), tr("Downstream"), tr("Last change"), tr("Final image / differing columns")});
    rows_->horizontalHeader()->setSectionResizeMode(DetailColumn, QHeaderView::Stretch);
    rows_->setColumnWidth(TableColumn, kTableWidth);
    rows_->setColumnWidth(KeyColumn, kKeyWidth);
    rows_->setColumnWidth(StateColumn, kStateWidth);
    rows_->setColumnWidth(LastChangeColumn, kChangeWidth);
    rows_->verticalHeader()->hide();
    rows_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    rows_->setWordWrap(false);
    saved_ = new QLabel(this);
    saved_->setWordWrap(true);
    saved_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    if (action_.skipsRows) {
        saved_->setText(tr("The rows not equal downstream are saved as replayable SQL to %1, named in the audit log.")
                            .arg(QDir::toNativeSeparators(action_.sqlPath)));
    }

    typed_ = new QLineEdit(this);
    typed_->setObjectName(QStringLiteral("typedConfirmation"));
    typed_->setPlaceholderText(tr("Type %1 to confirm").arg(action_.typedConfirmation));
    typed_->setToolTip(tr("Type the point exactly to enable %1").arg(action_.confirmText));
    typed_->setVisible(!action_.typedConfirmation.isEmpty());
    typed_->setEnabled(false);
    auto* buttons = new QDialogButtonBox(this);
    confirm_ = buttons->addButton(action_.confirmText, QDialogButtonBox::AcceptRole);
    confirm_->setEnabled(false);
    connect(typed_, &QLineEdit::textChanged, this, [this] { confirm_->setEnabled(confirmable()); });
    buttons->addButton(QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &WindowPreviewDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &WindowPreviewDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(summary_);
    layout->addWidget(rows_, 1);
    layout->addWidget(saved_);
    if (!action_.typedConfirmation.isEmpty()) {
        auto* ask =
            new QLabel(tr("To go on, type <b>%1</b> below.").arg(action_.typedConfirmation.toHtmlEscaped()), this);
        layout->addWidget(ask);
    }
    layout->addWidget(typed_);
    layout->addWidget(buttons);

    connect(&watcher_, &QFutureWatcher<WindowPreviewResult>::finished, this, &WindowPreviewDialog::onPreviewRead);
    watcher_.setFuture(QtConcurrent::run([job = std::move(job), cancel = cancel_]() -> WindowPreviewResult {
        WindowPreviewResult result;
        try {
            result.preview = job(cancel.get());
        } catch (const preview::RefusedResumeTarget& e) {
            result.error = e.what();
            result.refused = true;
        } catch (const std::exception& e) {
            result.error = e.what();
        }
        return result;
    }));
}

WindowPreviewDialog::~WindowPreviewDialog() {
    cancel_->store(true);
    watcher_.waitForFinished();
}

bool WindowPreviewDialog::isBusy() const {
    return !shown_;
}

void WindowPreviewDialog::onPreviewRead() {
    WindowPreviewResult result = watcher_.result();
    shown_ = true;
    refused_ = result.refused;
    typed_->setEnabled(!refused_);
    confirm_->setEnabled(confirmable());
    if (refused_) {
        error_ = QString::fromStdString(result.error);
        summary_->setText(tr("<b>Refused, nothing changed:</b> %1").arg(error_.toHtmlEscaped()));
        saved_->clear();
        emit previewShown();
        return;
    }
    if (!result.preview) {
        error_ = QString::fromStdString(result.error);
        summary_->setText(tr("<b>No preview:</b> %1<br>Going on anyway skips or replays rows nobody has looked at.")
                              .arg(error_.toHtmlEscaped()));
        if (action_.skipsRows) {
            saved_->setText(tr("Nothing can be saved without a preview."));
        }
        emit previewShown();
        return;
    }
    preview_ = std::move(result.preview);
    const verify::WindowPreview& preview = *preview_;
    QString transactions;
    for (const auto& trx : preview.transactions) {
        transactions += (transactions.isEmpty() ? QString() : QStringLiteral(", ")) +
                        QString::fromStdString(trx.start.toString() + (trx.gtid.empty() ? "" : " " + trx.gtid) + " (" +
                                               formatLocalTime(trx.timestamp) + ", " + std::to_string(trx.rowChanges) +
                                               " row changes)");
    }
    QString text =
        tr("%n transaction(s) after %1 up to %2: %3.", nullptr, static_cast<int>(preview.transactions.size()))
            .arg(QString::fromStdString(preview.from.toString()), QString::fromStdString(preview.to.toString()),
                 transactions.toHtmlEscaped());
    text += QStringLiteral("<br>") +
            tr("<b>%1 row(s)</b>: %2 already there and equal, %3 missing, %4 different, %5 deleted upstream but "
               "still there.")
                .arg(preview.rowCount())
                .arg(preview.rowsIn(verify::WindowRowState::Equal))
                .arg(preview.rowsIn(verify::WindowRowState::Missing))
                .arg(preview.rowsIn(verify::WindowRowState::Different))
                .arg(preview.rowsIn(verify::WindowRowState::NotDeleted));
    for (const auto& problem : preview.problems) {
        text += QStringLiteral("<br>") + tr("Not checked: %1: %2")
                                             .arg(QString::fromStdString(problem.table.text()),
                                                  QString::fromStdString(problem.reason).toHtmlEscaped());
    }
    summary_->setText(text);
    for (const auto& table : preview.tables) {
        for (const auto& row : table.rows) {
            int at = rows_->rowCount();
            rows_->insertRow(at);
            rows_->setItem(at, TableColumn, new QTableWidgetItem(QString::fromStdString(table.table.text())));
            rows_->setItem(at, KeyColumn, new QTableWidgetItem(valuesText(row.key)));
            rows_->setItem(at, StateColumn, new QTableWidgetItem(QString::fromLatin1(windowRowStateName(row.state))));
            rows_->setItem(at, LastChangeColumn, new QTableWidgetItem(QString::fromStdString(row.lastChange)));
            QString detail = imageText(table, row);
            if (!row.differingColumns.empty()) {
                QStringList differing;
                for (const auto& column : row.differingColumns) {
                    differing.push_back(QString::fromStdString(column));
                }
                detail = row.state == verify::WindowRowState::Different
                             ? tr("differs: %1; final image %2").arg(differing.join(QStringLiteral(", ")), detail)
                             : tr("%1 (%2)").arg(detail, differing.join(QStringLiteral(", ")));
            }
            auto* item = new QTableWidgetItem(detail);
            item->setToolTip(detail);
            rows_->setItem(at, DetailColumn, item);
        }
    }
    emit previewShown();
}

bool WindowPreviewDialog::saveReplay() {
    if (!action_.skipsRows || !preview_ || action_.sqlPath.isEmpty()) {
        return true;
    }
    const std::string path = QFileInfo(action_.sqlPath).absoluteFilePath().toStdString();
    try {
        preview::writeReplaySql(path, preview_->replaySql(action_.title.toStdString()));
    } catch (const std::exception& e) {
        QMessageBox::warning(this, action_.title, tr("%1. Nothing was done.").arg(QString::fromStdString(e.what())));
        return false;
    }
    evidence_.replaySqlFile = path;
    evidence_.preview = preview::previewCounts(*preview_);
    return true;
}

bool WindowPreviewDialog::confirmable() const {
    return shown_ && !refused_ &&
           (action_.typedConfirmation.isEmpty() || typed_->text().trimmed() == action_.typedConfirmation);
}

void WindowPreviewDialog::accept() {
    if (!confirmable() || !saveReplay()) {
        return;
    }
    QDialog::accept();
}

}  // namespace syncscope::ui
