#include "ui/browse/event_browser_links.h"

#include <QLineEdit>
#include <QMenu>
#include <QTableView>
#include <cmath>

#include "engine/browse/server_binlog_history.h"
#include "engine/config/source_config.h"
#include "ui/models/table_checkpoint_filter_proxy.h"
#include "ui/models/table_checkpoint_model.h"
#include "ui/pages/failed_event_panel.h"
#include "ui/pages/table_checkpoints_page.h"
#include "ui/widgets/position_ruler.h"

namespace syncscope::ui {

namespace {
constexpr double kMarkerReachPixels = 6;
}

EventBrowserPage::HistoryFactory historyForSourceFile(const QString& sourcePath, QString* description) {
    const config::SourceConfig source = config::loadSourceConfig(sourcePath.toStdString());
    ServerSettings server = source.from.server;
    if (description != nullptr) {
        *description = QString::fromStdString(server.describe());
    }
    return [server]() -> std::unique_ptr<browse::BinlogHistory> {
        return std::make_unique<browse::ServerBinlogHistory>(server);
    };
}

void openSkipWindow(EventBrowserPage* browser, const SkipWindowBrowse& window) {
    const ServerSettings upstream = window.upstream;
    browser->setHistorySource(
        [upstream]() -> std::unique_ptr<browse::BinlogHistory> {
            return std::make_unique<browse::ServerBinlogHistory>(upstream);
        },
        QString::fromStdString(upstream.describe()));
    browser->tableEdit()->setText(window.table);
    browser->openAt(window.globalPoint,
                    EventBrowserPage::tr("the skip window of %1: its events after the global point up to %2")
                        .arg(window.table, QString::fromStdString(window.tablePoint.toString())));
}

EventBrowserLinks::EventBrowserLinks(PositionRuler* ruler, TableCheckpointsPage* tables, FailedEventPanel* failed,
                                     QObject* parent)
    : QObject(parent), ruler_(ruler), tables_(tables) {
    qRegisterMetaType<browse::BrowsePoint>();
    ruler_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(ruler_, &QWidget::customContextMenuRequested, this, &EventBrowserLinks::rulerMenu);
    tables_->view()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(tables_->view(), &QWidget::customContextMenuRequested, this, &EventBrowserLinks::tableMenu);
    connect(failed, &FailedEventPanel::browseRequested, this, [this](const QString& file, qulonglong pos) {
        emit browseRequested(browse::BrowsePoint{file.toStdString(), pos}, tr("the failed event"));
    });
}

QList<QPair<QString, browse::BrowsePoint>> EventBrowserLinks::rulerMarkersNear(double x) const {
    QList<QPair<QString, browse::BrowsePoint>> near;
    const task::StatusSnapshot* snapshot = ruler_->snapshot();
    if (snapshot == nullptr) {
        return near;
    }
    std::vector<std::pair<QString, const task::PointView*>> points{
        {tr("upstream"), &snapshot->upstream},
        {tr("read"), &snapshot->read},
        {tr("applied"), &snapshot->applied},
        {tr("global (memory)"), &snapshot->globalInMemory},
        {tr("global (persisted)"), &snapshot->globalPersisted},
        {tr("safe-mode end after a crash"), &snapshot->exitSafe}};
    for (const auto& table : snapshot->tables) {
        points.emplace_back(tr("table %1.%2").arg(table.schema.c_str(), table.table.c_str()), &table.persisted);
    }
    std::vector<std::pair<double, QPair<QString, browse::BrowsePoint>>> found;
    for (const auto& [name, point] : points) {
        if (!point->known() || !point->axis) {
            continue;
        }
        double distance = std::abs(ruler_->xOf(static_cast<double>(*point->axis)) - x);
        if (distance <= kMarkerReachPixels) {
            found.push_back({distance, {name, browse::BrowsePoint{point->file, point->pos}}});
        }
    }
    std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& entry : found) {
        near.push_back(entry.second);
    }
    return near;
}

void EventBrowserLinks::rulerMenu(const QPoint& at) {
    auto markers = rulerMarkersNear(at.x());
    if (markers.isEmpty()) {
        return;
    }
    QMenu menu;
    for (const auto& [name, point] : markers) {
        menu.addAction(tr("Browse events at the %1 point (%2)").arg(name, QString::fromStdString(point.toString())),
                       this, [this, name, point] { emit browseRequested(point, tr("the %1 point").arg(name)); });
    }
    menu.exec(ruler_->mapToGlobal(at));
}

void EventBrowserLinks::tableMenu(const QPoint& at) {
    QModelIndex index = tables_->view()->indexAt(at);
    if (!index.isValid()) {
        return;
    }
    auto* model = qobject_cast<TableCheckpointModel*>(tables_->proxy()->sourceModel());
    const task::TablePointView* table = model->tableAt(tables_->proxy()->mapToSource(index).row());
    if (table == nullptr || !table->persisted.known()) {
        return;
    }
    QMenu menu;
    QString name = QString::fromStdString(table->schema + "." + table->table);
    browse::BrowsePoint point{table->persisted.file, table->persisted.pos};
    menu.addAction(tr("Browse events at %1's point (%2)").arg(name, QString::fromStdString(point.toString())), this,
                   [this, name, point] { emit browseRequested(point, tr("the table point of %1").arg(name)); });
    menu.exec(tables_->view()->viewport()->mapToGlobal(at));
}

}  // namespace syncscope::ui
