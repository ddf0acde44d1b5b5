#include "app/gui/gui_options.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include "ui/fleet/multi_source_group.h"

namespace syncscope::gui {

namespace {
QString tr(const char* text) {
    return QCoreApplication::translate("GuiOptions", text);
}
}  // namespace

std::optional<GuiOptions> parseGuiOptions(const QStringList& arguments, QString* error, QString* helpText,
                                          bool* helpRequested, bool* versionRequested) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        tr("SyncScope: watch and control a MySQL/MariaDB binlog replication task\n"
           "Exit 2 on bad arguments, 3 when the screenshot cannot be written, 4 when the task given cannot be "
           "opened offscreen or for a screenshot (the reason on stderr)."));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("TASK.yaml"), tr("The DM task file to open"), tr("[TASK.yaml]"));
    const QCommandLineOption source(
        QStringLiteral("source"),
        tr("The DM source file of the task (one per source: repeat it for a task with several sources)"),
        QStringLiteral("SOURCE.yaml"));
    const QCommandLineOption start(QStringLiteral("start"), tr("Start the task once it is open"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"), tr("Save the main window to this PNG file, then exit 0"), QStringLiteral("PNG"));
    const QCommandLineOption after(QStringLiteral("screenshot-after"),
                                   tr("Seconds to wait before the screenshot (default 3)"), QStringLiteral("SECONDS"));
    parser.addOptions({source, start, screenshot, after});

    *helpText = parser.helpText();
    *helpRequested = false;
    *versionRequested = false;
    if (!parser.parse(arguments)) {
        *error = parser.errorText();
        return std::nullopt;
    }
    if (parser.isSet(help)) {
        *helpRequested = true;
        return std::nullopt;
    }
    if (parser.isSet(version)) {
        *versionRequested = true;
        return std::nullopt;
    }
    GuiOptions options;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        *error = tr("Only one task file can be opened; got %1").arg(positional.join(QStringLiteral(", ")));
        return std::nullopt;
    }
    if (!positional.isEmpty()) {
        options.taskPath = positional.front();
    }
    // Several --source files: a task with several sources, one subtask per source.
    options.sourcePath = ui::sourceField(parser.values(source));
    if (!options.taskPath.isEmpty() && options.sourcePath.isEmpty()) {
        *error = tr("The task file %1 needs its source file: add --source SOURCE.yaml").arg(options.taskPath);
        return std::nullopt;
    }
    if (options.taskPath.isEmpty() && (parser.isSet(start) || parser.isSet(source))) {
        *error = tr("--source and --start need a task file");
        return std::nullopt;
    }
    options.start = parser.isSet(start);
    options.screenshotPath = parser.value(screenshot);
    if (parser.isSet(after)) {
        bool ok = false;
        options.screenshotAfterSeconds = parser.value(after).toDouble(&ok);
        if (!ok || options.screenshotAfterSeconds < 0) {
            *error = tr("--screenshot-after needs a number of seconds, got '%1'").arg(parser.value(after));
            return std::nullopt;
        }
        if (options.screenshotPath.isEmpty()) {
            *error = tr("--screenshot-after needs --screenshot PNG");
            return std::nullopt;
        }
    }
    return options;
}

}  // namespace syncscope::gui
