// Task > Stop at a point...: the point typed (FILE:POS, a GTID, or a time), checked before it is set: a point
// that is none, or one the task has already passed, is refused with the reason; else the upstream's binlog is
// read from the task's applied point on a worker thread (copies only, never this) and the dialog shows where the
// task will pause and what it applies first (nothing is skipped). Set works only once the checked point is typed
// again below.
#pragma once

#include <QDialog>
#include <QFutureWatcher>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include "engine/preview/stop_point_plan.h"

class QLabel;
class QLineEdit;
class QPushButton;

namespace syncscope::ui {

using StopPointJob = std::function<preview::StopPointPlan(const std::string& point, const std::atomic<bool>* cancel)>;

struct StopPointCheck {
    std::optional<preview::StopPointPlan> plan;
    std::string error;  // the binlog could not be read
};

class StopPointDialog : public QDialog {
    Q_OBJECT

public:
    StopPointDialog(const QString& point, StopPointJob job, QWidget* parent = nullptr);
    ~StopPointDialog() override;

    QLineEdit* pointEdit() const { return point_; }
    QPushButton* checkButton() const { return check_; }
    QLabel* planLabel() const { return plan_; }
    QLineEdit* confirmationEdit() const { return typed_; }
    QPushButton* setButton() const { return set_; }
    bool isBusy() const { return watcher_.isRunning() || pending_; }
    bool isRefused() const { return refused_; }
    // The point that was checked (and is set on accept()).
    const QString& checkedPoint() const { return checked_; }

    // Sets nothing unless the point was checked, not refused, and typed again.
    void accept() override;

signals:
    void planShown();

private:
    void startCheck();
    void onChecked();
    bool confirmable() const;

    StopPointJob job_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    QFutureWatcher<StopPointCheck> watcher_;
    bool pending_ = false;  // a check was started and its answer is not shown yet
    bool refused_ = false;
    QString checked_;
    QLineEdit* point_ = nullptr;
    QPushButton* check_ = nullptr;
    QLabel* plan_ = nullptr;
    QLabel* ask_ = nullptr;
    QLineEdit* typed_ = nullptr;
    QPushButton* set_ = nullptr;
};

}  // namespace syncscope::ui
