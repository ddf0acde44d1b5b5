#include "ui/main/tray_status.h"

#include <QPainter>
#include <QSystemTrayIcon>
#include <QWidget>

#include "ui/fleet/fleet_model.h"
#include "ui/fleet/notification_center.h"

namespace syncscope::ui {

namespace {

constexpr int kTrayIconSize = 64;
constexpr int kTrayMessageMilliseconds = 10000;

QColor healthColor(ChannelHealth health) {
    switch (health) {
        case ChannelHealth::Failed:
            return QColor(0xc6, 0x28, 0x28);
        case ChannelHealth::Warning:
            return QColor(0xf0, 0xa0, 0x00);
        case ChannelHealth::Healthy:
            return QColor(0x2e, 0x7d, 0x32);
        case ChannelHealth::Idle:
            return QColor(0x75, 0x75, 0x75);
    }
    return Qt::gray;
}

QIcon healthIcon(ChannelHealth health) {
    QPixmap pixmap(kTrayIconSize, kTrayIconSize);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setBrush(healthColor(health));
    painter.setPen(Qt::NoPen);
    constexpr int kMargin = 6;
    painter.drawEllipse(kMargin, kMargin, kTrayIconSize - 2 * kMargin, kTrayIconSize - 2 * kMargin);
    return QIcon(pixmap);
}

}  // namespace

TrayStatus::TrayStatus(const FleetModel* fleet, NotificationCenter* notifications, QWidget* window)
    : QObject(window), fleet_(fleet), tray_(new QSystemTrayIcon(healthIcon(ChannelHealth::Idle), this)) {
    tray_->setToolTip(tr("SyncScope: no channel"));
    connect(tray_, &QSystemTrayIcon::activated, window, [window] {
        window->showNormal();
        window->raise();
        window->activateWindow();
    });
    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        tray_->show();
    }
    connect(notifications, &NotificationCenter::notified, this, [this](const Notification& notification) {
        if (tray_->isVisible() && QSystemTrayIcon::supportsMessages()) {
            tray_->showMessage(
                notification.title, notification.channel + QStringLiteral(": ") + notification.text,
                notification.kind == NotificationKind::Failed ? QSystemTrayIcon::Critical : QSystemTrayIcon::Warning,
                kTrayMessageMilliseconds);
        }
    });
}

void TrayStatus::update() {
    const ChannelHealth worst = fleet_->worstHealth();
    if (int(worst) != shownHealth_) {
        tray_->setIcon(healthIcon(worst));
        shownHealth_ = int(worst);
    }
    int failed = 0;
    for (int row = 0; row < fleet_->rowCount(); ++row) {
        failed += fleet_->rowAt(row).health == ChannelHealth::Failed ? 1 : 0;
    }
    tray_->setToolTip(tr("SyncScope: %n channel(s)", nullptr, fleet_->rowCount()) +
                      (failed > 0 ? tr(", %n failed or lost", nullptr, failed) : QString()));
}

}  // namespace syncscope::ui
