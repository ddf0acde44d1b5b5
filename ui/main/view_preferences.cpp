#include "ui/main/view_preferences.h"

#include <QActionGroup>
#include <QMenu>
#include <QSettings>
#include <utility>

#include "ui/engine/engine_adapter.h"
#include "ui/main/color_scheme.h"

namespace syncscope::ui {

namespace {
const char* const kRefreshKey = "view/refreshHz";
const char* const kColorSchemeKey = "view/colorScheme";
}  // namespace

ViewPreferences::ViewPreferences(EngineAdapter* adapter, QObject* parent) : QObject(parent), adapter_(adapter) {}

void ViewPreferences::addMenus(QMenu* viewMenu) {
    QMenu* refreshMenu = viewMenu->addMenu(tr("&Refresh rate"));
    refreshMenu->setToolTipsVisible(true);
    auto* rates = new QActionGroup(refreshMenu);
    // The saved rate, as restore() applies it (the menus are made before the window's state is restored).
    const int current = QSettings().value(kRefreshKey, adapter_->refreshRate()).toInt();
    for (int hz = EngineAdapter::kMinRefreshHz; hz <= EngineAdapter::kMaxRefreshHz; hz += 2) {
        QAction* rate = refreshMenu->addAction(tr("%1 per second").arg(hz));
        rate->setCheckable(true);
        rate->setToolTip(tr("Pull the engine's status %1 times a second").arg(hz));
        rate->setChecked(hz == current);
        rates->addAction(rate);
        connect(rate, &QAction::triggered, this, [this, hz] {
            adapter_->setRefreshRate(hz);
            QSettings().setValue(kRefreshKey, hz);
        });
    }

    QMenu* colorsMenu = viewMenu->addMenu(tr("&Colours"));
    colorsMenu->setToolTipsVisible(true);
    auto* schemes = new QActionGroup(colorsMenu);
    const ColorScheme saved = colorSchemeFromName(QSettings().value(kColorSchemeKey).toString());
    const std::pair<ColorScheme, QString> choices[] = {{ColorScheme::System, tr("&Desktop's palette")},
                                                       {ColorScheme::Light, tr("&Light")},
                                                       {ColorScheme::Dark, tr("D&ark")}};
    for (const auto& [scheme, label] : choices) {
        QAction* choice = colorsMenu->addAction(label);
        choice->setCheckable(true);
        choice->setChecked(scheme == saved);
        choice->setToolTip(scheme == ColorScheme::System
                               ? tr("Use the desktop's own colours")
                               : tr("Draw SyncScope in %1 colours").arg(label).remove(QLatin1Char('&')));
        schemes->addAction(choice);
        connect(choice, &QAction::triggered, this, [scheme] {
            QSettings().setValue(kColorSchemeKey, colorSchemeName(scheme));
            applyColorScheme(scheme);
        });
    }
}

void ViewPreferences::restore() {
    QSettings settings;
    const ColorScheme scheme = colorSchemeFromName(settings.value(kColorSchemeKey).toString());
    if (scheme != ColorScheme::System) {
        applyColorScheme(scheme);
    }
    if (settings.contains(kRefreshKey)) {
        adapter_->setRefreshRate(settings.value(kRefreshKey).toInt());
    }
}

}  // namespace syncscope::ui
