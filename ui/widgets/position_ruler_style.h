// The position ruler's layout (rows of the file band, labels, axis, ticks, legend) and marker colours, shared by
// its geometry and event code (position_ruler.cpp) and its painting (position_ruler_paint.cpp).
#pragma once

#include <QColor>
#include <QtGlobal>

namespace syncscope::ui::ruler {

inline constexpr int kSideMargin = 14;
inline constexpr int kFileBandTop = 4;
inline constexpr int kFileBandHeight = 20;
inline constexpr int kLabelRowTop = 30;
inline constexpr int kLabelRowHeight = 17;
inline constexpr int kLabelRows = 3;
inline constexpr int kAxisY = kLabelRowTop + kLabelRows * kLabelRowHeight + 14;
inline constexpr int kTickTop = kAxisY + 4;
inline constexpr int kTickHeight = 14;
inline constexpr int kAheadTickHeight = 22;
inline constexpr int kLegendTop = kAxisY + 32;
inline constexpr int kLegendHeight = 18;
inline constexpr int kHeight = kLegendTop + kLegendHeight + 6;
inline constexpr int kMinimumWidth = 320;
inline constexpr double kHoverPixels = 6;
inline constexpr double kWheelDegreesPerStep = 120;
inline constexpr double kGlobalZoomMargin = 0.25;
inline constexpr int kTablesListedInTooltip = 6;
inline constexpr double kLabelPadding = 8;
inline constexpr double kLabelGap = 4;
inline constexpr double kSamePixel = 2;
inline constexpr qsizetype kShortestFileLabel = 4;  // an ellipsis and three digits
inline constexpr double kVerifiedMarkRadius = 5;

inline const QColor kUpstreamColor(30, 136, 229);
inline const QColor kReadColor(0, 137, 123);
inline const QColor kAppliedColor(67, 160, 71);
inline const QColor kGlobalMemoryColor(142, 36, 170);
inline const QColor kGlobalPersistedColor(244, 81, 30);
inline const QColor kExitSafeColor(251, 192, 45);
inline const QColor kAheadColor(229, 57, 53);
inline const QColor kVerifiedEqualColor(46, 125, 50);
inline const QColor kVerifiedDifferentColor(229, 57, 53);

}  // namespace syncscope::ui::ruler
