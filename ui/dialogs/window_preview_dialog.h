// Before a skip or a resume-from moves past rows: the transactions it leaves out (or applies again), each
// of their rows checked against the downstream (equal, missing, different, not deleted), and, when rows
// are skipped, the SQL that re-applies them saved to a file named in an audit entry, so that the skip can
// be undone. The preview is read on a worker thread that holds copies only (never this).
#pragma once

#include <QDialog>
#include <QFutureWatcher>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include "engine/task/skip_evidence.h"
#include "engine/verify/window_preview.h"

class QLabel;
class QPushButton;
class QTableWidget;

namespace syncscope::ui {

// What the window is (computed on the worker thread: the failed event's transaction needs a binlog read).
using WindowPreviewJob = std::function<verify::WindowPreview(const std::atomic<bool>* cancel)>;

struct WindowPreviewResult {
    std::optional<verify::WindowPreview> preview;
    std::string error;
};

struct WindowPreviewAction {
    QString title;          // "Skip the failed transaction?"
    QString intro;          // what the command does, as a DBA reads it
    QString confirmText;    // the button: "Skip it", "Resume"
    bool skipsRows = true;  // false: the window is applied again (nothing is saved)
    QString sqlPath;        // where the replay SQL goes (skipsRows)
    QString auditPath;      // the task's audit log; empty: none
    // The entry written with the saved SQL before the command; empty: none, the command's own entry names
    // the file (a skip: evidence()).
    std::string auditAction;
    std::string taskName;
    std::string sourceId;
};

class WindowPreviewDialog : public QDialog {
    Q_OBJECT

public:
    WindowPreviewDialog(WindowPreviewJob job, WindowPreviewAction action, QWidget* parent = nullptr);
    ~WindowPreviewDialog() override;

    // Until the preview (or why there is none) is shown.
    bool isBusy() const;
    const std::optional<verify::WindowPreview>& preview() const { return preview_; }
    const QString& error() const { return error_; }
    QTableWidget* rowsTable() const { return rows_; }
    QLabel* summaryLabel() const { return summary_; }
    QPushButton* confirmButton() const { return confirm_; }
    // After accept(): the saved replay SQL file and the preview's counts, for the command's audit entry.
    const task::SkipEvidence& evidence() const { return evidence_; }

    // Saves the replay SQL and its audit entry first (when rows are skipped); stays open if that fails.
    void accept() override;

signals:
    void previewShown();

private:
    void onPreviewRead();
    bool saveReplay();

    WindowPreviewAction action_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    QFutureWatcher<WindowPreviewResult> watcher_;
    std::optional<verify::WindowPreview> preview_;
    QString error_;
    bool shown_ = false;
    QLabel* summary_ = nullptr;
    QTableWidget* rows_ = nullptr;
    QLabel* saved_ = nullptr;
    QPushButton* confirm_ = nullptr;
    task::SkipEvidence evidence_;
};

}  // namespace syncscope::ui
