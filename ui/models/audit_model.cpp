#include "ui/models/audit_model.h"

#include <QColor>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include "ui/models/column_titles.h"

namespace syncscope::ui {

namespace {

const QColor kUnreadableColor(211, 47, 47);

QString valueText(const QJsonValue& value) {
    if (value.isString()) {
        return value.toString();
    }
    if (value.isDouble()) {
        return QString::number(value.toDouble(), 'g', 17);
    }
    if (value.isBool()) {
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    }
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        // A position object written as {file, pos, gtid}.
        if (object.contains(QStringLiteral("file"))) {
            QString text = object.value(QStringLiteral("file")).toString() + QLatin1Char(':') +
                           valueText(object.value(QStringLiteral("pos")));
            const QString gtid = object.value(QStringLiteral("gtid")).toString();
            return gtid.isEmpty() ? text : text + QStringLiteral(" (") + gtid + QLatin1Char(')');
        }
        return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
    }
    if (value.isArray()) {
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    }
    return {};
}

// The first of the keys the object has, removed from it so that the rest becomes the details.
QString take(QJsonObject& object, std::initializer_list<const char*> keys) {
    for (const char* key : keys) {
        const QString name = QString::fromLatin1(key);
        if (object.contains(name)) {
            QString text = valueText(object.value(name));
            object.remove(name);
            return text;
        }
    }
    return {};
}

}  // namespace

AuditModel::AuditModel(QObject* parent) : QAbstractTableModel(parent) {}

void AuditModel::setPath(const QString& path) {
    beginResetModel();
    path_ = path;
    readOffset_ = 0;
    linesRead_ = 0;
    partialLine_.clear();
    entries_.clear();
    endResetModel();
}

QString AuditModel::reload() {
    if (path_.isEmpty()) {
        return {};
    }
    QFile file(path_);
    if (!file.exists()) {
        return {};  // the engine creates it on the first audited action
    }
    if (!file.open(QIODevice::ReadOnly)) {
        return tr("Cannot read the audit log %1: %2").arg(path_, file.errorString());
    }
    if (file.size() < readOffset_) {
        setPath(path_);  // truncated or replaced: read it again from the start
    }
    if (!file.seek(readOffset_)) {
        return tr("Cannot seek in the audit log %1 to byte %2").arg(path_).arg(readOffset_);
    }
    const QByteArray appended = file.readAll();
    readOffset_ += appended.size();
    QByteArray text = partialLine_ + appended;
    const qsizetype lastNewline = text.lastIndexOf('\n');
    if (lastNewline < 0) {
        partialLine_ = text;
        return {};
    }
    partialLine_ = text.mid(lastNewline + 1);
    text.truncate(lastNewline);
    std::vector<Entry> added;
    for (const QByteArray& line : text.split('\n')) {
        ++linesRead_;
        if (!line.trimmed().isEmpty()) {
            added.push_back(parseLine(line, linesRead_));
        }
    }
    if (!added.empty()) {
        const int first = int(entries_.size());
        beginInsertRows({}, first, first + int(added.size()) - 1);
        entries_.insert(entries_.end(), std::make_move_iterator(added.begin()), std::make_move_iterator(added.end()));
        endInsertRows();
    }
    return {};
}

AuditModel::Entry AuditModel::parseLine(const QByteArray& line, qint64 lineNumber) {
    Entry entry;
    entry.raw = QString::fromUtf8(line);
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(line, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject()) {
        entry.unreadable = true;
        entry.action = tr("unreadable line %1").arg(lineNumber);
        entry.details = error.error != QJsonParseError::NoError
                            ? tr("%1 at character %2: %3").arg(error.errorString()).arg(error.offset).arg(entry.raw)
                            : tr("not a JSON object: %1").arg(entry.raw);
        return entry;
    }
    QJsonObject object = document.object();
    entry.time = take(object, {"time", "at", "timestamp", "ts"});
    entry.action = take(object, {"action", "event", "command", "kind"});
    entry.user = take(object, {"user", "operator"});
    entry.position = take(object, {"position", "pos", "location", "target"});
    const QString before = take(object, {"position_before"});
    const QString after = take(object, {"position_after"});
    if (entry.position.isEmpty() && (!before.isEmpty() || !after.isEmpty())) {
        entry.position = before == after || after.isEmpty() ? before : before + QStringLiteral(" \u2192 ") + after;
    }
    entry.details = QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
    return entry;
}

int AuditModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(entries_.size());
}

int AuditModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AuditModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(entries_.size())) {
        return {};
    }
    const Entry& entry = entries_[size_t(index.row())];
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case TimeColumn:
                    return entry.time;
                case ActionColumn:
                    return entry.action;
                case PositionColumn:
                    return entry.position;
                case UserColumn:
                    return entry.user;
                case DetailsColumn:
                    return entry.details;
                default:
                    return {};
            }
        case Qt::ToolTipRole:
        case RawJsonRole:
            return entry.raw;
        case Qt::ForegroundRole:
            return entry.unreadable ? QVariant(kUnreadableColor) : QVariant();
        default:
            return {};
    }
}

QVariant AuditModel::headerData(int section, Qt::Orientation orientation, int role) const {
    // In Column order.
    return columnTitle({tr("Time"), tr("User"), tr("Action"), tr("Position"), tr("Details")}, section, orientation,
                       role);
}

}  // namespace syncscope::ui
