// The event browser page: pages through the upstream's binlog around a point the GUI shows (a ruler
// marker, the failed event, a table point, a skip window) or from a point typed as FILE:POS, GTID or
// time; filters by table, operation, GTID domain and key (row history with each change's downstream
// state); "Check rows downstream" checks the page's rows against the downstream (equal, missing, different,
// not deleted; on demand, the page only); "Resume from here" hands a transaction boundary to the task's
// resume-from command. The page lays out and shows; its EventBrowserController reads the pages and checks
// (on a worker thread that holds only copies, cancellable) and builds what the rows pane lists.
#pragma once

#include <QWidget>

#include "engine/browse/binlog_history.h"
#include "engine/filter/online_ddl_rules.h"
#include "engine/task/task_control.h"
#include "ui/browse/event_browser_controller.h"

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
    using HistoryFactory = EventBrowserController::HistoryFactory;

    // The controller is the page's first child: it is destroyed first, waiting for a read still running.
    explicit EventBrowserPage(QWidget* parent = nullptr);

    void setHistorySource(HistoryFactory factory, const QString& description);
    // Where the row check reads (the task's servers, route and replicated tables); called on the worker
    // thread. Unset: no row check (local files, or no task).
    using RowCheckFactory = EventBrowserController::RowCheckFactory;
    void setRowCheckSource(RowCheckFactory factory, const QString& downstream);
    // The task's online-ddl rules (null: off), for what the page says of a tool's tables' events.
    void setOnlineDdlRules(std::shared_ptr<const filter::OnlineDdlRules> rules);
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

    EventBrowserModel* model() const { return controller_->model(); }
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
    EventBrowserController::FilterFields filterFields() const;
    void onPageShown(bool listed);
    void onRowCheckShown(bool checked);
    void showSelection();
    void showRowHistory();
    void showRows(const EventBrowserController::RowsPane& pane);
    void updateButtons();

    EventBrowserController* controller_;
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
