// Light, dark or the desktop's own palette for the whole application, chosen in View > Colours and
// kept with QSettings. The dark palette is Fusion's with dark roles, so every widget that draws with
// palette roles stays readable.
#pragma once

#include <QPalette>
#include <QString>

namespace syncscope::ui {

enum class ColorScheme { System, Light, Dark };

QPalette lightPalette();
QPalette darkPalette();

// Applies the scheme to the running application (style Fusion for Light and Dark).
void applyColorScheme(ColorScheme scheme);

// "system", "light", "dark" and back; unknown text reads as System.
QString colorSchemeName(ColorScheme scheme);
ColorScheme colorSchemeFromName(const QString& name);

}  // namespace syncscope::ui
