// The icons compiled into the GUI, loaded once the resource file of this static library is registered.
#pragma once

#include <QIcon>

namespace syncscope::ui {

// Registers resources/syncscope.qrc (a static library's resources are not registered on their own).
void initResources();

QIcon applicationIcon();
QIcon aheadOfGlobalIcon();
QIcon checkpointWarningIcon();

}  // namespace syncscope::ui
