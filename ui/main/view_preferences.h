// View > Refresh rate and View > Colours: how often the GUI pulls the engine's status and which colours it is
// drawn in, chosen in the menu, kept in QSettings and applied again at the next start.
#pragma once

#include <QObject>

class QMenu;

namespace syncscope::ui {

class EngineAdapter;

class ViewPreferences : public QObject {
    Q_OBJECT

public:
    ViewPreferences(EngineAdapter* adapter, QObject* parent);

    // Adds the Refresh rate and Colours submenus to the View menu.
    void addMenus(QMenu* viewMenu);
    // Applies the saved colour scheme and refresh rate.
    void restore();

private:
    EngineAdapter* adapter_;
};

}  // namespace syncscope::ui
