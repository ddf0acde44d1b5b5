// "Verify window": for a table point ahead of its global point (the rows a resume from the global
// point would skip), decodes the upstream's binlog between the two points and checks each row's final
// image against the downstream (engine/verify/skip_window_verifier.h), off the GUI thread. Lists every
// row as equal, missing, different (columns named) or not deleted; Repair missing rows inserts the
// missing ones after an explicit confirmation, audited first, and checks the window again.
#pragma once

#include <QDialog>
#include <QFutureWatcher>

#include <functional>
#include <optional>

#include "engine/verify/skip_window_verifier.h"

class QLabel;
class QPushButton;
class QTableWidget;

namespace syncscope::ui {

// One verification of a window (and, after a repair, what was applied), or why there is none.
struct SkipWindowOutcome {
    std::optional<verify::SkipWindowReport> report;
    QString repairSql;  // what a repair applied
    QString error;
};

class SkipWindowDialog : public QDialog {
    Q_OBJECT

public:
    // `auditPath`: where a repair is audited (the task's audit log).
    SkipWindowDialog(verify::SkipWindowRequest request, QString taskName, QString sourceId, QString auditPath,
                     QWidget* parent = nullptr);
    ~SkipWindowDialog() override;

    // Verifies the window in the background; the dialog shows the rows when it is done.
    void start();
    bool isBusy() const;
    const std::optional<verify::SkipWindowReport>& report() const { return report_; }
    QTableWidget* rowsView() const { return rows_; }
    QString summaryText() const;
    QPushButton* repairButton() const { return repair_; }

    // Asks (unless a test replaced the question), then inserts the missing rows in the background.
    // False when there is nothing missing or the DBA said no.
    bool repairMissing();
    using Confirmation = std::function<bool(const QString& question)>;
    void setConfirmation(Confirmation confirm) { confirm_ = std::move(confirm); }

signals:
    void finished(bool succeeded);

private:
    void onFinished();
    void setBusy(bool busy);
    void showReport(const verify::SkipWindowReport& report);

    verify::SkipWindowRequest request_;
    QString taskName_;
    QString sourceId_;
    QString auditPath_;
    Confirmation confirm_;
    std::optional<verify::SkipWindowReport> report_;
    QString lastRepairSql_;
    QLabel* summary_ = nullptr;
    QTableWidget* rows_ = nullptr;
    QPushButton* again_ = nullptr;
    QPushButton* repair_ = nullptr;
    QFutureWatcher<SkipWindowOutcome> watcher_;
};

}  // namespace syncscope::ui
