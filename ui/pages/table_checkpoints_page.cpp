#include "ui/pages/table_checkpoints_page.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/models/checkpoint_anomaly.h"
#include "ui/models/table_checkpoint_filter_proxy.h"
#include "ui/models/table_checkpoint_model.h"

namespace syncscope::ui {

namespace {
constexpr int kNameColumnWidth = 110;
constexpr int kVerifiedColumnWidth = 130;  // the full text is in the cell's tooltip
constexpr int kCellPadding = 16;
// The widest texts the columns hold in practice: a position 10 GiB into a file, a count in the billions.
const char* const kWidestPoint = "mariadb-bin.000001:10737418240";
const char* const kWidestCount = "9,999,999,999";
const char* const kWidestTime = "2026-12-31 23:59:59";

QString csvField(const QString& text) {
    if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')) || text.contains(QLatin1Char('\n'))) {
        QString quoted = text;
        quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
        return QLatin1Char('"') + quoted + QLatin1Char('"');
    }
    return text;
}
}  // namespace

TableCheckpointsPage::TableCheckpointsPage(TableCheckpointModel* model, QWidget* parent)
    : QWidget(parent), model_(model), proxy_(new TableCheckpointFilterProxy(this)) {
    proxy_->setSourceModel(model_);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    filter_ = new QLineEdit(this);
    filter_->setPlaceholderText(tr("Filter schema.table"));
    filter_->setClearButtonEnabled(true);
    filter_->setToolTip(tr("Show only the tables whose schema.table contains this text (case-insensitive)"));
    onlyAnomalies_ = new QCheckBox(tr("Only &anomalies"), this);
    onlyAnomalies_->setToolTip(
        tr("Show only table points ahead of the global point, beyond the upstream, or in a "
           "purged binlog file"));
    verifiedFilter_ = new QComboBox(this);
    // In TableCheckpointFilterProxy::VerifiedFilter order.
    verifiedFilter_->addItem(tr("Verified or not"));
    verifiedFilter_->addItem(tr("Unverified"));
    verifiedFilter_->addItem(tr("With differences"));
    verifiedFilter_->setToolTip(
        tr("Filter on the last verify: tables never verified, or tables whose verify found differences "
           "(or failed, or was cancelled)"));
    auto* copy = new QPushButton(tr("&Copy"), this);
    copy->setToolTip(tr("Copy the selected rows (or all shown rows) as tab-separated text"));
    auto* exportButton = new QPushButton(tr("&Export CSV..."), this);
    exportButton->setToolTip(tr("Save the shown rows as CSV, with raw numbers"));
    summary_ = new QLabel(this);
    summary_->setToolTip(tr("Tables shown, and how many checkpoints are flagged"));
    bar->addWidget(filter_, 1);
    bar->addWidget(onlyAnomalies_);
    bar->addWidget(verifiedFilter_);
    bar->addWidget(summary_);
    bar->addStretch();
    bar->addWidget(copy);
    bar->addWidget(exportButton);
    layout->addLayout(bar);

    view_ = new QTableView(this);
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->sortByColumn(TableCheckpointModel::BytesFromGlobalColumn, Qt::DescendingOrder);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setAlternatingRowColors(true);
    view_->setWordWrap(false);
    view_->verticalHeader()->hide();
    view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 6);
    view_->horizontalHeader()->setStretchLastSection(true);
    // A position too wide for its cell loses the start of its file name, never digits of the position.
    view_->setTextElideMode(Qt::ElideLeft);
    // Sized to what the columns hold (measured once: sizing to the rows would read 10,000 of them).
    const QFontMetrics metrics = view_->fontMetrics();
    const int pointWidth = metrics.horizontalAdvance(QString::fromLatin1(kWidestPoint)) + kCellPadding;
    const int countWidth = metrics.horizontalAdvance(QString::fromLatin1(kWidestCount)) + kCellPadding;
    view_->setColumnWidth(TableCheckpointModel::SchemaColumn, kNameColumnWidth);
    view_->setColumnWidth(TableCheckpointModel::TableColumn, kNameColumnWidth);
    view_->setColumnWidth(TableCheckpointModel::InMemoryColumn, pointWidth);
    view_->setColumnWidth(TableCheckpointModel::PersistedColumn, pointWidth);
    for (int column : {TableCheckpointModel::BytesFromGlobalColumn, TableCheckpointModel::EventsFromGlobalColumn,
                       TableCheckpointModel::RowsAppliedColumn, TableCheckpointModel::RowsUnmatchedColumn}) {
        view_->setColumnWidth(column, countWidth);
    }
    view_->setColumnWidth(TableCheckpointModel::LastChangeColumn,
                          metrics.horizontalAdvance(QString::fromLatin1(kWidestTime)) + kCellPadding);
    view_->setColumnWidth(TableCheckpointModel::VerifiedColumn, kVerifiedColumnWidth);
    // A running change's one line, for a table name of common length (the tooltip has all of it).
    view_->setColumnWidth(
        TableCheckpointModel::OnlineChangeColumn,
        metrics.horizontalAdvance(QStringLiteral("pt-osc _orders_new: 1,234,567 rows copied, waiting for the swap")) +
            kCellPadding);
    int flagWidth = 0;
    for (auto anomaly : {CheckpointAnomaly::AheadOfGlobal, CheckpointAnomaly::BeyondUpstream,
                         CheckpointAnomaly::FilePurged, CheckpointAnomaly::AheadForShardLock}) {
        flagWidth = std::max(flagWidth, metrics.horizontalAdvance(anomalyLabel(anomaly)));
    }
    // The flag's icon is as high as a line of text, and square.
    view_->setColumnWidth(TableCheckpointModel::FlagColumn, flagWidth + metrics.height() + kCellPadding);
    // Every column at least as wide as its title (with the sort arrow, as the style draws it), so that
    // no title is cut off.
    for (int column = 0; column < TableCheckpointModel::ColumnCount; ++column) {
        view_->setColumnWidth(column,
                              std::max(view_->columnWidth(column), view_->horizontalHeader()->sectionSizeHint(column)));
    }
    // The flag, the last verify and a running schema change right after the table's name, where a
    // 1280-pixel window shows them without scrolling (the model keeps its order, so copies and CSV keep
    // their columns).
    view_->horizontalHeader()->moveSection(TableCheckpointModel::FlagColumn, TableCheckpointModel::TableColumn + 1);
    view_->horizontalHeader()->moveSection(TableCheckpointModel::VerifiedColumn, TableCheckpointModel::TableColumn + 2);
    view_->horizontalHeader()->moveSection(TableCheckpointModel::OnlineChangeColumn,
                                           TableCheckpointModel::TableColumn + 3);
    view_->setToolTip(
        tr("Table checkpoints. Red rows are ahead of the global point: hover them to see which "
           "events a resume would skip"));
    layout->addWidget(view_, 1);

    auto* copyAction = new QAction(tr("Copy"), view_);
    copyAction->setShortcut(QKeySequence::Copy);
    copyAction->setToolTip(tr("Copy the selected rows to the clipboard"));
    copyAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    view_->addAction(copyAction);
    connect(copyAction, &QAction::triggered, this, &TableCheckpointsPage::copySelection);

    connect(filter_, &QLineEdit::textChanged, proxy_, &TableCheckpointFilterProxy::setNameFilter);
    connect(onlyAnomalies_, &QCheckBox::toggled, proxy_, &TableCheckpointFilterProxy::setOnlyAnomalies);
    connect(verifiedFilter_, &QComboBox::currentIndexChanged, proxy_, [this](int index) {
        proxy_->setVerifiedFilter(static_cast<TableCheckpointFilterProxy::VerifiedFilter>(index));
    });
    connect(copy, &QPushButton::clicked, this, &TableCheckpointsPage::copySelection);
    connect(exportButton, &QPushButton::clicked, this, &TableCheckpointsPage::exportCsvWithDialog);
    connect(proxy_, &QAbstractItemModel::modelReset, this, &TableCheckpointsPage::updateSummary);
    connect(proxy_, &QAbstractItemModel::layoutChanged, this, &TableCheckpointsPage::updateSummary);
    connect(proxy_, &QAbstractItemModel::rowsInserted, this, &TableCheckpointsPage::updateSummary);
    connect(proxy_, &QAbstractItemModel::rowsRemoved, this, &TableCheckpointsPage::updateSummary);
    connect(model_, &QAbstractItemModel::dataChanged, this, &TableCheckpointsPage::updateSummary);
    updateSummary();
}

bool TableCheckpointsPage::selectTable(const QString& schema, const QString& table) {
    for (int row = 0; row < proxy_->rowCount(); ++row) {
        const QModelIndex schemaIndex = proxy_->index(row, TableCheckpointModel::SchemaColumn);
        const QModelIndex tableIndex = proxy_->index(row, TableCheckpointModel::TableColumn);
        if (schemaIndex.data(TableCheckpointModel::ExportRole).toString() == schema &&
            tableIndex.data(TableCheckpointModel::ExportRole).toString() == table) {
            view_->selectRow(row);
            view_->scrollTo(tableIndex, QAbstractItemView::PositionAtCenter);
            return true;
        }
    }
    return false;
}

void TableCheckpointsPage::updateSummary() {
    QString text = tr("%1 of %2 tables").arg(proxy_->rowCount()).arg(model_->rowCount());
    if (model_->aheadCount() > 0) {
        text += tr(", <span style='color:#d32f2f'><b>%1 ahead of global</b></span>").arg(model_->aheadCount());
    }
    if (model_->aheadForShardLockCount() > 0) {
        text += tr(", %1 ahead while a shard DDL lock holds the global point").arg(model_->aheadForShardLockCount());
    }
    if (model_->anomalyCount() > model_->aheadCount()) {
        text += tr(", %1 other anomalies").arg(model_->anomalyCount() - model_->aheadCount());
    }
    if (!model_->verifications().isEmpty()) {
        int verified = 0;
        int attention = 0;
        for (int row = 0; row < model_->rowCount(); ++row) {
            if (const TableVerification* verification = model_->verificationAt(row)) {
                ++verified;
                attention += verification->needsAttention() ? 1 : 0;
            }
        }
        text += tr(", %1 verified").arg(verified);
        if (attention > 0) {
            text += tr(", <span style='color:#d32f2f'><b>%1 with differences</b></span>").arg(attention);
        }
    }
    summary_->setText(text);
}

QString TableCheckpointsPage::rowsText(const QList<int>& proxyRows, QChar separator, bool quote) const {
    QStringList lines;
    QStringList header;
    for (int column = 0; column < TableCheckpointModel::ColumnCount; ++column) {
        header << proxy_->headerData(column, Qt::Horizontal).toString();
    }
    lines << header.join(separator);
    for (int row : proxyRows) {
        QStringList fields;
        for (int column = 0; column < TableCheckpointModel::ColumnCount; ++column) {
            const QString text = proxy_->index(row, column).data(TableCheckpointModel::ExportRole).toString();
            fields << (quote ? csvField(text) : text);
        }
        lines << fields.join(separator);
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

QString TableCheckpointsPage::selectedRowsText() const {
    QList<int> rows;
    for (const QModelIndex& index : view_->selectionModel()->selectedRows()) {
        rows << index.row();
    }
    if (rows.isEmpty()) {
        for (int row = 0; row < proxy_->rowCount(); ++row) {
            rows << row;
        }
    }
    std::sort(rows.begin(), rows.end());
    return rowsText(rows, QLatin1Char('\t'), false);
}

QString TableCheckpointsPage::visibleRowsCsv() const {
    QList<int> rows;
    for (int row = 0; row < proxy_->rowCount(); ++row) {
        rows << row;
    }
    return rowsText(rows, QLatin1Char(','), true);
}

bool TableCheckpointsPage::exportCsv(const QString& path, QString* error) const {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text)) {
        *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    const QByteArray csv = visibleRowsCsv().toUtf8();
    if (file.write(csv) != csv.size()) {
        *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void TableCheckpointsPage::copySelection() {
    QApplication::clipboard()->setText(selectedRowsText());
}

void TableCheckpointsPage::exportCsvWithDialog() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export table checkpoints"),
                                                      QStringLiteral("table-checkpoints.csv"), tr("CSV (*.csv)"));
    if (path.isEmpty()) {
        return;
    }
    QString error;
    if (!exportCsv(path, &error)) {
        QMessageBox::warning(this, tr("Export failed"), error);
    }
}

}  // namespace syncscope::ui
