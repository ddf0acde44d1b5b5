// The event browser's work behind its page: pages of the upstream's binlog read on a worker thread that holds
// only copies (never this) and can be cancelled; the filter typed in the page's fields; where the From box says
// the list starts; the rows pane of a selection or of a key's row history, each row with its downstream state;
// the row check of a page against the downstream; the resume-from and stop points a transaction offers.
#pragma once

#include <QFutureWatcher>
#include <QModelIndex>
#include <QObject>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/browse/binlog_history.h"
#include "engine/browse/browse_page.h"
#include "engine/preview/page_row_check.h"
#include "engine/task/task_control.h"

namespace syncscope::ui {

class EventBrowserModel;

class EventBrowserController : public QObject {
    Q_OBJECT

public:
    // Makes the history a page reads (a server connection or local files); called on the worker thread.
    using HistoryFactory = std::function<std::unique_ptr<browse::BinlogHistory>()>;
    // Where the row check reads (the task's servers, route and replicated tables); called on the worker thread.
    using RowCheckFactory = std::function<verify::WindowPreviewRequest()>;

    // The page's filter fields as typed.
    struct FilterFields {
        QString table;      // db.table
        QString operation;  // insert, update, delete, ddl; empty: any
        QString domain;     // a GTID domain number
        QString key;        // a key value (comma-separated for a composite key): the row history
        bool rowImages = true;
    };
    // One line of the rows pane.
    struct RowLine {
        QString position;
        QString operation;
        QString image;
        QString values;
        QString downstream;
    };
    struct RowsPane {
        QString title;
        std::vector<RowLine> lines;
    };
    // What the page may offer for the selected transaction.
    struct Offers {
        bool resumeHere = false;
        bool resumeAfter = false;
        bool stopAfter = false;
        bool checkRows = false;
    };

    explicit EventBrowserController(QObject* parent = nullptr);
    ~EventBrowserController() override;

    EventBrowserModel* model() const { return model_; }
    void setHistorySource(HistoryFactory factory);
    // Unset: no row check (local files, or no task).
    void setRowCheckSource(RowCheckFactory factory, const QString& downstream);
    // Whether a resume-from or a stop point can be asked for (a task is attached that can take it).
    void setResumeEnabled(bool enabled);
    // The downstream's applied point, for the Downstream column and the row history; false when unchanged.
    bool setAppliedPoint(const browse::BrowsePoint& applied);

    // Reads the page around `point` (a point the GUI shows), saying why.
    void openAt(const browse::BrowsePoint& point, const QString& why, const FilterFields& fields);
    // Reads the page from what the DBA typed (FILE:POS, GTID or time; empty: the oldest binlog).
    void openFrom(const QString& from, const FilterFields& fields);
    // Checks the listed page's rows against the downstream; false when there is nothing to check now.
    bool checkRows();
    void cancel();
    bool isBusy() const;

    Offers offersAt(const QModelIndex& current) const;
    // The rows of the selected transaction or event; with a key, the row history unless an event is selected.
    RowsPane selectionRows(const QModelIndex& current, const QString& key) const;
    // Every change of the key's row on the page, oldest first.
    RowsPane rowHistory(const QString& key) const;
    // Asks to resume from the start of the selected transaction, or after it (it is skipped).
    void requestResume(const QModelIndex& current, bool afterIt);
    void requestStopAfter(const QModelIndex& current);

signals:
    void statusChanged(const QString& text);  // rich text
    void fromChanged(const QString& from);
    // A page or a row check is being read (Cancel stops it), or has arrived.
    void readStarted();
    void readFinished();
    // A page arrived (listed), or was refused before or after reading (not listed; the status says why).
    void pageShown(bool listed);
    // A row check arrived (checked), or its error.
    void rowCheckShown(bool checked);
    void resumeFromRequested(const syncscope::task::ResumeTarget& target, const QString& description);
    // "FILE:POS" of the end of the transaction the task is to pause after.
    void stopAtRequested(const QString& point);

private:
    struct RowCheckResult {
        std::optional<preview::PageRowCheck> check;
        std::string error;
    };

    bool filterFrom(const FilterFields& fields, browse::BrowseFilter& filter);
    void start(browse::PageRequest request);
    void onPageRead();
    void onRowCheckRead();
    // The check's state of one shown row image (by table and key), else the transaction's Downstream text.
    QString downstreamOf(size_t transaction, const browse::BrowsedEvent& event, const browse::RowImages& row) const;

    EventBrowserModel* model_;
    HistoryFactory factory_;
    QFutureWatcher<browse::Page> watcher_;
    QFutureWatcher<RowCheckResult> checkWatcher_;
    RowCheckFactory rowCheckFactory_;
    QString checkedDownstream_;
    browse::BrowseFilter shownFilter_;  // the filter of the page shown (what the row check counts)
    std::shared_ptr<std::atomic<bool>> cancel_;
    std::vector<binlog::BinlogFileSize> files_;
    bool resumeEnabled_ = false;
    browse::BrowsePoint applied_;
};

}  // namespace syncscope::ui

Q_DECLARE_METATYPE(syncscope::task::ResumeTarget)
