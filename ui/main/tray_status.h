// The tray icon of the main window: the worst health of the fleet as its colour, the channel count and failures
// as its tooltip, each notification as a message; clicking it brings the window back.
#pragma once

#include <QObject>

class QSystemTrayIcon;
class QWidget;

namespace syncscope::ui {

class FleetModel;
class NotificationCenter;

class TrayStatus : public QObject {
    Q_OBJECT

public:
    TrayStatus(const FleetModel* fleet, NotificationCenter* notifications, QWidget* window);

    QSystemTrayIcon* icon() const { return tray_; }
    // Follows the fleet after a refresh.
    void update();

private:
    const FleetModel* fleet_;
    QSystemTrayIcon* tray_;
    int shownHealth_ = -1;  // the ChannelHealth the icon shows
};

}  // namespace syncscope::ui
