#include "ui/pages/failed_event_panel.h"

#include <QApplication>
#include <QClipboard>
#include <QFont>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPalette>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "ui/dialogs/skip_event_dialog.h"
#include "ui/models/checkpoint_anomaly.h"

namespace syncscope::ui {

namespace {
constexpr int kSqlLines = 4;

QString cellText(const std::optional<std::string>& value) {
    return value ? QString::fromStdString(*value) : QStringLiteral("NULL");
}

QString qualified(const task::FailedEvent& event) {
    return QString::fromStdString(event.schema) + QLatin1Char('.') + QString::fromStdString(event.table);
}
}  // namespace

FailedEventPanel::FailedEventPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    error_ = new QLabel(this);
    error_->setWordWrap(true);
    error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    error_->setToolTip(tr("The downstream's error code and message, and its class"));
    where_ = new QLabel(this);
    where_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    where_->setToolTip(tr("Where the event is in the upstream's binlog, its table and operation"));
    hint_ = new QLabel(this);
    hint_->setWordWrap(true);
    hint_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    hint_->setToolTip(tr("A likely cause and the fix for it"));
    hint_->setStyleSheet(
        QStringLiteral("QLabel { border: 1px solid palette(mid); border-radius: 4px; padding: 6px; }"));
    rows_ = new QTableWidget(this);
    rows_->setToolTip(tr("The row images of the failed change, with the upstream's column names"));
    rows_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    rows_->horizontalHeader()->setStretchLastSection(true);
    sql_ = new QPlainTextEdit(this);
    sql_->setReadOnly(true);
    sql_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    sql_->setMaximumHeight(sql_->fontMetrics().lineSpacing() * kSqlLines + 12);
    sql_->setToolTip(tr("The SQL the engine sent downstream, with its values"));

    auto* buttons = new QHBoxLayout;
    retry_ = new QPushButton(tr("&Retry"), this);
    retry_->setToolTip(tr("Apply the event again. It fails again until the cause is fixed downstream"));
    skip_ = new QPushButton(tr("&Skip this event..."), this);
    skip_->setToolTip(
        tr("Drop this event and go on: its rows will be missing downstream. Asks for confirmation "
           "and is written to the audit log"));
    // Red bold text that reads on light and dark buttons; a palette role, so the style still draws the button.
    QPalette skipPalette = skip_->palette();
    skipPalette.setColor(QPalette::Active, QPalette::ButtonText, QColor(229, 57, 53));
    skipPalette.setColor(QPalette::Inactive, QPalette::ButtonText, QColor(229, 57, 53));
    skip_->setPalette(skipPalette);
    QFont skipFont = skip_->font();
    skipFont.setBold(true);
    skip_->setFont(skipFont);
    copy_ = new QPushButton(tr("&Copy details"), this);
    copy_->setToolTip(tr("Copy the error, position, rows, SQL and hint as text"));
    browse_ = new QPushButton(tr("&Browse around"), this);
    browse_->setToolTip(tr("Open the event browser at this event: the transactions before and after it"));
    buttons->addWidget(retry_);
    buttons->addWidget(skip_);
    buttons->addStretch();
    buttons->addWidget(browse_);
    buttons->addWidget(copy_);

    layout->addWidget(error_);
    layout->addWidget(where_);
    layout->addWidget(hint_);
    layout->addWidget(new QLabel(tr("Rows:"), this));
    layout->addWidget(rows_, 1);
    layout->addWidget(new QLabel(tr("SQL:"), this));
    layout->addWidget(sql_);
    layout->addLayout(buttons);

    connect(retry_, &QPushButton::clicked, this, &FailedEventPanel::retryRequested);
    connect(skip_, &QPushButton::clicked, this, &FailedEventPanel::askToSkip);
    connect(copy_, &QPushButton::clicked, this, &FailedEventPanel::copyDetails);
    connect(browse_, &QPushButton::clicked, this, [this] {
        if (event_ && event_->position.known()) {
            emit browseRequested(QString::fromStdString(event_->position.file), event_->position.pos);
        }
    });
    setFailedEvent(std::nullopt);
}

void FailedEventPanel::setFailedEvent(const std::optional<task::FailedEvent>& event) {
    event_ = event;
    for (QWidget* widget : std::initializer_list<QWidget*>{retry_, skip_, copy_, browse_}) {
        widget->setEnabled(event_.has_value());
    }
    if (!event_) {
        error_->setText(tr("No failed event: the task has not stopped on an error."));
        where_->clear();
        hint_->hide();
        rows_->clear();
        rows_->setRowCount(0);
        rows_->setColumnCount(0);
        sql_->clear();
        return;
    }
    const auto& e = *event_;
    error_->setText(tr("<span style='color:#c62828; font-size:large'><b>Error %1</b></span> &nbsp; %2 "
                       "<br><i>%3</i>")
                        .arg(e.errorCode)
                        .arg(QString::fromStdString(e.errorMessage).toHtmlEscaped(),
                             QString::fromStdString(e.errorClass).toHtmlEscaped()));
    QString where = tr("<b>%1</b> on <b>%2</b> at %3")
                        .arg(QString::fromStdString(e.operation).toUpper(), qualified(e).toHtmlEscaped(),
                             pointText(e.position).toHtmlEscaped());
    if (!e.position.gtid.empty()) {
        where += tr(" (GTID %1)").arg(QString::fromStdString(e.position.gtid).toHtmlEscaped());
    }
    where_->setText(where);
    hint_->setVisible(!e.hint.empty());
    hint_->setText(tr("<b>Hint:</b> %1").arg(QString::fromStdString(e.hint).toHtmlEscaped()));

    const size_t images = std::max(e.before.size(), e.after.size());
    const bool hasBefore = !e.before.empty();
    const bool hasAfter = !e.after.empty();
    rows_->clear();
    rows_->setColumnCount(int(e.columns.size()));
    QStringList headers;
    for (const auto& column : e.columns) {
        headers << QString::fromStdString(column);
    }
    rows_->setHorizontalHeaderLabels(headers);
    QStringList rowLabels;
    QList<const task::RowImageView*> ordered;
    for (size_t i = 0; i < images; ++i) {
        if (hasBefore && i < e.before.size()) {
            rowLabels << tr("before #%1").arg(i + 1);
            ordered << &e.before[i];
        }
        if (hasAfter && i < e.after.size()) {
            rowLabels << (hasBefore ? tr("after #%1").arg(i + 1) : tr("row #%1").arg(i + 1));
            ordered << &e.after[i];
        }
    }
    rows_->setRowCount(int(ordered.size()));
    rows_->setVerticalHeaderLabels(rowLabels);
    for (int row = 0; row < ordered.size(); ++row) {
        const auto& values = ordered[row]->values;
        for (int column = 0; column < int(values.size()) && column < rows_->columnCount(); ++column) {
            auto* item = new QTableWidgetItem(cellText(values[size_t(column)]));
            if (!values[size_t(column)]) {
                item->setForeground(palette().color(QPalette::PlaceholderText));
            }
            rows_->setItem(row, column, item);
        }
    }
    rows_->resizeColumnsToContents();
    sql_->setPlainText(QString::fromStdString(e.sql));
}

QString FailedEventPanel::skipConfirmationText() const {
    return event_ ? qualified(*event_) : QString();
}

QString FailedEventPanel::detailsText() const {
    if (!event_) {
        return {};
    }
    const auto& e = *event_;
    QStringList lines;
    lines << tr("Error %1: %2 (%3)")
                 .arg(e.errorCode)
                 .arg(QString::fromStdString(e.errorMessage), QString::fromStdString(e.errorClass));
    lines << tr("Event: %1 on %2 at %3").arg(QString::fromStdString(e.operation), qualified(e), pointText(e.position));
    if (!e.position.gtid.empty()) {
        lines << tr("GTID: %1").arg(QString::fromStdString(e.position.gtid));
    }
    QStringList columns;
    for (const auto& column : e.columns) {
        columns << QString::fromStdString(column);
    }
    lines << tr("Columns: %1").arg(columns.join(QStringLiteral(", ")));
    auto image = [](const task::RowImageView& row) {
        QStringList values;
        for (const auto& value : row.values) {
            values << cellText(value);
        }
        return values.join(QStringLiteral(", "));
    };
    for (size_t i = 0; i < e.before.size(); ++i) {
        lines << tr("Before #%1: %2").arg(i + 1).arg(image(e.before[i]));
    }
    for (size_t i = 0; i < e.after.size(); ++i) {
        lines << tr("After #%1: %2").arg(i + 1).arg(image(e.after[i]));
    }
    lines << tr("SQL: %1").arg(QString::fromStdString(e.sql));
    if (!e.hint.empty()) {
        lines << tr("Hint: %1").arg(QString::fromStdString(e.hint));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

void FailedEventPanel::copyDetails() {
    QApplication::clipboard()->setText(detailsText());
}

void FailedEventPanel::askToSkip() {
    if (!event_) {
        return;
    }
    SkipEventDialog dialog(detailsText(), skipConfirmationText(), this);
    if (dialog.exec() == QDialog::Accepted) {
        emit skipConfirmed();
    }
}

}  // namespace syncscope::ui
