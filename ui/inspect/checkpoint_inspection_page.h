// Checkpoint inspection: opens any downstream's checkpoint tables read-only (ours or a DM
// deployment's), lists every source's global and table points and flags what a resume would get
// wrong. The query runs on the thread pool; the page only swaps in the finished report.
#pragma once

#include <QFutureWatcher>
#include <QWidget>
#include <optional>

#include "engine/browse/binlog_history.h"
#include "engine/inspect/checkpoint_inspector.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QTextBrowser;

namespace syncscope::ui {

class CheckpointInspectionModel;
class InspectionFilterProxy;
class SkipWindowDialog;

// What one inspection run gives back: a report, or why there is none (naming the server and side).
struct InspectionOutcome {
    std::optional<inspect::InspectionReport> report;
    QString error;
};

// A skip window to page through in the event browser: the upstream's binlog from the global point (the
// transaction ending there comes first) with the table filter set to the table ahead of it.
struct SkipWindowBrowse {
    ServerSettings upstream;
    browse::BrowsePoint globalPoint;
    browse::BrowsePoint tablePoint;
    QString table;  // "schema.table"
};

// Runs the inspection (blocking; call it off the GUI thread). Never throws.
InspectionOutcome runInspection(const inspect::InspectionRequest& request);

class CheckpointInspectionPage : public QWidget {
    Q_OBJECT

public:
    explicit CheckpointInspectionPage(QWidget* parent = nullptr);
    ~CheckpointInspectionPage() override;

    // Starts an inspection in the background; ignored while one runs.
    void inspect(const inspect::InspectionRequest& request);
    // Asks where to inspect (the fields filled from `initial`, else from the last run), then inspects.
    // Returns false when the DBA cancelled.
    bool inspectWithDialog();
    bool inspectWithDialog(const inspect::InspectionRequest& initial);
    bool isBusy() const;

    CheckpointInspectionModel* model() const { return model_; }
    InspectionFilterProxy* proxy() const { return proxy_; }
    QTableView* view() const { return view_; }
    QCheckBox* onlyAnomaliesSwitch() const { return onlyAnomalies_; }
    QString summaryText() const;
    // What the details pane says about the current point (its anomalies in full).
    QString detailsText() const;
    QString lastError() const { return lastError_; }
    // The visible rows as tab-separated text with a header line (what Copy puts on the clipboard).
    QString visibleRowsText() const;

    // Verify window: for the current point, when it is a table point ahead of its global point and the
    // upstream was given, opens a SkipWindowDialog that checks the window's rows downstream (started).
    // Null when the current point has no window to verify.
    SkipWindowDialog* verifyWindow();
    QPushButton* verifyWindowButton() const { return verifyWindow_; }
    // Browse window: asks (browseWindowRequested) for the event browser over the current point's skip window.
    // False when the current point has none.
    bool browseWindow();
    QPushButton* browseWindowButton() const { return browseWindow_; }
    // Where a window repair is audited: <dir>/<task>-audit.jsonl (default: the application's data folder,
    // beside the tasks' audit logs).
    void setAuditDirectory(const QString& dir) { auditDirectory_ = dir; }

signals:
    void inspectionFinished(bool succeeded);
    void browseWindowRequested(const syncscope::ui::SkipWindowBrowse& window);

private:
    // initial: the fields to start from; null: the dialog's remembered ones.
    bool runConnectionDialog(const inspect::InspectionRequest* initial);
    void onFinished();
    void showReportSummary(const inspect::InspectionReport& report);
    void showDetails();
    void setBusy(bool busy);
    void updateVerifyWindowButton();

    CheckpointInspectionModel* model_;
    InspectionFilterProxy* proxy_;
    QTableView* view_ = nullptr;
    QLabel* summary_ = nullptr;
    QTextBrowser* details_ = nullptr;
    QPushButton* connect_ = nullptr;
    QPushButton* refresh_ = nullptr;
    QPushButton* copy_ = nullptr;
    QPushButton* browseWindow_ = nullptr;
    QPushButton* verifyWindow_ = nullptr;
    QString auditDirectory_;
    QCheckBox* onlyAnomalies_ = nullptr;
    QLineEdit* search_ = nullptr;
    QFutureWatcher<InspectionOutcome> watcher_;
    std::optional<inspect::InspectionRequest> lastRequest_;
    QString lastError_;
};

}  // namespace syncscope::ui
