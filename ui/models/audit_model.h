// The audit log (JSON Lines, written by the engine for every skip, resume-from and position move),
// read incrementally: each reload reads only the bytes appended since the last one.
#pragma once

#include <QAbstractTableModel>
#include <QJsonObject>
#include <vector>

namespace syncscope::ui {

class AuditModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { TimeColumn, UserColumn, ActionColumn, PositionColumn, DetailsColumn, ColumnCount };
    enum Role { RawJsonRole = Qt::UserRole };
    Q_ENUM(Role)

    explicit AuditModel(QObject* parent = nullptr);

    void setPath(const QString& path);
    QString path() const { return path_; }
    // Reads what was appended; returns an error text for a file that cannot be read (empty when fine).
    QString reload();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Entry {
        QString time;
        QString action;
        QString position;
        QString user;
        QString details;
        QString raw;
        bool unreadable = false;
    };

    static Entry parseLine(const QByteArray& line, qint64 lineNumber);

    QString path_;
    qint64 readOffset_ = 0;
    qint64 linesRead_ = 0;
    QByteArray partialLine_;
    std::vector<Entry> entries_;
};

}  // namespace syncscope::ui
