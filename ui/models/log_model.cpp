#include "ui/models/log_model.h"

#include <QColor>

#include "ui/models/column_titles.h"

namespace syncscope::ui {

namespace {
const QColor kErrorColor(211, 47, 47);
const QColor kWarningColor(200, 130, 0);

QDateTime toDateTime(const std::chrono::system_clock::time_point& at) {
    return QDateTime::fromMSecsSinceEpoch(
        std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count());
}
}  // namespace

LogModel::LogModel(QObject* parent, int cap) : QAbstractTableModel(parent), cap_(std::max(cap, 1)) {}

void LogModel::appendLines(const std::vector<LogLine>& lines) {
    std::vector<Entry> entries;
    entries.reserve(lines.size());
    for (const auto& line : lines) {
        entries.push_back({toDateTime(line.at), line.level, QString::fromStdString(line.logger),
                           QString::fromStdString(line.message)});
    }
    appendEntries(std::move(entries));
}

void LogModel::noteDropped(uint64_t count) {
    if (count == 0) {
        return;
    }
    appendEntries({{QDateTime::currentDateTime(), LogLevel::Warning, tr("log"),
                    tr("%n log line(s) were dropped before the GUI could show them", nullptr, int(count))}});
}

void LogModel::appendEntries(std::vector<Entry> entries) {
    if (entries.empty()) {
        return;
    }
    // A batch larger than the cap keeps only its newest lines.
    if (entries.size() > size_t(cap_)) {
        entries.erase(entries.begin(), entries.end() - cap_);
    }
    const size_t overflow =
        entries_.size() + entries.size() > size_t(cap_) ? entries_.size() + entries.size() - size_t(cap_) : 0;
    if (overflow > 0) {
        beginRemoveRows({}, 0, int(overflow) - 1);
        entries_.erase(entries_.begin(), entries_.begin() + qsizetype(overflow));
        endRemoveRows();
    }
    const int first = int(entries_.size());
    beginInsertRows({}, first, first + int(entries.size()) - 1);
    for (auto& entry : entries) {
        entries_.push_back(std::move(entry));
    }
    endInsertRows();
}

void LogModel::clear() {
    beginResetModel();
    entries_.clear();
    endResetModel();
}

int LogModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(entries_.size());
}

int LogModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LogModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(entries_.size())) {
        return {};
    }
    const Entry& entry = entries_[size_t(index.row())];
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case TimeColumn:
                    return entry.at.toString(QStringLiteral("HH:mm:ss.zzz"));
                case LevelColumn:
                    return QString::fromLatin1(logLevelName(entry.level));
                case PartColumn:
                    return entry.part;
                case MessageColumn:
                    return entry.message;
                default:
                    return {};
            }
        case Qt::ToolTipRole:
            return index.column() == MessageColumn ? entry.message : entry.at.toString(Qt::ISODateWithMs);
        case Qt::ForegroundRole:
            if (entry.level >= LogLevel::Error) {
                return kErrorColor;
            }
            if (entry.level == LogLevel::Warning) {
                return kWarningColor;
            }
            return {};
        case LevelRole:
            return int(entry.level);
        case TimeRole:
            return entry.at.toMSecsSinceEpoch();
        default:
            return {};
    }
}

QVariant LogModel::headerData(int section, Qt::Orientation orientation, int role) const {
    // In Column order.
    return columnTitle({tr("Time"), tr("Level"), tr("Part"), tr("Message")}, section, orientation, role);
}

}  // namespace syncscope::ui
