// The position ruler's layout (the file band, the label lanes, the axis, the table strip, the names of the
// tables ahead, the legend) and mark colours, shared by its geometry and event code (position_ruler.cpp)
// and its painting (position_ruler_paint.cpp).
#pragma once

#include <QColor>
#include <QtGlobal>

namespace syncscope::ui::ruler {

inline constexpr int kSideMargin = 14;
inline constexpr int kFileBandTop = 4;
inline constexpr int kFileBandHeight = 18;
// One lane per label there can be (five points and the end of safe mode; a shard lock shares the persisted
// global point's label), so that none covers another.
inline constexpr int kLabelLanes = 6;
inline constexpr int kLabelLaneHeight = 16;
inline constexpr int kAxisY = kFileBandTop + kFileBandHeight + 4 + kLabelLanes * kLabelLaneHeight + 10;
inline constexpr int kStripTop = kAxisY + 6;
inline constexpr int kStripHeight = 20;
inline constexpr int kAheadNamesTop = kStripTop + kStripHeight + 2;
inline constexpr int kAheadNamesHeight = 15;
inline constexpr int kLegendTop = kAheadNamesTop + kAheadNamesHeight + 2;
inline constexpr int kLegendHeight = 18;
inline constexpr int kHeight = kLegendTop + kLegendHeight + 4;
inline constexpr int kMinimumWidth = 320;
inline constexpr double kHoverPixels = 6;
inline constexpr double kClickSlopPixels = 3;
inline constexpr double kWheelDegreesPerStep = 120;
inline constexpr double kSpanMargin = 0.06;        // of the followed span, on each side
inline constexpr double kSpanMinimumBytes = 4096;  // a caught-up task still shows a few KiB
inline constexpr int kTablesListedInTooltip = 6;
inline constexpr double kLabelPadding = 8;
inline constexpr double kLabelGap = 4;
inline constexpr double kSamePixel = 2;
inline constexpr qsizetype kShortestFileLabel = 4;  // an ellipsis and three digits
inline constexpr double kVerifiedMarkRadius = 5;
inline constexpr double kShortestFileBoundary = 24;  // pixels a file needs for its boundary line

inline const QColor kUpstreamColor(30, 136, 229);
inline const QColor kReadColor(0, 137, 123);
inline const QColor kAppliedColor(67, 160, 71);
inline const QColor kGlobalMemoryColor(142, 36, 170);
inline const QColor kGlobalPersistedColor(244, 81, 30);
inline const QColor kSafeModeColor(251, 192, 45);
inline const QColor kAheadColor(229, 57, 53);
inline const QColor kVerifiedEqualColor(46, 125, 50);
inline const QColor kVerifiedDifferentColor(229, 57, 53);

}  // namespace syncscope::ui::ruler
