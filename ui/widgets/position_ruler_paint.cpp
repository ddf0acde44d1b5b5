// The position ruler's painting: the binlog files, the axis, the table strip and the names of the tables
// ahead, the marker labels (placed by ruler_labels), the verified marks and the legend. Apart from position_ruler.cpp
// (geometry, zoom, hover) so that each file keeps one job.
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
    paintTableStrip(painter, plot);
    paintAheadNames(painter, plot);
    paintMarkers(painter);
    paintVerifiedMarks(painter, plot);
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
        // A boundary line down to the strip tells which file a mark is in, where files are wide enough
        // for it to be read; a thousand files on one screen would only hatch the view.
        if (right - left >= kShortestFileBoundary) {
            painter.setPen(QPen(boundary, 1, Qt::DashLine));
            painter.drawLine(QPointF(left, kFileBandTop), QPointF(left, kStripTop + kStripHeight));
        }
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

void PositionRuler::paintTableStrip(QPainter& painter, const QRectF& plot) {
    // One bucket per pixel, so that 10,000 tables cost one pass and at most width() lines. A column's
    // height grows with the number of tables on it (log scale), so a crowd reads as a crowd, not a blur.
    const int columns = int(plot.width()) + 1;
    std::vector<uint32_t> plain(size_t(columns), 0);
    std::vector<uint32_t> ahead(size_t(columns), 0);
    for (const auto& table : snapshot_->tables) {
        if (!table.persisted.axis) {
            continue;
        }
        const double x = xOf(double(*table.persisted.axis)) - plot.left();
        if (x < 0 || x >= columns) {
            continue;
        }
        ++(table.aheadOfGlobal ? ahead : plain)[size_t(x)];
    }
    QColor baseline = palette().color(QPalette::Mid);
    painter.setPen(QPen(baseline, 1));
    painter.drawLine(QPointF(plot.left(), kStripTop + kStripHeight), QPointF(plot.right(), kStripTop + kStripHeight));
    QColor plainColor = palette().color(QPalette::WindowText);
    plainColor.setAlpha(160);
    auto height = [](uint32_t count) { return std::min(double(kStripHeight), 6 + 3 * std::log2(double(count))); };
    const double bottom = kStripTop + kStripHeight;
    for (int column = 0; column < columns; ++column) {
        const double x = plot.left() + column;
        if (plain[size_t(column)] > 0) {
            painter.setPen(QPen(plainColor, 1));
            painter.drawLine(QPointF(x, bottom), QPointF(x, bottom - height(plain[size_t(column)])));
        }
        if (ahead[size_t(column)] > 0) {
            painter.setPen(QPen(aheadColor(), 2));
            painter.drawLine(QPointF(x, bottom), QPointF(x, kStripTop));
        }
    }
    // Table points outside the view: a count at the edge they are past.
    const TablesOutside outside = tablesOutside();
    const QFontMetrics metrics = painter.fontMetrics();
    auto edgeCount = [&](int count, int countAhead, bool left) {
        if (count == 0) {
            return;
        }
        const QString tables = tr("%1 tables").arg(QLocale().toString(count));
        const QString text = left ? QStringLiteral("\u2039 ") + tables : tables + QStringLiteral(" \u203a");
        const double width = metrics.horizontalAdvance(text) + 6;
        const QRectF box(left ? plot.left() : plot.right() - width, kStripTop, width, kStripHeight);
        painter.fillRect(box, palette().color(QPalette::Window));
        painter.setPen(countAhead > 0 ? aheadColor() : palette().color(QPalette::WindowText));
        painter.drawText(box, Qt::AlignCenter, text);
    };
    edgeCount(outside.left, outside.leftAhead, true);
    edgeCount(outside.right, outside.rightAhead, false);
}

void PositionRuler::paintAheadNames(QPainter& painter, const QRectF& plot) {
    // The names of the tables ahead of the global point under their marks, as many as fit in one row
    // without covering each other; the rest are counted at the end of the row.
    std::vector<std::pair<double, const task::TablePointView*>> ahead;
    for (const auto& table : snapshot_->tables) {
        if (table.aheadOfGlobal && table.persisted.axis) {
            const double x = xOf(double(*table.persisted.axis));
            if (x >= plot.left() && x <= plot.right()) {
                ahead.push_back({x, &table});
            }
        }
    }
    if (ahead.empty()) {
        return;
    }
    std::sort(ahead.begin(), ahead.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    const QFontMetrics metrics = painter.fontMetrics();
    const QString moreTemplate = tr("+%1 more ahead");
    const double reserve = metrics.horizontalAdvance(moreTemplate.arg(ahead.size())) + 8;
    double rowEnd = plot.left();
    size_t shown = 0;
    painter.setPen(aheadColor());
    for (const auto& [x, table] : ahead) {
        const QString name = QString::fromStdString(table->schema + "." + table->table);
        const double width = metrics.horizontalAdvance(name) + 6;
        const double left = std::max(x - width / 2, rowEnd);
        if (left + width > plot.right() - reserve) {
            break;  // no room: the rest are counted
        }
        painter.drawText(QRectF(left, kAheadNamesTop, width, kAheadNamesHeight), Qt::AlignCenter, name);
        rowEnd = left + width + 4;
        ++shown;
    }
    if (shown < ahead.size()) {
        painter.drawText(QRectF(plot.right() - reserve, kAheadNamesTop, reserve, kAheadNamesHeight),
                         Qt::AlignRight | Qt::AlignVCenter, moreTemplate.arg(ahead.size() - shown));
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

void PositionRuler::paintMarkers(QPainter& painter) {
    const auto labels = placeLabels(painter.fontMetrics());
    // Every leader first, then the labels over them: a leader passing behind a lower lane's label is
    // hidden by it rather than drawn across its text.
    for (const RulerLabel& label : labels) {
        const QColor& first = label.parts.front().color;
        const double bottom = label.rect.bottom();
        painter.setPen(QPen(first, 1.5));
        painter.drawLine(QPointF(label.anchorX, bottom), QPointF(label.markX, bottom + 3));
        painter.drawLine(QPointF(label.markX, bottom + 3), QPointF(label.markX, kAxisY));
        QPainterPath triangle;
        triangle.moveTo(label.markX - 5, kAxisY - 8);
        triangle.lineTo(label.markX + 5, kAxisY - 8);
        triangle.lineTo(label.markX, kAxisY);
        triangle.closeSubpath();
        painter.fillPath(triangle, first);
    }
    for (const RulerLabel& label : labels) {
        double left = label.rect.left();
        for (const RulerLabel::Part& part : label.parts) {
            const QRectF box(left, label.rect.top(), std::min(part.width, label.rect.right() - left),
                             label.rect.height());
            painter.setPen(Qt::NoPen);
            painter.setBrush(part.color);
            painter.drawRoundedRect(box, 3, 3);
            painter.setPen(part.color.lightness() > 150 ? Qt::black : Qt::white);
            painter.drawText(box, Qt::AlignCenter, part.text);
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
        summary += heldBy_ ? tr(", %1 ahead of the global point held for the shard DDL lock on %2")
                                 .arg(aheadCount)
                                 .arg(QString::fromStdString(heldBy_->target.text()))
                           : tr(", %1 ahead of the global point (red)").arg(aheadCount);
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
    const double length = double(axis_.length());
    const auto [startFile, startPos] = axis_.locate(uint64_t(std::clamp(viewStart_, 0.0, length)));
    const auto [endFile, endPos] = axis_.locate(uint64_t(std::clamp(viewEnd_, 0.0, length)));
    summary += tr("   view %1:%2 to %3")
                   .arg(QString::fromStdString(startFile))
                   .arg(startPos)
                   .arg(viewEnd_ >= length ? tr("the upstream's end")
                                           : QStringLiteral("%1:%2").arg(QString::fromStdString(endFile)).arg(endPos));
    painter.setPen(aheadCount > 0 ? aheadColor() : palette().color(QPalette::WindowText));
    summary = metrics.elidedText(summary, Qt::ElideRight, int(plot.width()));
    painter.drawText(QRectF(plot.left(), kLegendTop, plot.width(), kLegendHeight), Qt::AlignRight | Qt::AlignVCenter,
                     summary);
    const double summaryLeft = plot.right() - metrics.horizontalAdvance(summary) - 12;
    // The labels name the marks drawn; the legend names those that are not (their point is unknown, or
    // in a file the upstream's list does not have yet: the list is polled), dimmed with a hollow box so
    // that nobody looks for them, and says where safe mode would end after a crash when that is no
    // mark of its own (the mark is kept ahead of the upstream's end).
    std::vector<std::pair<QString, QColor>> items;
    for (const auto& marker : markers()) {
        if (!marker.point->axis) {
            items.push_back({tr("%1: not on the axis").arg(marker.name), marker.color});
        }
    }
    if (!exitSafeIsMarked()) {
        if (QString crash = safeModeAfterCrashText(); !crash.isEmpty()) {
            items.push_back({crash, kSafeModeColor});
        }
    }
    double x = plot.left();
    const double box = metrics.height() * 0.6;
    for (const auto& [text, color] : items) {
        const double itemWidth = box + 4 + metrics.horizontalAdvance(text) + 12;
        if (x + itemWidth > summaryLeft) {
            break;
        }
        const QRectF boxRect(x, kLegendTop + (kLegendHeight - box) / 2, box, box);
        painter.setPen(QPen(color, 1.5));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(boxRect.adjusted(0.5, 0.5, -0.5, -0.5));
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(QRectF(x + box + 4, kLegendTop, itemWidth, kLegendHeight), Qt::AlignLeft | Qt::AlignVCenter,
                         text);
        x += itemWidth;
    }
}

}  // namespace syncscope::ui
