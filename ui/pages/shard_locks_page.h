// The Shard locks page (shard-mode): each shard DDL lock of the task with its shard tables, those waited for
// marked, and a line per lock on where it stands; a sentence instead of the table when no lock is held.
#pragma once

#include <QWidget>

class QLabel;
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
};

}  // namespace syncscope::ui
