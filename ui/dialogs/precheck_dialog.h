// The precheck of a task in the GUI (New Task and Open Task): runs off the GUI thread, lists every
// finding with what is wrong, why it matters and the fix; "Copy fix" puts the fix on the clipboard,
// "Apply fix..." runs a SQL fix only after the DBA confirms the statements and the server, writes it
// to the task's audit log first, and checks again.
#pragma once

#include <QDialog>
#include <QFutureWatcher>
#include <functional>

#include "engine/precheck/precheck_report.h"
#include "engine/task/task_setup.h"

class QLabel;
class QMainWindow;
class QPushButton;
class QTableView;
class QTextBrowser;

namespace syncscope::ui {

class PrecheckFindingModel;

class PrecheckDialog : public QDialog {
    Q_OBJECT

public:
    // auditPath: where applied fixes are written (the task's audit log).
    PrecheckDialog(task::TaskSetup setup, QString auditPath, QWidget* parent = nullptr);
    ~PrecheckDialog() override;

    // The audit log of a task by that name, beside the application's data (one file per task).
    static QString defaultAuditPath(const QString& taskName);
    // After Open Task: runs the precheck in the background and shows the report only when it finds
    // something (exit code not 0); a clean task gets a line in the window's status bar and no dialog.
    static PrecheckDialog* checkOpenedTask(task::TaskSetup setup, const QString& auditPath, QMainWindow* window);
    static QString nothingToFixMessage();

    void runPrecheck();
    bool isRunning() const;
    const precheck::PrecheckReport& report() const { return report_; }
    PrecheckFindingModel* model() const { return model_; }
    void selectFinding(int row);
    QString summary() const;
    QString details() const;

    // Copies the selected finding's fix to the clipboard.
    void copyFix();
    // Asks (through the confirmer), audits and runs the selected finding's SQL fix, then checks again.
    void applyFix();
    // Replaces the confirmation box (tests); answers whether to run the fix.
    void setConfirmer(std::function<bool(const precheck::Finding&, const QString& server)> confirmer);

    QPushButton* copyButton() const { return copy_; }
    QPushButton* applyButton() const { return apply_; }

signals:
    void precheckFinished(int exitCode);
    // An applied fix finished: error is empty when every statement ran.
    void fixFinished(const QString& check, const QString& error);

private:
    void onPrecheckFinished();
    void onFixFinished();
    void updateDetails();
    const precheck::Finding* selected() const;

    task::TaskSetup setup_;
    QString auditPath_;
    precheck::PrecheckReport report_;
    PrecheckFindingModel* model_ = nullptr;
    QLabel* summary_ = nullptr;
    QTableView* table_ = nullptr;
    QTextBrowser* details_ = nullptr;
    QPushButton* copy_ = nullptr;
    QPushButton* apply_ = nullptr;
    QPushButton* rerun_ = nullptr;
    QFutureWatcher<precheck::PrecheckReport> precheckWatcher_;
    QFutureWatcher<QString> fixWatcher_;
    QString fixCheck_;
    std::function<bool(const precheck::Finding&, const QString&)> confirmer_;
};

}  // namespace syncscope::ui
