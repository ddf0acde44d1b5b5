// The header above every view: the stage badge, lag, how far behind, the tables ahead of the global
// point, rows per second, safe mode and how old the shown data is, so that a DBA sees where the task
// stands without opening anything.
#pragma once

#include <QWidget>
#include <memory>
#include <vector>

#include "engine/task/status_snapshot.h"

class QLabel;

namespace syncscope::ui {

class StageBadge;

class StatusHeader : public QWidget {
    Q_OBJECT

public:
    // Data older than this is shown as stale: the engine stopped publishing or the GUI fell behind.
    static constexpr double kStaleSeconds = 3.0;

    explicit StatusHeader(QWidget* parent = nullptr);

    void setSnapshot(std::shared_ptr<const task::StatusSnapshot> snapshot);
    // Recomputes the age of the shown data against the wall clock.
    void refreshAge();

    QString lagText() const;
    // "1.2 MiB, 340 rows queued": binlog bytes from the applied point to the upstream's end, and rows
    // read but not applied.
    QString behindText() const;
    // "none", or how many tables are ahead of the global point and the farthest ("2 tables, shop.t8
    // +1.1 MiB"); the details say what a resume would skip, table by table.
    QString aheadText() const;
    QString aheadDetails() const;
    QString rowsText() const;
    bool hasRun() const;
    QString safeModeText() const;
    // "3 of 4 (max 16)": downstream transactions open now, allowed now, worker-count; the tooltip
    // says why the limit is what it is.
    QString workersText() const;
    QString workersReason() const;
    QString ageText() const;
    // The line under the task's name: why the stage is what it is, or the binlog connection being resumed.
    QString reasonText() const;
    StageBadge* badge() const { return badge_; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void elideReason();
    QWidget* addField(const QString& title, const QString& tooltip, QLabel** valueLabel);
    // Once per snapshot: the tables ahead of the global point, the farthest first (as far as listed).
    void collectTablesAhead();

    std::shared_ptr<const task::StatusSnapshot> snapshot_;
    StageBadge* badge_ = nullptr;
    QLabel* taskName_ = nullptr;
    QLabel* reason_ = nullptr;
    QString reasonShown_;  // the whole line; the label shows as much as fits
    QLabel* lag_ = nullptr;
    QLabel* behind_ = nullptr;
    QLabel* ahead_ = nullptr;
    std::vector<const task::TablePointView*> tablesAhead_;  // into snapshot_
    size_t aheadForShardLock_ = 0;                          // of them, ahead of a point a shard DDL lock holds
    QLabel* rows_ = nullptr;
    QLabel* workers_ = nullptr;
    QLabel* safeMode_ = nullptr;
    QLabel* age_ = nullptr;
    QLabel* persisted_ = nullptr;
};

}  // namespace syncscope::ui
