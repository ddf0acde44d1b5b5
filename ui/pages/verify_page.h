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
#include "engine/verify/verify_result.h"
#include "ui/engine/verify_runner.h"

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableView;

namespace syncscope::ui {

class VerifyResultsModel;
class VerifyRunner;

class VerifyPage : public QWidget {
    Q_OBJECT

public:
    explicit VerifyPage(QWidget* parent = nullptr);

    // The task whose tables Start verifies; empty files disable it.
    void setTask(const QString& taskFile, const QString& sourceFile, std::shared_ptr<task::TaskControl> task);
    const QString& sourceFile() const { return sourceFile_; }  // the one source a verify reads
    VerifyRunner* runner() const { return runner_; }
    VerifyResultsModel* model() const { return model_; }
    QTableView* view() const { return view_; }
    QPlainTextEdit* details() const { return details_; }

    // Where repairs are audited (the task's audit log); without one, Apply repair stays disabled.
    void setAuditPath(const QString& path);
    QPushButton* repairButton() const { return repairButton_; }
    QLabel* summary() const { return summary_; }

    void startVerify();
    // Shows the results `syncscope-cli verify` left in FILE (<log-dir>/<task>-verify.json) as a verify run here
    // (tables, differing rows, repair SQL; Apply repair verifies them again first). False, with the reason in
    // the summary line, when the file cannot be read; what was shown stays.
    bool loadSavedResults(const QString& file);
    void saveRepairSql(const QString& file);
    // Asks for confirmation (the question, and whether tables without a key may be repaired too), then
    // starts the repair of the tables that differ. False when there is nothing to repair or the DBA said no.
    bool applyRepair();

    // How applyRepair asks: the question's text, whether tables without a key are among them; returns
    // whether to go on and sets *includeKeyless. A message box unless a test replaces it.
    using RepairConfirmation = std::function<bool(const QString& question, bool hasKeyless, bool* includeKeyless)>;
    void setRepairConfirmation(RepairConfirmation confirm) { confirm_ = std::move(confirm); }

signals:
    // A verify's results read from a file: shown on the checkpoints page and the ruler like a finished run.
    void savedResultsLoaded(const syncscope::ui::VerifyProgress& progress);

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
    QPushButton* loadButton_;
    std::vector<verify::TableVerifyResult> shownTables_;  // what the table shows: the last run, or a loaded file
};

}  // namespace syncscope::ui
