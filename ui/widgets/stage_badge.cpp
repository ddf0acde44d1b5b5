#include "ui/widgets/stage_badge.h"

namespace syncscope::ui {

namespace {
constexpr int kMinimumBadgeWidth = 96;
}

StageBadge::StageBadge(QWidget* parent) : QLabel(parent) {
    setAlignment(Qt::AlignCenter);
    setMinimumWidth(kMinimumBadgeWidth);
    QFont bold = font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.15);
    setFont(bold);
    clearStage();
}

QColor StageBadge::colorOf(task::Stage stage) {
    switch (stage) {
        case task::Stage::Running:
            return QColor(46, 125, 50);
        case task::Stage::Paused:
            return QColor(239, 160, 0);
        case task::Stage::Error:
            return QColor(198, 40, 40);
        case task::Stage::Stopped:
            return QColor(117, 117, 117);
        case task::Stage::New:
            return QColor(21, 101, 192);
    }
    return QColor(117, 117, 117);
}

void StageBadge::setStage(task::Stage stage, const QString& reason) {
    stage_ = stage;
    const QColor background = colorOf(stage);
    const QColor text = stage == task::Stage::Paused ? QColor(Qt::black) : QColor(Qt::white);
    setStyleSheet(QStringLiteral("QLabel { background: %1; color: %2; border-radius: 6px; padding: 4px 12px; }")
                      .arg(background.name(), text.name()));
    setText(QString::fromLatin1(task::stageName(stage)));
    setToolTip(reason.isEmpty() ? tr("The task's stage") : tr("The task's stage: %1").arg(reason));
    setAccessibleName(tr("Stage %1").arg(this->text()));
}

void StageBadge::clearStage() {
    setStyleSheet(QStringLiteral("QLabel { border: 1px solid palette(mid); border-radius: 6px; padding: 4px 12px; }"));
    setText(tr("No task"));
    setToolTip(tr("No task is open"));
}

}  // namespace syncscope::ui
