#include "ui/engine/snapshot_release.h"

#include <QThreadPool>

namespace syncscope::ui {

void releaseOffTheGuiThread(std::vector<std::shared_ptr<const task::StatusSnapshot>> snapshots) {
    if (!snapshots.empty()) {
        QThreadPool::globalInstance()->start([snapshots = std::move(snapshots)]() mutable { snapshots.clear(); });
    }
}

void releaseOffTheGuiThread(std::shared_ptr<const task::StatusSnapshot> snapshot) {
    if (snapshot) {
        QThreadPool::globalInstance()->start([snapshot = std::move(snapshot)]() mutable { snapshot.reset(); });
    }
}

}  // namespace syncscope::ui
