// The Verify tab: compares the open task's tables upstream against downstream (engine/verify), with a
// progress bar and ETA, one row per table (outcome, verified at, chunks, rows, differences), the
// differing rows and the repair SQL of the selected table, a button to save that SQL for review, and
// Apply repair: after an explicit confirmation (tables without a key confirmed separately) the tables
// that differ are verified again and repaired through the task's apply path, each repair audited, as
// `syncscope-cli verify --repair` does.
#pragma once

#include <QWidget>

#include <functional>
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

    // Where repairs are audited (the task's audit log); without one, Apply repair stays disabled.
    void setAuditPath(const QString& path);
    QPushButton* repairButton() const { return repairButton_; }
    QLabel* summary() const { return summary_; }

    void startVerify();
    void saveRepairSql(const QString& file);
    // Asks for confirmation (the question, and whether tables without a key may be repaired too), then
    // starts the repair of the tables that differ. False when there is nothing to repair or the DBA said no.
    bool applyRepair();

    // How applyRepair asks: the question's text, whether tables without a key are among them; returns
    // whether to go on and sets *includeKeyless. A message box unless a test replaces it.
    using RepairConfirmation = std::function<bool(const QString& question, bool hasKeyless, bool* includeKeyless)>;
    void setRepairConfirmation(RepairConfirmation confirm) { confirm_ = std::move(confirm); }

private:
    void showProgress(const VerifyProgress& progress);
    void showDetails();
    bool askToRepair(const QString& question, bool hasKeyless, bool* includeKeyless);

    QString taskFile_;
    QString sourceFile_;
    std::shared_ptr<task::TaskControl> task_;
    QString auditPath_;
    RepairConfirmation confirm_;
    VerifyRunner* runner_;
    VerifyResultsModel* model_;
    QPushButton* startButton_;
    QPushButton* cancelButton_;
    QPushButton* saveButton_;
    QPushButton* repairButton_;
    QProgressBar* bar_;
    QLabel* summary_;
    QTableView* view_;
    QPlainTextEdit* details_;
};

}  // namespace syncscope::ui
