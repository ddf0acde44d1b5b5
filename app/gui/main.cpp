// syncscope: the desktop GUI entry.
//   syncscope TASK.yaml --source SOURCE.yaml [--start] [--screenshot PNG --screenshot-after SECONDS]
#include <spdlog/spdlog.h>
#include <QApplication>
#include <QTimer>
#include <cstdio>

#include "app/gui/gui_options.h"
#include "app/gui/task_opener.h"
#include "engine/common/log_ring_sink.h"
#include "engine/common/redacting_sink.h"
#include "engine/common/thread_priority.h"
#include "engine/common/version.h"
#include "ui/engine/malloc_arenas.h"
#include "ui/main/fleet_controller.h"
#include "ui/main/main_window.h"
#include "ui/models/ui_resources.h"

namespace {

constexpr int kExitBadArguments = 2;
constexpr int kExitScreenshotFailed = 3;
constexpr int kExitTaskNotOpened = 4;
constexpr double kMillisecondsPerSecond = 1000.0;

}  // namespace

constexpr int kEngineThreadNiceIncrement = 5;

namespace {

// Qt's offscreen platform says "This plugin does not support propagateSizeHints()" for every window it
// shows: noise for a script or CI that runs the GUI offscreen. Every other message passes as Qt prints it.
QtMessageHandler qtDefaultHandler = nullptr;

void quietOffscreenNoise(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (message.contains(QStringLiteral("does not support propagateSizeHints"))) {
        return;
    }
    qtDefaultHandler(type, context, message);
}

}  // namespace

int main(int argc, char** argv) {
    syncscope::ui::giveThreadsTheirOwnMallocArenas();  // before any thread: the GUI thread's arena is its own
    qtDefaultHandler = qInstallMessageHandler(quietOffscreenNoise);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("SyncScope"));
    QApplication::setOrganizationName(QStringLiteral("SyncScope"));
    QApplication::setApplicationVersion(QString::fromUtf8(syncscope::kVersion));
    QApplication::setDesktopFileName(QStringLiteral("syncscope"));
    // Every window and dialog, not only the main window, carries the icon.
    QApplication::setWindowIcon(syncscope::ui::applicationIcon());

    QString error, help;
    bool helpRequested = false, versionRequested = false;
    const auto options =
        syncscope::gui::parseGuiOptions(QApplication::arguments(), &error, &help, &helpRequested, &versionRequested);
    if (helpRequested) {
        std::fputs(qPrintable(help), stdout);
        return 0;
    }
    if (versionRequested) {
        std::printf("syncscope %s\n", syncscope::kVersion);
        return 0;
    }
    if (!options) {
        std::fprintf(stderr, "syncscope: %s\n\n%s", qPrintable(error), qPrintable(help));
        return kExitBadArguments;
    }

    // The engine's threads yield a core to the GUI thread first, so that the window stays responsive
    // while the engine and the servers keep a small machine busy.
    syncscope::setEngineThreadNiceIncrement(kEngineThreadNiceIncrement);

    // The engine logs through spdlog; the GUI drains this ring on its refresh timer.
    auto ring = std::make_shared<syncscope::LogRing>();
    spdlog::default_logger()->sinks().push_back(std::make_shared<syncscope::LogRingSink>(ring));
    syncscope::redactSecretsIn(*spdlog::default_logger());  // passwords in statements: '<redacted>'

    syncscope::ui::MainWindow window;
    window.setLogRing(ring);
    syncscope::gui::connectTaskOpening(window);
    window.show();

    const bool screenshot = !options->screenshotPath.isEmpty();
    if (!screenshot) {
        window.fleetController()->restoreWorkspace();  // the channels of the last session, on the overview
    }
    if (!options->taskPath.isEmpty()) {
        // Offscreen or for a screenshot nobody sees the window (nor a dialog): a task that cannot open ends
        // the program, the reason on stderr.
        const bool unseen = screenshot || QGuiApplication::platformName() == QStringLiteral("offscreen");
        const bool opened =
            syncscope::gui::openInto(window, {options->taskPath, options->sourcePath, {}}, options->start, unseen);
        if (!opened && unseen) {
            return kExitTaskNotOpened;
        }
    }
    if (screenshot) {
        QTimer::singleShot(int(options->screenshotAfterSeconds * kMillisecondsPerSecond), &window, [&window, options] {
            const bool saved = window.grab().save(options->screenshotPath, "PNG");
            if (!saved) {
                std::fprintf(stderr, "syncscope: cannot write the screenshot %s\n",
                             qPrintable(options->screenshotPath));
            }
            window.detachTask();
            QApplication::exit(saved ? 0 : kExitScreenshotFailed);
        });
    }
    return QApplication::exec();
}
