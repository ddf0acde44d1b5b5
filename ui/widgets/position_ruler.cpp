#include "ui/widgets/position_ruler.h"

#include <QHelpEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "ui/models/checkpoint_anomaly.h"
#include "ui/models/shard_lock_hold.h"
#include "ui/models/shard_lock_text.h"
#include "ui/widgets/position_ruler_style.h"

namespace syncscope::ui {

using namespace ruler;

namespace {

QString pointTooltip(const QString& name, const task::PointView& point) {
    QString text = QStringLiteral("<b>%1</b><br>%2").arg(name.toHtmlEscaped(), pointText(point).toHtmlEscaped());
    if (!point.gtid.empty()) {
        text += QStringLiteral("<br>GTID %1").arg(QString::fromStdString(point.gtid).toHtmlEscaped());
    }
    if (!point.axis) {
        text += QStringLiteral("<br><i>") + PositionRuler::tr("not in the upstream's binlog files") +
                QStringLiteral("</i>");
    }
    return text;
}

std::optional<double> axisValue(const task::PointView& point) {
    return point.axis ? std::optional<double>(double(*point.axis)) : std::nullopt;
}

}  // namespace

PositionRuler::PositionRuler(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setToolTip(
        tr("Upstream bytes across the binlog files, from the persisted global point (where a resume starts) "
           "to the upstream's end. Wheel or the buttons to zoom, drag to pan, hover for exact positions, "
           "click a table's mark to select it."));
    setAccessibleName(tr("Position ruler"));
}

QSize PositionRuler::sizeHint() const {
    return {800, kHeight};
}
QSize PositionRuler::minimumSizeHint() const {
    return {kMinimumWidth, kHeight};
}

void PositionRuler::setSnapshot(std::shared_ptr<const task::StatusSnapshot> snapshot) {
    snapshot_ = std::move(snapshot);
    heldBy_ = snapshot_ ? lockHoldingSource(*snapshot_, snapshot_->sourceId) : nullptr;
    axis_ = snapshot_ ? BinlogAxis(snapshot_->upstreamFiles) : BinlogAxis();
    if (mode_ == ViewMode::Manual && viewEnd_ > viewStart_) {
        const double start = viewStart_;
        const double end = viewEnd_;
        setView(start, end);
    } else {
        const auto [start, end] = followedView();
        viewStart_ = start;
        viewEnd_ = end;
    }
    update();
}

void PositionRuler::setVerifications(TableVerifications verifications) {
    verifications_ = std::move(verifications);
    update();
}

std::vector<PositionRuler::VerifiedMark> PositionRuler::verifiedMarks() const {
    std::vector<VerifiedMark> marks;
    for (auto it = verifications_.constBegin(); it != verifications_.constEnd(); ++it) {
        const task::PointView& at = it->verifiedAt;
        if (!at.known()) {
            continue;
        }
        if (auto axis = axis_.axisOf(at.file, at.pos)) {
            marks.push_back({double(*axis), it.key(), it.value()});
        }
    }
    std::sort(marks.begin(), marks.end(), [](const VerifiedMark& a, const VerifiedMark& b) {
        return a.axis < b.axis || (a.axis == b.axis && a.table < b.table);
    });
    return marks;
}

std::pair<double, double> PositionRuler::followedView() const {
    const double length = double(axis_.length());
    if (!snapshot_ || mode_ == ViewMode::All) {
        return {0, length};
    }
    // From the lowest point a resume would use to the upstream's end: the persisted global point
    // first; the points after it (the table points ahead of it lie before the read point).
    std::optional<double> low;
    for (const auto* point :
         {&snapshot_->globalPersisted, &snapshot_->globalInMemory, &snapshot_->applied, &snapshot_->read}) {
        if (auto value = axisValue(*point)) {
            low = low ? std::min(*low, *value) : *value;
        }
    }
    std::optional<double> high;
    for (const auto& marker : markers()) {
        if (auto value = axisValue(*marker.point)) {
            high = high ? std::max(*high, *value) : *value;
        }
    }
    if (!low || !high) {
        return {0, length};
    }
    low = std::min(*low, *high);
    const double margin = std::max(kSpanMinimumBytes / 2, (*high - *low) * kSpanMargin);
    return {std::max(0.0, *low - margin), *high + margin};
}

void PositionRuler::applyView(double start, double end, ViewMode mode) {
    viewStart_ = start;
    viewEnd_ = end;
    mode_ = mode;
    update();
    emit viewChanged(viewStart_, viewEnd_);
}

void PositionRuler::setView(double start, double end) {
    const double length = double(axis_.length());
    double span = std::clamp(end - start, std::min(kMinimumSpanBytes, length), length);
    start = std::clamp(start, 0.0, std::max(0.0, length - span));
    applyView(start, start + span, span >= length ? ViewMode::All : ViewMode::Manual);
}

void PositionRuler::zoomAround(double axisValue, double factor) {
    const double span = viewEnd_ - viewStart_;
    if (span <= 0) {
        return;
    }
    const double newSpan = span / factor;
    const double ratio = (axisValue - viewStart_) / span;
    const double start = axisValue - ratio * newSpan;
    setView(start, start + newSpan);
}

void PositionRuler::zoomIn() {
    zoomAround((viewStart_ + viewEnd_) / 2, kZoomStep);
}
void PositionRuler::zoomOut() {
    zoomAround((viewStart_ + viewEnd_) / 2, 1 / kZoomStep);
}
void PositionRuler::zoomToFit() {
    applyView(0, double(axis_.length()), ViewMode::All);
}

void PositionRuler::zoomToGlobal() {
    mode_ = ViewMode::Span;
    const auto [start, end] = followedView();
    applyView(start, end, ViewMode::Span);
}

QRectF PositionRuler::plotRect() const {
    return QRectF(kSideMargin, 0, std::max(1, width() - 2 * kSideMargin), height());
}

double PositionRuler::xOf(double axisValue) const {
    const QRectF plot = plotRect();
    const double span = viewEnd_ - viewStart_;
    if (span <= 0) {
        return plot.left();
    }
    return plot.left() + (axisValue - viewStart_) / span * plot.width();
}

double PositionRuler::axisOfX(double x) const {
    const QRectF plot = plotRect();
    return viewStart_ + (x - plot.left()) / plot.width() * (viewEnd_ - viewStart_);
}

std::vector<PositionRuler::Marker> PositionRuler::markers() const {
    if (!snapshot_) {
        return {};
    }
    std::vector<Marker> all{
        {tr("upstream"), kUpstreamColor, &snapshot_->upstream, tr("the upstream's end now (SHOW MASTER STATUS)")},
        {tr("read"), kReadColor, &snapshot_->read, tr("the last event read from the upstream")},
        {tr("applied"), kAppliedColor, &snapshot_->applied, tr("the last event committed downstream")},
        {tr("global in memory"), kGlobalMemoryColor, &snapshot_->globalInMemory,
         tr("every table is applied up to here; written to the checkpoint table at the next flush")},
        {tr("global persisted"), kGlobalPersistedColor, &snapshot_->globalPersisted,
         tr("the checkpoint in the downstream's table: where a resume starts")}};
    // The hold is exactly at the persisted global point: one label with it.
    if (heldBy_) {
        const QString target = QString::fromStdString(heldBy_->target.text());
        all.push_back({tr("shard lock: %1").arg(target), kShardLockColor, &snapshot_->globalPersisted,
                       tr("held here for the shard DDL lock on %1: %2")
                           .arg(target, shardLockLine(*heldBy_, snapshot_->takenAt))});
    }
    // The end of safe mode is a mark only where it is a point of the stream a DBA can act on.
    if (snapshot_->safeMode && snapshot_->safeModeUntil.axis) {
        all.push_back({tr("safe mode until"), kSafeModeColor, &snapshot_->safeModeUntil,
                       tr("safe mode is on until the stream passes this point: %1")
                           .arg(QString::fromStdString(snapshot_->safeModeReason))});
    } else if (exitSafeIsMarked()) {
        all.push_back({tr("safe mode after a crash"), kSafeModeColor, &snapshot_->exitSafe,
                       tr("after an unclean stop (a kill, a crash), the next start runs in safe mode from the "
                          "persisted global point up to here: rows in between may have been applied already")});
    }
    return all;
}

bool PositionRuler::exitSafeIsMarked() const {
    // A mark of its own only outside a live replay window, and only where it is a point of the stream.
    if (snapshot_->safeMode && snapshot_->safeModeUntil.axis) {
        return false;
    }
    return crashReplayWindow() && snapshot_->upstream.axis && *snapshot_->exitSafe.axis <= *snapshot_->upstream.axis;
}

bool PositionRuler::crashReplayWindow() const {
    // Only a mark past the persisted global point leaves anything to replay after a crash.
    const auto& exitSafe = snapshot_->exitSafe;
    const auto& global = snapshot_->globalPersisted;
    return exitSafe.axis && (!global.axis || *exitSafe.axis > *global.axis);
}

QString PositionRuler::safeModeAfterCrashText() const {
    if (!snapshot_ || !crashReplayWindow()) {
        return {};
    }
    return exitSafeIsMarked() ? tr("after a crash: safe mode to %1").arg(pointText(snapshot_->exitSafe))
                              : tr("after a crash: safe mode to the upstream's end");
}

std::vector<RulerLabel> PositionRuler::placeLabels(const QFontMetrics& metrics) const {
    std::vector<RulerMark> marks;
    const QRectF plot = plotRect();
    const auto all = markers();
    for (size_t i = 0; i < all.size(); ++i) {
        if (auto value = axisValue(*all[i].point)) {
            const double outside = *value < viewStart_ ? viewStart_ - *value : std::max(0.0, *value - viewEnd_);
            marks.push_back({all[i].name, all[i].color, xOf(*value), outside, int(i)});
        }
    }
    RulerLaneGeometry lanes;
    lanes.axisY = kAxisY;
    lanes.laneHeight = kLabelLaneHeight;
    lanes.lanes = kLabelLanes;
    lanes.padding = kLabelPadding;
    lanes.gap = kLabelGap;
    lanes.samePixel = kSamePixel;
    return layOutRulerLabels(std::move(marks), plot, metrics, lanes);
}

std::vector<RulerLabel> PositionRuler::labels() const {
    if (axis_.empty() || viewEnd_ <= viewStart_) {
        return {};
    }
    return placeLabels(fontMetrics());
}

PositionRuler::TablesOutside PositionRuler::tablesOutside() const {
    TablesOutside outside;
    if (!snapshot_) {
        return outside;
    }
    for (const auto& table : snapshot_->tables) {
        if (!table.persisted.axis) {
            continue;
        }
        const double value = double(*table.persisted.axis);
        if (value < viewStart_) {
            ++outside.left;
            outside.leftAhead += table.aheadOfGlobal ? 1 : 0;
        } else if (value > viewEnd_) {
            ++outside.right;
            outside.rightAhead += table.aheadOfGlobal ? 1 : 0;
        }
    }
    return outside;
}

int PositionRuler::tableAt(double x) const {
    if (!snapshot_) {
        return -1;
    }
    int best = -1;
    double bestDistance = kHoverPixels + 1;
    bool bestAhead = false;
    for (size_t i = 0; i < snapshot_->tables.size(); ++i) {
        const auto& table = snapshot_->tables[i];
        if (!table.persisted.axis) {
            continue;
        }
        const double distance = std::abs(xOf(double(*table.persisted.axis)) - x);
        if (distance > kHoverPixels) {
            continue;
        }
        const bool better =
            (table.aheadOfGlobal && !bestAhead) || (table.aheadOfGlobal == bestAhead && distance < bestDistance);
        if (best < 0 || better) {
            best = int(i);
            bestDistance = distance;
            bestAhead = table.aheadOfGlobal;
        }
    }
    return best;
}

QString PositionRuler::describeTablesAt(double x) const {
    const QRectF plot = plotRect();
    const TablesOutside outside = tablesOutside();
    if (x < plot.left() + 4 && outside.left > 0) {
        return tr("%1 table points before the view, %2 of them ahead of the global point")
            .arg(outside.left)
            .arg(outside.leftAhead);
    }
    if (x > plot.right() - 4 && outside.right > 0) {
        return tr("%1 table points after the view, %2 of them ahead of the global point")
            .arg(outside.right)
            .arg(outside.rightAhead);
    }
    QStringList tables;
    int count = 0;
    for (const auto& table : snapshot_->tables) {
        if (!table.persisted.axis || std::abs(xOf(double(*table.persisted.axis)) - x) > kHoverPixels) {
            continue;
        }
        if (++count <= kTablesListedInTooltip) {
            QString line = pointTooltip(qualifiedName(table), table.persisted);
            if (table.aheadOfGlobal) {
                const QString bytes = QLocale().toString(qlonglong(table.bytesFromGlobal));
                line += QStringLiteral("<br><span style='color:%1'>").arg(aheadColor().name()) +
                        (heldBy_ ? tr("ahead of the held global point by %1 bytes: %2")
                                       .arg(bytes, shardLockHoldText(*heldBy_, snapshot_->sourceId).toHtmlEscaped())
                                 : tr("ahead of the global point by %1 bytes: a resume skips its events up to here")
                                       .arg(bytes)) +
                        QStringLiteral("</span>");
            }
            tables << line;
        }
    }
    if (count > kTablesListedInTooltip) {
        tables << tr("... and %1 more table points here").arg(count - kTablesListedInTooltip);
    }
    if (!tables.isEmpty()) {
        tables << tr("<i>Click to select the table</i>");
    }
    return tables.join(QStringLiteral("<hr>"));
}

QString PositionRuler::describeAt(const QPoint& position) const {
    if (!snapshot_ || axis_.empty()) {
        return {};
    }
    const double x = position.x();
    // On the axis, a verified mark (drawn there, over the markers' lines) comes first.
    if (std::abs(position.y() - kAxisY) <= kVerifiedMarkRadius + 2) {
        QStringList verified;
        for (const auto& mark : verifiedMarks()) {
            if (std::abs(xOf(mark.axis) - x) <= kHoverPixels) {
                verified << QStringLiteral("<b>%1</b><br>%2")
                                .arg(mark.table.toHtmlEscaped(), mark.verification.text().toHtmlEscaped());
            }
        }
        if (!verified.isEmpty()) {
            return verified.join(QStringLiteral("<hr>"));
        }
    }
    if (position.y() >= kStripTop - 2 && position.y() <= kAheadNamesTop + kAheadNamesHeight) {
        const QString tables = describeTablesAt(x);
        if (!tables.isEmpty()) {
            return tables;
        }
    }
    if (position.y() < kStripTop - 2) {
        // A label names its marks; otherwise the marks whose line is under the pointer.
        const auto all = markers();
        QStringList near;
        for (const auto& label : labels()) {
            if (label.rect.contains(position)) {
                for (const auto& part : label.parts) {
                    const Marker& marker = all[size_t(part.id)];
                    near << pointTooltip(marker.name, *marker.point) + QStringLiteral("<br>") +
                                marker.meaning.toHtmlEscaped();
                }
            }
        }
        if (near.isEmpty()) {
            for (const auto& marker : all) {
                if (marker.point->axis && std::abs(xOf(double(*marker.point->axis)) - x) <= kHoverPixels) {
                    near << pointTooltip(marker.name, *marker.point) + QStringLiteral("<br>") +
                                marker.meaning.toHtmlEscaped();
                }
            }
        }
        if (!near.isEmpty()) {
            return near.join(QStringLiteral("<hr>"));
        }
    }
    if (position.y() >= kLegendTop) {
        const QString crash = safeModeAfterCrashText();
        if (!crash.isEmpty()) {
            return tr("After an unclean stop (a kill, a crash) the next start runs in safe mode from the persisted "
                      "global point up to %1, at most up to the upstream's end: rows in between may have been "
                      "applied already. The engine keeps this mark ahead of what it dispatches.")
                .arg(pointText(snapshot_->exitSafe));
        }
    }
    const double value = axisOfX(x);
    if (value < 0 || value > double(axis_.length())) {
        return {};
    }
    const auto [file, pos] = axis_.locate(uint64_t(value));
    return tr("%1:%2 (byte %3 of the axis)")
        .arg(QString::fromStdString(file))
        .arg(pos)
        .arg(QLocale().toString(qulonglong(value)));
}

QColor PositionRuler::aheadColor() const {
    return heldBy_ ? kShardLockColor : kAheadColor;
}

bool PositionRuler::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = describeAt(help->pos());
        QToolTip::showText(help->globalPos(), text.isEmpty() ? toolTip() : text, this);
        return true;
    }
    return QWidget::event(event);
}

void PositionRuler::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / kWheelDegreesPerStep;
    if (steps != 0) {
        zoomAround(axisOfX(event->position().x()), std::pow(kZoomStep, steps));
    }
    event->accept();
}

void PositionRuler::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        dragging_ = true;
        dragged_ = false;
        dragStartX_ = event->position().x();
        dragStartView_ = viewStart_;
    }
}

void PositionRuler::mouseMoveEvent(QMouseEvent* event) {
    if (!dragging_) {
        return;
    }
    if (!dragged_ && std::abs(event->position().x() - dragStartX_) <= kClickSlopPixels) {
        return;
    }
    if (!dragged_) {
        dragged_ = true;
        setCursor(Qt::ClosedHandCursor);
    }
    const double bytesPerPixel = (viewEnd_ - viewStart_) / plotRect().width();
    const double start = dragStartView_ - (event->position().x() - dragStartX_) * bytesPerPixel;
    setView(start, start + (viewEnd_ - viewStart_));
}

void PositionRuler::mouseReleaseEvent(QMouseEvent* event) {
    const bool click = dragging_ && !dragged_ && event->button() == Qt::LeftButton;
    dragging_ = false;
    dragged_ = false;
    unsetCursor();
    const double y = event->position().y();
    if (click && snapshot_ && y >= kStripTop - 2 && y <= kAheadNamesTop + kAheadNamesHeight) {
        const int index = tableAt(event->position().x());
        if (index >= 0) {
            const auto& table = snapshot_->tables[size_t(index)];
            emit tableClicked(QString::fromStdString(table.schema), QString::fromStdString(table.table));
        }
    }
}

}  // namespace syncscope::ui
