// The task's stage as a coloured badge: Running green, Paused amber, Error red, Stopped grey, New blue.
#pragma once

#include <QLabel>

#include "engine/task/status_snapshot.h"

namespace syncscope::ui {

class StageBadge : public QLabel {
    Q_OBJECT

public:
    explicit StageBadge(QWidget* parent = nullptr);

    void setStage(task::Stage stage, const QString& reason);
    void clearStage();
    task::Stage stage() const { return stage_; }
    static QColor colorOf(task::Stage stage);

private:
    task::Stage stage_ = task::Stage::New;
};

}  // namespace syncscope::ui
