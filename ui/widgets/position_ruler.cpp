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

namespace syncscope::ui {

namespace {

constexpr int kSideMargin = 14;
constexpr int kFileBandTop = 4;
constexpr int kFileBandHeight = 20;
constexpr int kLabelRowTop = 30;
constexpr int kLabelRowHeight = 17;
constexpr int kLabelRows = 3;
constexpr int kAxisY = kLabelRowTop + kLabelRows * kLabelRowHeight + 14;
constexpr int kTickTop = kAxisY + 4;
constexpr int kTickHeight = 14;
constexpr int kAheadTickHeight = 22;
constexpr int kLegendTop = kAxisY + 32;
constexpr int kLegendHeight = 18;
constexpr int kHeight = kLegendTop + kLegendHeight + 6;
constexpr int kMinimumWidth = 320;
constexpr double kHoverPixels = 6;
constexpr double kWheelDegreesPerStep = 120;
constexpr double kGlobalZoomMargin = 0.25;
constexpr int kTablesListedInTooltip = 6;
constexpr double kLabelPadding = 8;
constexpr double kLabelGap = 4;
constexpr double kSamePixel = 2;
constexpr qsizetype kShortestFileLabel = 4;  // an ellipsis and three digits
constexpr double kVerifiedMarkRadius = 5;

const QColor kUpstreamColor(30, 136, 229);
const QColor kReadColor(0, 137, 123);
const QColor kAppliedColor(67, 160, 71);
const QColor kGlobalMemoryColor(142, 36, 170);
const QColor kGlobalPersistedColor(244, 81, 30);
const QColor kExitSafeColor(251, 192, 45);
const QColor kAheadColor(229, 57, 53);
const QColor kVerifiedEqualColor(46, 125, 50);
const QColor kVerifiedDifferentColor(229, 57, 53);

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

void PositionRuler::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QRectF plot = plotRect();
    if (axis_.empty() || viewEnd_ <= viewStart_) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter,
                         snapshot_ ? tr("The upstream's binlog files are not known yet")
                                   : tr("No task: the ruler shows where replication stands once a task is open"));
        return;
    }
    paintFiles(painter, plot);
    painter.setPen(QPen(palette().color(QPalette::WindowText), 1.5));
    painter.drawLine(QPointF(plot.left(), kAxisY), QPointF(plot.right(), kAxisY));
    paintTicks(painter, plot);
    paintVerifiedMarks(painter, plot);
    paintMarkers(painter, plot);
    paintLegend(painter, plot);
}

void PositionRuler::paintFiles(QPainter& painter, const QRectF& plot) {
    const QColor even = palette().color(QPalette::AlternateBase);
    const QColor odd = palette().color(QPalette::Base);
    const QColor boundary = palette().color(QPalette::Mid);
    painter.save();
    painter.setClipRect(plot.adjusted(-1, 0, 1, 0));
    int index = 0;
    for (const auto& file : axis_.files()) {
        const double left = xOf(double(file.start));
        const double right = xOf(double(file.start + file.size));
        ++index;
        if (right < plot.left() || left > plot.right()) {
            continue;
        }
        const QRectF band(left, kFileBandTop, right - left, kFileBandHeight);
        painter.fillRect(band, index % 2 ? odd : even);
        painter.setPen(QPen(boundary, 1, Qt::DashLine));
        painter.drawLine(QPointF(left, kFileBandTop), QPointF(left, kAxisY + kAheadTickHeight));
        painter.setPen(palette().color(QPalette::WindowText));
        // The number at the end tells files apart, so a narrow band keeps it ("...0003"); a band too
        // narrow even for that stays unlabelled rather than spilling over its neighbours.
        const QRectF visible = band.intersected(plot).adjusted(2, 0, -2, 0);
        const QString name = QString::fromStdString(file.name);
        const QString shown = painter.fontMetrics().elidedText(name, Qt::ElideLeft, int(visible.width()));
        if (shown == name || shown.size() >= kShortestFileLabel) {
            painter.save();
            painter.setClipRect(visible);
            painter.drawText(visible, Qt::AlignCenter, shown);
            painter.restore();
        }
    }
    painter.setPen(QPen(boundary, 1));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(QRectF(plot.left(), kFileBandTop, plot.width(), kFileBandHeight));
    painter.restore();
}

void PositionRuler::paintTicks(QPainter& painter, const QRectF& plot) {
    // One bucket per pixel, so that 10,000 tables cost one pass and at most width() lines.
    const int columns = int(plot.width()) + 1;
    std::vector<uint8_t> bucket(size_t(columns), 0);
    constexpr uint8_t kPlain = 1;
    constexpr uint8_t kAhead = 2;
    for (const auto& table : snapshot_->tables) {
        if (!table.persisted.axis) {
            continue;
        }
        const double x = xOf(double(*table.persisted.axis)) - plot.left();
        if (x < 0 || x >= columns) {
            continue;
        }
        bucket[size_t(x)] |= table.aheadOfGlobal ? kAhead : kPlain;
    }
    QColor plain = palette().color(QPalette::WindowText);
    plain.setAlpha(150);
    for (int column = 0; column < columns; ++column) {
        if (!bucket[size_t(column)]) {
            continue;
        }
        const double x = plot.left() + column;
        if (bucket[size_t(column)] & kAhead) {
            painter.setPen(QPen(kAheadColor, 2));
            painter.drawLine(QPointF(x, kTickTop), QPointF(x, kTickTop + kAheadTickHeight));
        } else {
            painter.setPen(QPen(plain, 1));
            painter.drawLine(QPointF(x, kTickTop), QPointF(x, kTickTop + kTickHeight));
        }
    }
}

void PositionRuler::paintVerifiedMarks(QPainter& painter, const QRectF& plot) {
    const auto marks = verifiedMarks();
    if (marks.empty()) {
        return;
    }
    // One diamond per pixel: red when any table verified there needs attention.
    std::vector<std::pair<double, bool>> drawn;
    for (const auto& mark : marks) {
        const double x = xOf(mark.axis);
        if (x < plot.left() - kVerifiedMarkRadius || x > plot.right() + kVerifiedMarkRadius) {
            continue;
        }
        if (!drawn.empty() && std::abs(drawn.back().first - x) < kSamePixel) {
            drawn.back().second = drawn.back().second || mark.verification.needsAttention();
        } else {
            drawn.push_back({x, mark.verification.needsAttention()});
        }
    }
    painter.save();
    for (const auto& [x, attention] : drawn) {
        QPainterPath diamond;
        diamond.moveTo(x, kAxisY - kVerifiedMarkRadius);
        diamond.lineTo(x + kVerifiedMarkRadius, kAxisY);
        diamond.lineTo(x, kAxisY + kVerifiedMarkRadius);
        diamond.lineTo(x - kVerifiedMarkRadius, kAxisY);
        diamond.closeSubpath();
        painter.setPen(QPen(palette().color(QPalette::Base), 1));
        painter.setBrush(attention ? kVerifiedDifferentColor : kVerifiedEqualColor);
        painter.drawPath(diamond);
    }
    painter.restore();
}

std::vector<PositionRuler::PlacedLabel> PositionRuler::placeLabels(const QFontMetrics& metrics,
                                                                   const QRectF& plot) const {
    // Markers at the same pixel share one label ("read = applied"): their names side by side in their
    // colours. Labels are laid out left to right in kLabelRows rows; a label that would cover the one
    // before it moves right in the row where it moves least, and a leader line joins it to its marker.
    std::vector<PlacedLabel> labels;
    const auto all = markers();
    std::vector<std::pair<double, size_t>> byX;
    // A marker outside the view (zoomed, or the exit-safe mark persisted ahead of the upstream's end)
    // sits at the edge it is past, with an arrow pointing its way.
    for (size_t i = 0; i < all.size(); ++i) {
        if (all[i].point->axis) {
            const double x = xOf(double(*all[i].point->axis));
            byX.push_back({std::clamp(x, plot.left(), plot.right()), i});
        }
    }
    std::stable_sort(byX.begin(), byX.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [x, index] : byX) {
        const Marker& marker = all[index];
        const double trueX = xOf(double(*marker.point->axis));
        QString name = marker.name;
        if (trueX < plot.left() - 1) {
            name = QStringLiteral("\u2039 ") + name;
        } else if (trueX > plot.right() + 1) {
            name += QStringLiteral(" \u203a");
        }
        const double width = metrics.horizontalAdvance(name) + kLabelPadding;
        if (!labels.empty() && std::abs(labels.back().x - x) < kSamePixel) {
            labels.back().parts.push_back({name, marker.color, width});
            labels.back().width += width;
        } else {
            labels.push_back({x, 0, 0, width, {{name, marker.color, width}}});
        }
    }
    std::vector<double> rowEnd(kLabelRows, -1e9);
    for (PlacedLabel& label : labels) {
        const double maxLeft = plot.right() - label.width;
        const double wanted = std::clamp(label.x - label.width / 2, plot.left(), std::max(plot.left(), maxLeft));
        int bestRow = -1;
        double bestLeft = 0;
        for (int row = 0; row < kLabelRows; ++row) {
            const double left = std::max(wanted, rowEnd[size_t(row)]);
            if (left <= maxLeft && (bestRow < 0 || left - wanted < bestLeft - wanted)) {
                bestRow = row;
                bestLeft = left;
            }
        }
        if (bestRow < 0) {  // no room left on the right in any row: the least crowded row, at the edge
            bestRow = int(std::min_element(rowEnd.begin(), rowEnd.end()) - rowEnd.begin());
            bestLeft = std::max(plot.left(), maxLeft);
        }
        label.row = bestRow;
        label.left = bestLeft;
        rowEnd[size_t(bestRow)] = bestLeft + label.width + kLabelGap;
    }
    return labels;
}

std::vector<QRectF> PositionRuler::markerLabelRects() const {
    std::vector<QRectF> rects;
    if (axis_.empty() || viewEnd_ <= viewStart_) {
        return rects;
    }
    for (const PlacedLabel& label : placeLabels(fontMetrics(), plotRect())) {
        rects.emplace_back(label.left, kLabelRowTop + label.row * kLabelRowHeight, label.width, kLabelRowHeight - 2);
    }
    return rects;
}

void PositionRuler::paintMarkers(QPainter& painter, const QRectF& plot) {
    const auto labels = placeLabels(painter.fontMetrics(), plot);
    for (const PlacedLabel& label : labels) {
        const double top = kLabelRowTop + label.row * kLabelRowHeight;
        const double bottom = top + kLabelRowHeight - 2;
        const QColor& first = label.parts.front().color;
        // The leader: down from the label (or from its nearest edge when it moved away) to the axis.
        const double anchor = std::clamp(label.x, label.left + 3, label.left + label.width - 3);
        painter.setPen(QPen(first, 1.5));
        painter.drawLine(QPointF(anchor, bottom), QPointF(label.x, bottom + 3));
        painter.drawLine(QPointF(label.x, bottom + 3), QPointF(label.x, kAxisY));
        QPainterPath triangle;
        triangle.moveTo(label.x - 5, kAxisY - 8);
        triangle.lineTo(label.x + 5, kAxisY - 8);
        triangle.lineTo(label.x, kAxisY);
        triangle.closeSubpath();
        painter.fillPath(triangle, first);
        double left = label.left;
        for (const LabelPart& part : label.parts) {
            const QRectF box(left, top, part.width, kLabelRowHeight - 2);
            painter.setPen(Qt::NoPen);
            painter.setBrush(part.color);
            painter.drawRoundedRect(box, 3, 3);
            painter.setPen(part.color.lightness() > 150 ? Qt::black : Qt::white);
            painter.drawText(box, Qt::AlignCenter, part.name);
            left += part.width;
        }
    }
}

void PositionRuler::paintLegend(QPainter& painter, const QRectF& plot) {
    const QFontMetrics metrics = painter.fontMetrics();
    int aheadCount = 0;
    for (const auto& table : snapshot_->tables) {
        aheadCount += table.aheadOfGlobal ? 1 : 0;
    }
    const QLocale locale;
    QString summary = tr("%1 table points").arg(locale.toString(qulonglong(snapshot_->tables.size())));
    if (aheadCount > 0) {
        summary += tr(", %1 ahead of the global point (red)").arg(aheadCount);
    }
    if (!verifications_.isEmpty()) {
        int attention = 0;
        for (const auto& verification : verifications_) {
            attention += verification.needsAttention() ? 1 : 0;
        }
        summary += tr(", %1 verified (\u25c6)").arg(verifications_.size());
        if (attention > 0) {
            summary += tr(", %1 with differences").arg(attention);
        }
    }
    const auto [startFile, startPos] = axis_.locate(uint64_t(std::max(0.0, viewStart_)));
    const auto [endFile, endPos] = axis_.locate(uint64_t(std::max(0.0, viewEnd_)));
    summary += tr("   view %1:%2 to %3:%4")
                   .arg(QString::fromStdString(startFile))
                   .arg(startPos)
                   .arg(QString::fromStdString(endFile))
                   .arg(endPos);
    painter.setPen(aheadCount > 0 ? kAheadColor : palette().color(QPalette::WindowText));
    painter.drawText(QRectF(plot.left(), kLegendTop, plot.width(), kLegendHeight), Qt::AlignRight | Qt::AlignVCenter,
                     summary);
    const double summaryLeft = plot.right() - metrics.horizontalAdvance(summary) - 12;
    double x = plot.left();
    const double box = metrics.height() * 0.6;
    for (const auto& marker : markers()) {
        const double itemWidth = box + 4 + metrics.horizontalAdvance(marker.name) + 12;
        if (x + itemWidth > summaryLeft) {
            break;
        }
        // A marker that is not drawn (its point is unknown, or in a file the upstream's list does not
        // have yet: the list is polled) gets a hollow box and a dimmed name, so that nobody looks for it.
        const QRectF boxRect(x, kLegendTop + (kLegendHeight - box) / 2, box, box);
        const bool drawn = marker.point->axis.has_value();
        if (drawn) {
            painter.fillRect(boxRect, marker.color);
        } else {
            painter.setPen(QPen(marker.color, 1.5));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(boxRect.adjusted(0.5, 0.5, -0.5, -0.5));
        }
        painter.setPen(palette().color(drawn ? QPalette::WindowText : QPalette::PlaceholderText));
        painter.drawText(QRectF(x + box + 4, kLegendTop, itemWidth, kLegendHeight), Qt::AlignLeft | Qt::AlignVCenter,
                         marker.name);
        x += itemWidth;
    }
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
