// Where the event browser opens from in the task view: a marker of the position ruler (right-click), the
// failed event ("Browse around"), a table's point (right-click in the table checkpoints), and the
// history it reads (the task's upstream, from its source file). Kept apart from the main window.
#pragma once

#include <QObject>
#include <QString>

#include "engine/browse/binlog_history.h"
#include "ui/browse/event_browser_page.h"
#include "ui/inspect/checkpoint_inspection_page.h"

namespace syncscope::ui {

class PositionRuler;
class TableCheckpointsPage;
class FailedEventPanel;

// Opens `browser` over a skip window of the checkpoint inspection: the window's upstream as its history, the
// table filter set to the table ahead of its global point, the page around the global point.
void openSkipWindow(EventBrowserPage* browser, const SkipWindowBrowse& window);

// The task's upstream as the browser's history. Throws config::ConfigError for a source file that does
// not load (passwords resolved as the loader resolves them).
EventBrowserPage::HistoryFactory historyForSourceFile(const QString& sourcePath, QString* description);

class EventBrowserLinks : public QObject {
    Q_OBJECT

public:
    EventBrowserLinks(PositionRuler* ruler, TableCheckpointsPage* tables, FailedEventPanel* failed,
                      QObject* parent = nullptr);

    // The ruler's markers near widget x (within a few pixels), nearest first, as (name, point).
    QList<QPair<QString, browse::BrowsePoint>> rulerMarkersNear(double x) const;

signals:
    void browseRequested(const syncscope::browse::BrowsePoint& point, const QString& why);

private:
    void rulerMenu(const QPoint& at);
    void tableMenu(const QPoint& at);

    PositionRuler* ruler_;
    TableCheckpointsPage* tables_;
};

}  // namespace syncscope::ui

Q_DECLARE_METATYPE(syncscope::browse::BrowsePoint)
