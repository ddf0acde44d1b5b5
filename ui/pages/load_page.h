// The snapshot load page (task-mode all and full): DM's unit (Dump, Load, Sync), a total bar with
// rate and ETA, the snapshot point, and one sortable row per table with its own progress bar and the
// chunks being copied now. It says what pause, resume and stop do during the load.
#pragma once

#include <QWidget>
#include <memory>

#include "engine/task/status_snapshot.h"

class QLabel;
class QProgressBar;
class QSortFilterProxyModel;
class QTableView;

namespace syncscope::ui {

class LoadProgressModel;

class LoadPage : public QWidget {
    Q_OBJECT

public:
    LoadPage(LoadProgressModel* model, QWidget* parent = nullptr);

    void setSnapshot(const std::shared_ptr<const task::StatusSnapshot>& snapshot);
    QTableView* view() const { return view_; }
    QProgressBar* totalBar() const { return total_; }
    QString summaryText() const;

private:
    LoadProgressModel* model_;
    QSortFilterProxyModel* proxy_;
    QLabel* unit_ = nullptr;
    QLabel* summary_ = nullptr;
    QLabel* controls_ = nullptr;
    QProgressBar* total_ = nullptr;
    QTableView* view_ = nullptr;
};

}  // namespace syncscope::ui
