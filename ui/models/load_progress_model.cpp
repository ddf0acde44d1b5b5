#include "ui/models/load_progress_model.h"

#include <QLocale>

namespace syncscope::ui {

namespace {

constexpr double kBytesPerMegabyte = 1024.0 * 1024.0;
constexpr int kMegabyteDecimals = 1;
constexpr double kPercent = 100.0;

bool sameTables(const load::LoadProgressView& a, const load::LoadProgressView& b) {
    if (a.tables.size() != b.tables.size()) {
        return false;
    }
    for (size_t i = 0; i < a.tables.size(); ++i) {
        if (a.tables[i].schema != b.tables[i].schema || a.tables[i].table != b.tables[i].table) {
            return false;
        }
    }
    return true;
}

QString name(const std::string& schema, const std::string& table) {
    return QString::fromStdString(schema + "." + table);
}

}  // namespace

LoadProgressModel::LoadProgressModel(QObject* parent) : QAbstractTableModel(parent) {}

double LoadProgressModel::fraction(const load::TableLoadView& table) {
    if (table.chunksTotal > 0 && table.chunksDone == table.chunksTotal) {
        return 1.0;
    }
    if (table.rowsEstimated == 0) {
        return 0.0;
    }
    return std::min(1.0, static_cast<double>(table.rowsDone) / static_cast<double>(table.rowsEstimated));
}

bool LoadProgressModel::setSnapshot(const std::shared_ptr<const task::StatusSnapshot>& snapshot) {
    std::optional<load::LoadProgressView> next;
    if (snapshot && snapshot->load) {
        next = *snapshot->load;
    }
    bool inPlace = progress_ && next && sameTables(*progress_, *next) && !next->tables.empty();
    if (inPlace) {
        progress_ = std::move(next);
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    } else {
        beginResetModel();
        progress_ = std::move(next);
        endResetModel();
    }
    return progress_.has_value();
}

int LoadProgressModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !progress_ ? 0 : static_cast<int>(progress_->tables.size());
}

int LoadProgressModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LoadProgressModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !progress_ || index.row() >= rowCount()) {
        return {};
    }
    const load::TableLoadView& table = progress_->tables[static_cast<size_t>(index.row())];
    QLocale locale;
    if (role == FractionRole) {
        return fraction(table);
    }
    if (role == SortRole) {
        switch (index.column()) {
            case TableColumn:
                return name(table.schema, table.table);
            case TargetColumn:
                return name(table.targetSchema, table.targetTable);
            case ProgressColumn:
                return fraction(table);
            case RowsColumn:
                return static_cast<qulonglong>(table.rowsDone);
            case BytesColumn:
                return static_cast<qulonglong>(table.bytesDone);
            case ChunksColumn:
                return table.chunksDone;
            case CurrentColumn:
                return static_cast<int>(table.currentChunks.size());
            default:
                return {};
        }
    }
    if (role == Qt::ToolTipRole && index.column() == TableColumn && table.keyless) {
        return tr("No primary or NOT NULL unique key: copied as one stream in one transaction");
    }
    if (role == Qt::TextAlignmentRole && index.column() >= ProgressColumn && index.column() <= ChunksColumn) {
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (index.column()) {
        case TableColumn:
            return name(table.schema, table.table) + (table.keyless ? tr(" (no key)") : QString());
        case TargetColumn:
            return name(table.targetSchema, table.targetTable);
        case ProgressColumn:
            return QStringLiteral("%1 %").arg(fraction(table) * kPercent, 0, 'f', 1);
        case RowsColumn:
            return tr("%1 of ~%2")
                .arg(locale.toString(static_cast<qulonglong>(table.rowsDone)),
                     locale.toString(static_cast<qulonglong>(table.rowsEstimated)));
        case BytesColumn:
            return tr("%1 of ~%2 MB")
                .arg(static_cast<double>(table.bytesDone) / kBytesPerMegabyte, 0, 'f', kMegabyteDecimals)
                .arg(static_cast<double>(table.bytesEstimated) / kBytesPerMegabyte, 0, 'f', kMegabyteDecimals);
        case ChunksColumn:
            return QStringLiteral("%1 / %2").arg(table.chunksDone).arg(table.chunksTotal);
        case CurrentColumn: {
            QStringList chunks;
            for (const auto& chunk : table.currentChunks) {
                chunks << QString::fromStdString(chunk);
            }
            return chunks.join(QStringLiteral(", "));
        }
        default:
            return {};
    }
}

QVariant LoadProgressModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
        case TableColumn:
            return tr("Upstream table");
        case TargetColumn:
            return tr("Target");
        case ProgressColumn:
            return tr("Progress");
        case RowsColumn:
            return tr("Rows");
        case BytesColumn:
            return tr("Bytes");
        case ChunksColumn:
            return tr("Chunks");
        case CurrentColumn:
            return tr("Copying now");
        default:
            return {};
    }
}

}  // namespace syncscope::ui
