#include "ui/main/color_scheme.h"

#include <QApplication>
#include <QStyle>
#include <QStyleFactory>
#include <memory>

namespace syncscope::ui {

namespace {
const char* const kFusion = "Fusion";

// The style and palette the application started with, to go back to for System.
struct StartupLook {
    QString styleName;
    QPalette palette;
};

const StartupLook& startupLook() {
    static const StartupLook look{QApplication::style() ? QApplication::style()->name() : QString(),
                                  QApplication::palette()};
    return look;
}
}  // namespace

QPalette lightPalette() {
    const std::unique_ptr<QStyle> fusion(QStyleFactory::create(QLatin1String(kFusion)));
    return fusion ? fusion->standardPalette() : QPalette();
}

QPalette darkPalette() {
    const QColor window(45, 45, 48);
    const QColor base(30, 30, 32);
    const QColor alternate(40, 40, 43);
    const QColor text(230, 230, 230);
    const QColor disabledText(128, 128, 128);
    const QColor button(53, 53, 56);
    const QColor highlight(42, 130, 218);
    const QColor link(100, 170, 255);

    QPalette palette;
    palette.setColor(QPalette::Window, window);
    palette.setColor(QPalette::WindowText, text);
    palette.setColor(QPalette::Base, base);
    palette.setColor(QPalette::AlternateBase, alternate);
    palette.setColor(QPalette::ToolTipBase, base);
    palette.setColor(QPalette::ToolTipText, text);
    palette.setColor(QPalette::PlaceholderText, QColor(150, 150, 150));
    palette.setColor(QPalette::Text, text);
    palette.setColor(QPalette::Button, button);
    palette.setColor(QPalette::ButtonText, text);
    palette.setColor(QPalette::BrightText, QColor(255, 90, 90));
    palette.setColor(QPalette::Link, link);
    palette.setColor(QPalette::LinkVisited, link.lighter(120));
    palette.setColor(QPalette::Highlight, highlight);
    palette.setColor(QPalette::HighlightedText, Qt::white);
    palette.setColor(QPalette::Light, QColor(75, 75, 78));
    palette.setColor(QPalette::Midlight, QColor(62, 62, 65));
    palette.setColor(QPalette::Mid, QColor(90, 90, 94));
    palette.setColor(QPalette::Dark, QColor(25, 25, 27));
    palette.setColor(QPalette::Shadow, Qt::black);
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
        palette.setColor(QPalette::Disabled, role, disabledText);
    }
    palette.setColor(QPalette::Disabled, QPalette::Highlight, QColor(80, 80, 80));
    return palette;
}

void applyColorScheme(ColorScheme scheme) {
    const StartupLook& startup = startupLook();
    switch (scheme) {
        case ColorScheme::System:
            if (!startup.styleName.isEmpty()) {
                QApplication::setStyle(startup.styleName);
            }
            QApplication::setPalette(startup.palette);
            break;
        case ColorScheme::Light:
            QApplication::setStyle(QLatin1String(kFusion));
            QApplication::setPalette(lightPalette());
            break;
        case ColorScheme::Dark:
            QApplication::setStyle(QLatin1String(kFusion));
            QApplication::setPalette(darkPalette());
            break;
    }
}

QString colorSchemeName(ColorScheme scheme) {
    switch (scheme) {
        case ColorScheme::Light:
            return QStringLiteral("light");
        case ColorScheme::Dark:
            return QStringLiteral("dark");
        case ColorScheme::System:
            break;
    }
    return QStringLiteral("system");
}

ColorScheme colorSchemeFromName(const QString& name) {
    if (name == QLatin1String("light")) {
        return ColorScheme::Light;
    }
    if (name == QLatin1String("dark")) {
        return ColorScheme::Dark;
    }
    return ColorScheme::System;
}

}  // namespace syncscope::ui
