#include "ui/models/ui_resources.h"

#include <QDir>

// Q_INIT_RESOURCE must be used outside any namespace.
static void registerSyncScopeResources() {
    Q_INIT_RESOURCE(syncscope);
}

namespace syncscope::ui {

void initResources() {
    static const bool registered = [] {
        registerSyncScopeResources();
        return true;
    }();
    (void)registered;
}

QIcon applicationIcon() {
    initResources();
    return QIcon(QStringLiteral(":/icons/syncscope.svg"));
}

QIcon aheadOfGlobalIcon() {
    initResources();
    return QIcon(QStringLiteral(":/icons/ahead-of-global.svg"));
}

QIcon checkpointWarningIcon() {
    initResources();
    return QIcon(QStringLiteral(":/icons/checkpoint-warning.svg"));
}

}  // namespace syncscope::ui
