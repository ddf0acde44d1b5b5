// The log lines of the engine and the task's notices, newest last, capped so that a long run keeps a
// bounded memory: the oldest lines go first. Lines arrive in batches drained on the GUI's timer.
#pragma once

#include <QAbstractTableModel>
#include <QDateTime>
#include <deque>
#include <vector>

#include "engine/common/log_ring.h"

namespace syncscope::ui {

class LogModel : public QAbstractTableModel {
    Q_OBJECT

public:
    static constexpr int kDefaultCap = 20000;

    enum Column { TimeColumn, LevelColumn, PartColumn, MessageColumn, ColumnCount };
    enum Role {
        LevelRole = Qt::UserRole,  // int(LogLevel)
        TimeRole,                  // msecs since the epoch
    };
    Q_ENUM(Role)

    explicit LogModel(QObject* parent = nullptr, int cap = kDefaultCap);

    void appendLines(const std::vector<LogLine>& lines);
    // Lines the ring dropped before the GUI drained them; shown as one warning line.
    void noteDropped(uint64_t count);
    void clear();
    int cap() const { return cap_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Entry {
        QDateTime at;
        LogLevel level;
        QString part;
        QString message;
    };

    void appendEntries(std::vector<Entry> entries);

    int cap_;
    std::deque<Entry> entries_;
};

}  // namespace syncscope::ui
