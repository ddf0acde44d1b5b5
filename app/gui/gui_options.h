// The command line of the syncscope GUI:
//   syncscope TASK.yaml --source SOURCE.yaml [--start] [--screenshot PNG --screenshot-after SECONDS]
#pragma once

#include <QString>
#include <QStringList>
#include <optional>

namespace syncscope::gui {

struct GuiOptions {
    static constexpr double kDefaultScreenshotAfterSeconds = 3.0;

    QString taskPath;
    QString sourcePath;
    bool start = false;
    QString screenshotPath;
    double screenshotAfterSeconds = kDefaultScreenshotAfterSeconds;
};

// Parses the arguments (argv[0] first). On a bad command line returns nullopt and sets error to a
// message that names the option; --help and --version are handled by the caller through helpText.
std::optional<GuiOptions> parseGuiOptions(const QStringList& arguments, QString* error, QString* helpText,
                                          bool* helpRequested, bool* versionRequested);

}  // namespace syncscope::gui
