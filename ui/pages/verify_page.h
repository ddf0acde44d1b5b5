// The Verify tab: compares the open task's tables upstream against downstream (engine/verify), with a
// progress bar and ETA, one row per table (outcome, verified at, chunks, rows, differences), the
// differing rows and the repair SQL of the selected table, and a button to save that SQL for review.
// Nothing is applied from here: `syncscope-cli verify --repair` applies a reviewed repair.
#pragma once

#include <QWidget>

#include <memory>

#include "engine/task/task_control.h"

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableView;

namespace syncscope::ui {

class VerifyResultsModel;
class VerifyRunner;
struct VerifyProgress;

class VerifyPage : public QWidget {
    Q_OBJECT

public:
    explicit VerifyPage(QWidget* parent = nullptr);

    // The task whose tables Start verifies; empty files disable it.
    void setTask(const QString& taskFile, const QString& sourceFile, std::shared_ptr<task::TaskControl> task);
    VerifyRunner* runner() const { return runner_; }
    VerifyResultsModel* model() const { return model_; }
    QTableView* view() const { return view_; }
    QPlainTextEdit* details() const { return details_; }

    void startVerify();
    void saveRepairSql(const QString& file);

private:
    void showProgress(const VerifyProgress& progress);
    void showDetails();

    QString taskFile_;
    QString sourceFile_;
    std::shared_ptr<task::TaskControl> task_;
    VerifyRunner* runner_;
    VerifyResultsModel* model_;
    QPushButton* startButton_;
    QPushButton* cancelButton_;
    QPushButton* saveButton_;
    QProgressBar* bar_;
    QLabel* summary_;
    QTableView* view_;
    QPlainTextEdit* details_;
};

}  // namespace syncscope::ui
