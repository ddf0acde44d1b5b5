// The Shard locks page (shard-mode): each shard DDL lock of the task with its shard tables, those waited for
// marked, and a line per lock on where it stands; a sentence instead of the table when no lock is held.
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QStackedWidget;
class QTableView;

namespace syncscope::ui {

class ShardLockModel;

class ShardLocksPage : public QWidget {
    Q_OBJECT

public:
    explicit ShardLocksPage(ShardLockModel* model, QWidget* parent = nullptr);

    QTableView* view() const { return view_; }
    // The line per lock above the table ("Shard DDL lock on sm.t waits for 1 of 3 shard tables ..."), or the
    // sentence shown instead of the table.
    QString summaryText() const;
    bool showsEmptyText() const;

signals:
    // The DBA asked to unlock the waiting lock on the merged table TARGET ("schema.table").
    void unlockRequested(const QString& target);

public slots:
    void updateSummary();

private:
    void fitColumns();

    ShardLockModel* model_;
    QLabel* summary_ = nullptr;
    QLabel* why_ = nullptr;
    QStackedWidget* stack_ = nullptr;
    QTableView* view_ = nullptr;
    QLabel* empty_ = nullptr;
    QPushButton* unlock_ = nullptr;

public:
    QPushButton* unlockButton() const { return unlock_; }
    // The merged table of the selected row's lock when it waits ("" otherwise): what Unlock acts on.
    QString selectedWaitingTarget() const;
};

}  // namespace syncscope::ui
