#include "ui/widgets/position_ruler.h"

#include <QHelpEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "ui/models/checkpoint_anomaly.h"
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

}  // namespace

PositionRuler::PositionRuler(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setToolTip(
        tr("Upstream bytes across the binlog files. Wheel or the buttons to zoom, drag to pan, hover for "
           "exact positions."));
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
    axis_ = snapshot_ ? BinlogAxis(snapshot_->upstreamFiles) : BinlogAxis();
    if (followFullAxis_ || viewEnd_ <= viewStart_) {
        viewStart_ = 0;
        viewEnd_ = double(axis_.length());
    } else {
        setView(viewStart_, viewEnd_);
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

bool PositionRuler::isZoomed() const {
    return !followFullAxis_;
}

void PositionRuler::setView(double start, double end) {
    const double length = double(axis_.length());
    double span = std::clamp(end - start, std::min(kMinimumSpanBytes, length), length);
    start = std::clamp(start, 0.0, std::max(0.0, length - span));
    viewStart_ = start;
    viewEnd_ = start + span;
    followFullAxis_ = span >= length;
    update();
    emit viewChanged(viewStart_, viewEnd_);
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
    setView(0, double(axis_.length()));
}

void PositionRuler::zoomToGlobal() {
    if (!snapshot_ || !snapshot_->globalPersisted.axis) {
        return;
    }
    double low = double(*snapshot_->globalPersisted.axis);
    double high = low;
    for (const auto* point : {&snapshot_->applied, &snapshot_->read, &snapshot_->globalInMemory}) {
        if (point->axis) {
            low = std::min(low, double(*point->axis));
            high = std::max(high, double(*point->axis));
        }
    }
    for (const auto& table : snapshot_->tables) {
        if (table.aheadOfGlobal && table.persisted.axis) {
            high = std::max(high, double(*table.persisted.axis));
        }
    }
    const double margin = std::max(kMinimumSpanBytes, (high - low) * kGlobalZoomMargin);
    setView(low - margin, high + margin);
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
    return {{tr("upstream"), kUpstreamColor, &snapshot_->upstream},
            {tr("read"), kReadColor, &snapshot_->read},
            {tr("applied"), kAppliedColor, &snapshot_->applied},
            {tr("global in memory"), kGlobalMemoryColor, &snapshot_->globalInMemory},
            {tr("global persisted"), kGlobalPersistedColor, &snapshot_->globalPersisted},
            {tr("exit-safe"), kExitSafeColor, &snapshot_->exitSafe}};
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
    // Markers first: they are what a DBA points at.
    QStringList near;
    for (const auto& marker : markers()) {
        if (marker.point->axis && std::abs(xOf(double(*marker.point->axis)) - x) <= kHoverPixels) {
            near << pointTooltip(marker.name, *marker.point);
        }
    }
    if (!near.isEmpty()) {
        return near.join(QStringLiteral("<hr>"));
    }
    if (position.y() >= kTickTop - 2 && position.y() <= kTickTop + kAheadTickHeight + 2) {
        QStringList tables;
        int count = 0;
        for (const auto& table : snapshot_->tables) {
            if (!table.persisted.axis || std::abs(xOf(double(*table.persisted.axis)) - x) > kHoverPixels / 2) {
                continue;
            }
            if (++count <= kTablesListedInTooltip) {
                QString line = pointTooltip(qualifiedName(table), table.persisted);
                if (table.aheadOfGlobal) {
                    line += QStringLiteral("<br><span style='color:#e53935'>") +
                            tr("ahead of the global point by %1 bytes: a resume skips its events up to here")
                                .arg(QLocale().toString(qlonglong(table.bytesFromGlobal))) +
                            QStringLiteral("</span>");
                }
                tables << line;
            }
        }
        if (count > kTablesListedInTooltip) {
            tables << tr("... and %1 more table points here").arg(count - kTablesListedInTooltip);
        }
        if (!tables.isEmpty()) {
            return tables.join(QStringLiteral("<hr>"));
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

bool PositionRuler::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = describeAt(help->pos());
        if (text.isEmpty()) {
            QToolTip::showText(help->globalPos(), toolTip(), this);
        } else {
            QToolTip::showText(help->globalPos(), text, this);
        }
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
        dragStartX_ = event->position().x();
        dragStartView_ = viewStart_;
        setCursor(Qt::ClosedHandCursor);
    }
}

void PositionRuler::mouseMoveEvent(QMouseEvent* event) {
    if (!dragging_) {
        return;
    }
    const double bytesPerPixel = (viewEnd_ - viewStart_) / plotRect().width();
    const double start = dragStartView_ - (event->position().x() - dragStartX_) * bytesPerPixel;
    setView(start, start + (viewEnd_ - viewStart_));
}

void PositionRuler::mouseReleaseEvent(QMouseEvent*) {
    dragging_ = false;
    unsetCursor();
}

}  // namespace syncscope::ui
