// Where the position ruler's marker labels go. Marks at the same pixel share one label ("read applied
// upstream", each name in its colour). Labels are placed in position order, each centred over its mark
// where the plot allows, in the lowest lane where it covers no other label; there are as many lanes as
// labels can be, so no label ever covers another, and a label's place depends only on the marks (the
// same positions give the same picture frame after frame). A mark outside the view gets a label of its
// own at the edge it is past, with an arrow and its distance from the view ("upstream +1.2 MiB ›").
#pragma once

#include <QColor>
#include <QFontMetrics>
#include <QRectF>
#include <QString>
#include <vector>

namespace syncscope::ui {

struct RulerMark {
    QString name;
    QColor color;
    double x = 0;             // widget x of the mark; outside the plot when the mark is outside the view
    double bytesOutside = 0;  // how far past the view's edge, in bytes (0 inside the view)
    int id = 0;               // the caller's number for the mark, handed back in the label's part
};

struct RulerLabel {
    struct Part {
        QString text;
        QColor color;
        double width = 0;
        int id = 0;  // RulerMark::id
    };
    double markX = 0;    // where the leader line meets the axis (clamped to the plot)
    int edge = 0;        // -1: the marks are left of the view, +1: right of it, 0: inside
    int lane = 0;        // 0 is the lane nearest the axis
    QRectF rect;         // the whole label
    double anchorX = 0;  // where the leader line leaves the label
    std::vector<Part> parts;
};

struct RulerLaneGeometry {
    double axisY = 0;       // the lanes stack upwards from just above the axis
    double laneHeight = 0;  // height of one lane, the gap included
    int lanes = 0;
    double padding = 0;    // added to a name's text width
    double gap = 0;        // between two labels of one lane
    double samePixel = 0;  // marks closer than this share a label
};

// `marks` in any order; the labels come out in position order.
std::vector<RulerLabel> layOutRulerLabels(std::vector<RulerMark> marks, const QRectF& plot, const QFontMetrics& metrics,
                                          const RulerLaneGeometry& lanes);

// "1.5 MiB", "830 bytes": a distance on the ruler.
QString rulerDistanceText(double bytes);

}  // namespace syncscope::ui
