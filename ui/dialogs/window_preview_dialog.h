// Before a skip or a resume-from moves past rows: the transactions it leaves out (or applies again), each
// of their rows checked against the downstream (equal, missing, different, not deleted), and, when rows
// are skipped, the SQL that re-applies them saved to a file that the command's own audit entry names
// (evidence()), so that the skip can be undone. The preview is read on a worker thread that holds copies only (never
// this).
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
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace syncscope::ui {

// What the window is (computed on the worker thread: the failed event's transaction needs a binlog read).
using WindowPreviewJob = std::function<verify::WindowPreview(const std::atomic<bool>* cancel)>;

struct WindowPreviewResult {
    std::optional<verify::WindowPreview> preview;
    std::string error;
    bool refused = false;  // the command's target is no place to go (preview::RefusedResumeTarget): no going on
};

struct WindowPreviewAction {
    QString title;          // "Skip the failed transaction?"
    QString intro;          // what the command does, as a DBA reads it
    QString confirmText;    // the button: "Skip it", "Resume"
    bool skipsRows = true;  // false: the window is applied again (nothing is saved)
    QString sqlPath;        // where the replay SQL goes (skipsRows); the command's own audit entry names it
    // When set, the confirm button works only once the DBA has typed this (the point a resume-from goes to).
    QString typedConfirmation;
};

class WindowPreviewDialog : public QDialog {
    Q_OBJECT

public:
    WindowPreviewDialog(WindowPreviewJob job, WindowPreviewAction action, QWidget* parent = nullptr);
    ~WindowPreviewDialog() override;

    // Until the preview (or why there is none) is shown.
    bool isBusy() const;
    // The target was refused (inside a transaction, purged, ...): the command cannot be confirmed.
    bool isRefused() const { return refused_; }
    const std::optional<verify::WindowPreview>& preview() const { return preview_; }
    const QString& error() const { return error_; }
    QTableWidget* rowsTable() const { return rows_; }
    QLabel* summaryLabel() const { return summary_; }
    QPushButton* confirmButton() const { return confirm_; }
    QLineEdit* confirmationEdit() const { return typed_; }
    const QString& typedConfirmation() const { return action_.typedConfirmation; }
    // After accept(): the saved replay SQL file and the preview's counts, for the command's audit entry.
    const task::SkipEvidence& evidence() const { return evidence_; }

    // Saves the replay SQL first (when rows are skipped); stays open if that fails.
    void accept() override;

signals:
    void previewShown();

private:
    void onPreviewRead();
    bool saveReplay();
    bool confirmable() const;  // shown, not refused, and the confirmation typed when one is asked for

    WindowPreviewAction action_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    QFutureWatcher<WindowPreviewResult> watcher_;
    std::optional<verify::WindowPreview> preview_;
    QString error_;
    bool shown_ = false;
    bool refused_ = false;
    QLabel* summary_ = nullptr;
    QTableWidget* rows_ = nullptr;
    QLabel* saved_ = nullptr;
    QPushButton* confirm_ = nullptr;
    QLineEdit* typed_ = nullptr;
    task::SkipEvidence evidence_;
};

}  // namespace syncscope::ui
