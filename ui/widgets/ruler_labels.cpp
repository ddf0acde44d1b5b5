#include "ui/widgets/ruler_labels.h"

#include <QCoreApplication>
#include <QLocale>
#include <algorithm>
#include <cmath>

namespace syncscope::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("PositionRuler", text);
}

QString edgeText(const RulerMark& mark, int edge) {
    const QString distance = rulerDistanceText(mark.bytesOutside);
    return edge < 0 ? QStringLiteral("\u2039 \u2212%1 %2").arg(distance, mark.name)
                    : QStringLiteral("%1 +%2 \u203a").arg(mark.name, distance);
}

}  // namespace

QString rulerDistanceText(double bytes) {
    const auto whole = qint64(std::llround(std::max(0.0, bytes)));
    if (whole < 1024) {
        return tr("%n bytes").arg(whole);
    }
    return QLocale().formattedDataSize(whole, 1, QLocale::DataSizeIecFormat);
}

std::vector<RulerLabel> layOutRulerLabels(std::vector<RulerMark> marks, const QRectF& plot, const QFontMetrics& metrics,
                                          const RulerLaneGeometry& lanes) {
    std::stable_sort(marks.begin(), marks.end(), [](const RulerMark& a, const RulerMark& b) { return a.x < b.x; });
    std::vector<RulerLabel> labels;
    for (const RulerMark& mark : marks) {
        const int edge = mark.x < plot.left() - 1 ? -1 : (mark.x > plot.right() + 1 ? 1 : 0);
        const double x = std::clamp(mark.x, plot.left(), plot.right());
        const QString text = edge == 0 ? mark.name : edgeText(mark, edge);
        const double width = metrics.horizontalAdvance(text) + lanes.padding;
        // Marks on one pixel share a label; a mark past the view's edge has a label of its own (with its
        // distance), stacked in the lanes at that edge.
        const bool joins = edge == 0 && !labels.empty() && labels.back().edge == 0 &&
                           std::abs(labels.back().markX - x) < lanes.samePixel;
        if (joins) {
            labels.back().parts.push_back({text, mark.color, width, mark.id});
        } else {
            RulerLabel label;
            label.markX = x;
            label.edge = edge;
            label.parts.push_back({text, mark.color, width, mark.id});
            labels.push_back(std::move(label));
        }
    }
    std::vector<double> laneEnd(size_t(std::max(1, lanes.lanes)), -1e9);
    for (RulerLabel& label : labels) {
        double width = 0;
        for (const auto& part : label.parts) {
            width += part.width;
        }
        width = std::min(width, plot.width());
        const double left =
            std::clamp(label.markX - width / 2, plot.left(), std::max(plot.left(), plot.right() - width));
        size_t lane = 0;
        while (lane + 1 < laneEnd.size() && left < laneEnd[lane]) {
            ++lane;
        }
        if (left < laneEnd[lane]) {  // more labels than lanes: cannot happen with one lane per possible label
            lane = size_t(std::min_element(laneEnd.begin(), laneEnd.end()) - laneEnd.begin());
        }
        laneEnd[lane] = left + width + lanes.gap;
        label.lane = int(lane);
        const double bottom = lanes.axisY - 10 - double(lane) * lanes.laneHeight;
        label.rect = QRectF(left, bottom - (lanes.laneHeight - 2), width, lanes.laneHeight - 2);
        label.anchorX = std::clamp(label.markX, left + 3, left + width - 3);
    }
    return labels;
}

}  // namespace syncscope::ui
