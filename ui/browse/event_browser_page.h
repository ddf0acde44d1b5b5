// The event browser page: pages through the upstream's binlog around a point the GUI shows (a ruler
// marker, the failed event, a table point, a skip window) or from a point typed as FILE:POS, GTID or
// time; filters by table, operation, GTID domain and key (row history with each change's downstream
// state); "Check rows downstream" checks the page's rows against the downstream (equal, missing, different,
// not deleted; on demand, the page only); "Resume from here" hands a transaction boundary to the task's
// resume-from command. Pages and checks are read on a worker thread that holds only copies (never this), and
// can be cancelled.
#pragma once

#include <QFutureWatcher>
#include <QWidget>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include "engine/browse/binlog_history.h"
#include "engine/browse/browse_page.h"
#include "engine/preview/page_row_check.h"
#include "engine/task/task_control.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;
class QTreeView;

namespace syncscope::ui {

class EventBrowserModel;

class EventBrowserPage : public QWidget {
    Q_OBJECT

public:
    // Makes the history a page reads (a server connection or local files); called on the worker thread.
    using HistoryFactory = std::function<std::unique_ptr<browse::BinlogHistory>()>;

    explicit EventBrowserPage(QWidget* parent = nullptr);
    ~EventBrowserPage() override;

    void setHistorySource(HistoryFactory factory, const QString& description);
    // Where the row check reads (the task's servers, route and replicated tables); called on the worker
    // thread. Unset: no row check (local files, or no task).
    using RowCheckFactory = std::function<verify::WindowPreviewRequest()>;
    void setRowCheckSource(RowCheckFactory factory, const QString& downstream);
    // Checks the shown page's rows against the downstream (as the button does).
    void checkRows();
    // Whether "Resume from here" can be used (a task is attached that can take a resume-from).
    void setResumeEnabled(bool enabled);
    // Says on the page why a command it asked for was refused (the main window may be behind it).
    void showRefusal(const QString& text);
    // The downstream's applied point, for the Downstream column and the row history.
    void setAppliedPoint(const browse::BrowsePoint& applied);

    // Opens the page at the transaction ending at `point` (a point the GUI shows), saying why.
    void openAt(const browse::BrowsePoint& point, const QString& why);
    // Opens the page from what the DBA typed (or `from`), with the filters as set.
    void openFrom(const QString& from);
    void cancel();
    bool isBusy() const;

    EventBrowserModel* model() const { return model_; }
    QTreeView* tree() const { return tree_; }
    QTableWidget* rowsTable() const { return rows_; }
    QLabel* statusLabel() const { return status_; }
    QLabel* sourceLabel() const { return source_; }  // "Binlog of <the upstream>"
    QLineEdit* fromEdit() const { return from_; }
    QLineEdit* tableEdit() const { return table_; }
    QComboBox* operationBox() const { return operation_; }
    QLineEdit* domainEdit() const { return domain_; }
    QLineEdit* keyEdit() const { return key_; }
    QPushButton* resumeHereButton() const { return resumeHere_; }
    QPushButton* resumeAfterButton() const { return resumeAfter_; }
    QPushButton* stopAfterButton() const { return stopAfter_; }
    QPushButton* checkRowsButton() const { return checkRows_; }

signals:
    // A page arrived (or its error): the tests wait for it.
    void pageShown();
    // A row check arrived (or its error).
    void rowCheckShown();
    // The DBA chose a transaction boundary to resume from (the main window confirms and sends it).
    void resumeFromRequested(const syncscope::task::ResumeTarget& target, const QString& description);
    // The DBA wants the task to pause by itself after the selected transaction ("FILE:POS" of its end).
    void stopAtRequested(const QString& point);

private:
    void start(browse::PageRequest request);
    void onPageRead();
    void onRowCheckRead();
    // The check's state of one shown row image (by table and key), else the transaction's Downstream text.
    QString downstreamOf(size_t transaction, const browse::BrowsedEvent& event, const browse::RowImages& row) const;
    void showSelection();
    void showRowHistory();
    void updateButtons();
    void requestResume(bool afterIt);
    bool filterFromFields(browse::BrowseFilter& filter);

    EventBrowserModel* model_;
    HistoryFactory factory_;
    QFutureWatcher<browse::Page> watcher_;
    struct RowCheckResult {
        std::optional<preview::PageRowCheck> check;
        std::string error;
    };
    QFutureWatcher<RowCheckResult> checkWatcher_;
    RowCheckFactory rowCheckFactory_;
    QString checkedDownstream_;
    browse::BrowseFilter shownFilter_;  // the filter of the page shown (what the row check counts)
    std::shared_ptr<std::atomic<bool>> cancel_;
    std::vector<binlog::BinlogFileSize> files_;
    bool resumeEnabled_ = false;
    browse::BrowsePoint applied_;

    QLabel* source_ = nullptr;
    QLineEdit* from_ = nullptr;
    QPushButton* go_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
    QLineEdit* table_ = nullptr;
    QComboBox* operation_ = nullptr;
    QLineEdit* domain_ = nullptr;
    QLineEdit* key_ = nullptr;
    QCheckBox* rowImages_ = nullptr;
    QTreeView* tree_ = nullptr;
    QTableWidget* rows_ = nullptr;
    QLabel* rowsTitle_ = nullptr;
    QLabel* status_ = nullptr;
    QPushButton* resumeHere_ = nullptr;
    QPushButton* resumeAfter_ = nullptr;
    QPushButton* stopAfter_ = nullptr;
    QPushButton* checkRows_ = nullptr;
};

}  // namespace syncscope::ui

Q_DECLARE_METATYPE(syncscope::task::ResumeTarget)
