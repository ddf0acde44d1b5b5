// The position ruler's painting: the binlog files, the axis and its ticks, the verified marks, the marker labels
// laid out so that none covers another, and the legend. Apart from position_ruler.cpp (geometry, zoom, hover)
// so that each file keeps one job.
#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "ui/models/checkpoint_anomaly.h"
#include "ui/widgets/position_ruler.h"
#include "ui/widgets/position_ruler_style.h"

namespace syncscope::ui {

using namespace ruler;

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

}  // namespace syncscope::ui
