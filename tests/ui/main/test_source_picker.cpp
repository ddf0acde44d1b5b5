// The whole view of a task with several sources offers its sources to the pages that read one source (Verify, the
// binlog browser, the previews, a stop point, the checkpoint inspection's form): the first source by default, the
// one that failed while the DBA has not picked one, and the DBA's pick from then on; a task with one source offers
// no choice. Screenshot at 1280x800 for review.
#include <QtTest>

#include <QComboBox>
#include <QLabel>
#include <QTabWidget>
#include <QTemporaryDir>

#include <fstream>

#include "engine/control/subtask_directory.h"
#include "engine/multisource/whole_task_status.h"
#include "tests/support/test_env.h"
#include "tests/ui/support/settle_window.h"
#include "tests/ui/support/simulated_task.h"
#include "ui/browse/event_browser_page.h"
#include "ui/engine/engine_adapter.h"
#include "ui/fleet/multi_source_group.h"
#include "ui/main/main_window.h"
#include "ui/main/source_picker.h"
#include "ui/main/task_view.h"
#include "ui/pages/verify_page.h"

using namespace syncscope;
using namespace syncscope::ui;
using syncscope::test::settle;
using syncscope::test::SimulatedTask;

namespace {

constexpr QSize kScreenshotSize{1280, 800};
constexpr int kTables = 4;
constexpr int kEuPort = 33061;  // the sources' upstreams, told apart by port (nothing connects to them here)
constexpr int kUsPort = 33062;

// A task with two sources as the GUI sees one: the whole task's status combined from its subtasks', and the
// subtasks found by source id (control::SubtaskDirectory), as MultiSourceTask offers them.
class TwoSourceTask : public task::TaskControl, public control::SubtaskDirectory {
public:
    TwoSourceTask() : eu_(std::make_shared<SimulatedTask>(kTables)), us_(std::make_shared<SimulatedTask>(kTables)) {}

    std::shared_ptr<const task::StatusSnapshot> status() const override {
        return multisource::wholeTaskStatus({named(*eu_, "src-eu"), named(*us_, "src-us")});
    }
    std::vector<task::Notice> drainNotices(size_t) override { return {}; }
    task::CommandResult start() override { return both(&SimulatedTask::start); }
    task::CommandResult pause() override { return both(&SimulatedTask::pause); }
    task::CommandResult resume() override { return both(&SimulatedTask::resume); }
    task::CommandResult stop() override { return both(&SimulatedTask::stop); }
    using TaskControl::skipFailedEvent;
    task::CommandResult skipFailedEvent(const task::SkipEvidence&) override { return {false, "not here"}; }
    task::CommandResult resumeFrom(const task::ResumeTarget&) override { return {false, "not here"}; }

    std::vector<std::string> sourceIds() const override { return {"src-eu", "src-us"}; }
    task::TaskControl* subtask(const std::string& sourceId) const override {
        return sourceId == "src-eu" ? eu_.get() : sourceId == "src-us" ? us_.get() : nullptr;
    }

    SimulatedTask& eu() { return *eu_; }
    SimulatedTask& us() { return *us_; }

private:
    static std::shared_ptr<const task::StatusSnapshot> named(const SimulatedTask& subtask, const char* sourceId) {
        auto snapshot = std::make_shared<task::StatusSnapshot>(*subtask.status());
        snapshot->taskName = "shop";
        snapshot->sourceId = sourceId;
        return snapshot;
    }

    task::CommandResult both(task::CommandResult (SimulatedTask::*command)()) {
        task::CommandResult first = ((*eu_).*command)();
        task::CommandResult second = ((*us_).*command)();
        return {first.accepted || second.accepted, first.reason + "; " + second.reason};
    }

    std::shared_ptr<SimulatedTask> eu_;
    std::shared_ptr<SimulatedTask> us_;
};

QString writeSource(const QTemporaryDir& dir, const std::string& sourceId, int port) {
    const QString path = dir.filePath(QString::fromStdString(sourceId) + QStringLiteral(".yaml"));
    std::ofstream(path.toStdString()) << "source-id: \"" << sourceId << "\"\nflavor: mariadb\nenable-gtid: false\n"
                                      << "from: {host: \"127.0.0.1\", port: " << port
                                      << ", user: \"repl\", password: \"pw\"}\n";
    return path;
}

}  // namespace

class SourcePickerTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString euFile_;
    QString usFile_;

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("SyncScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_source_picker"));
        QVERIFY(dir_.isValid());
        euFile_ = writeSource(dir_, "src-eu", kEuPort);
        usFile_ = writeSource(dir_, "src-us", kUsPort);
    }

    void aTaskWithOneSourceOffersNoChoice() {
        MainWindow window;
        window.attachTask(std::make_shared<SimulatedTask>(kTables), {dir_.filePath("shop.yaml"), euFile_, {}});
        SourcePicker* picker = window.taskView()->sourcePicker();
        QVERIFY(!picker->offersChoice());
        QVERIFY(picker->isHidden());
        QCOMPARE(picker->chosenFile(), euFile_);
        QCOMPARE(window.taskView()->verifyPage()->sourceFile(), euFile_);
    }

    void theFirstSourceIsShownByDefault() {
        auto task = std::make_shared<TwoSourceTask>();
        task->start();
        MainWindow window;
        window.attachTask(task, {dir_.filePath("shop.yaml"), sourceField({euFile_, usFile_}), {}});
        SourcePicker* picker = window.taskView()->sourcePicker();
        QVERIFY(picker->offersChoice());
        QVERIFY(!picker->isHidden());
        QCOMPARE(picker->combo()->count(), 2);
        QCOMPARE(picker->combo()->itemText(0), QStringLiteral("src-eu"));
        QCOMPARE(picker->combo()->itemText(1), QStringLiteral("src-us"));
        QCOMPARE(picker->chosenSourceId(), QStringLiteral("src-eu"));
        QCOMPARE(window.taskView()->verifyPage()->sourceFile(), euFile_);
        QCOMPARE(picker->chosenTask().get(), static_cast<task::TaskControl*>(&task->eu()));
        // The browser reads the picked source's upstream (it read the tab-separated field before, and failed).
        EventBrowserPage* browser = window.showEventBrowser();
        QVERIFY2(browser->sourceLabel()->text().contains(QString::number(kEuPort)),
                 qPrintable(browser->sourceLabel()->text()));
        browser->close();
    }

    void aTaskOpenedWithAFailedSourceShowsThatOne() {
        auto task = std::make_shared<TwoSourceTask>();
        task->start();
        task->us().fail(SimulatedTask::missingColumnEvent());
        MainWindow window;
        window.attachTask(task, {dir_.filePath("shop.yaml"), sourceField({euFile_, usFile_}), {}});
        SourcePicker* picker = window.taskView()->sourcePicker();
        QCOMPARE(picker->chosenSourceId(), QStringLiteral("src-us"));
        QCOMPARE(picker->combo()->currentText(), QStringLiteral("src-us (failed)"));
        QCOMPARE(picker->failedFile(), usFile_);
        QCOMPARE(window.taskView()->verifyPage()->sourceFile(), usFile_);
    }

    void aSourceThatFailsIsShownUntilTheDbaPicks() {
        auto task = std::make_shared<TwoSourceTask>();
        task->start();
        MainWindow window;
        window.resize(kScreenshotSize);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.attachTask(task, {dir_.filePath("shop.yaml"), sourceField({euFile_, usFile_}), {}});
        SourcePicker* picker = window.taskView()->sourcePicker();
        EventBrowserPage* browser = window.showEventBrowser();
        task->eu().advance(200000, 800);
        task->us().advance(150000, 600);
        task->eu().flush();
        task->us().fail(SimulatedTask::missingColumnEvent());
        settle(window);
        QTRY_COMPARE(picker->chosenSourceId(), QStringLiteral("src-us"));
        QCOMPARE(picker->combo()->currentText(), QStringLiteral("src-us (failed)"));
        QCOMPARE(window.taskView()->verifyPage()->sourceFile(), usFile_);
        QCOMPARE(picker->chosenTask().get(), static_cast<task::TaskControl*>(&task->us()));
        QVERIFY2(browser->sourceLabel()->text().contains(QString::number(kUsPort)),
                 qPrintable(browser->sourceLabel()->text()));
        browser->close();

        window.taskView()->tabs()->setCurrentWidget(window.taskView()->verifyPage());
        QTest::qWait(50);
        const QString shot = QStringLiteral("/tmp/syncscope-source-picker.png");
        QVERIFY(window.grab().save(shot));
        QVERIFY(window.grab().save(QString::fromStdString(syncscope::test::outputDir("ui")) +
                                   QStringLiteral("/whole_task_source_picker.png")));
        qInfo("screenshot: %s", qPrintable(shot));

        // The DBA picks the other source: the pages follow it, and a failure no longer moves the pick.
        picker->combo()->setCurrentIndex(0);
        QVERIFY(picker->pickedByHand());
        QCOMPARE(picker->chosenSourceId(), QStringLiteral("src-eu"));
        QCOMPARE(window.taskView()->verifyPage()->sourceFile(), euFile_);
        task->us().fixCause();
        task->us().resume();
        task->eu().fail(SimulatedTask::missingColumnEvent());
        settle(window);
        QTRY_COMPARE(picker->combo()->itemText(0), QStringLiteral("src-eu (failed)"));
        task->eu().fixCause();
        task->eu().resume();
        task->us().fail(SimulatedTask::missingColumnEvent());
        settle(window);
        QTRY_COMPARE(picker->combo()->itemText(1), QStringLiteral("src-us (failed)"));
        QCOMPARE(picker->chosenSourceId(), QStringLiteral("src-eu"));
        QCOMPARE(window.taskView()->verifyPage()->sourceFile(), euFile_);
    }

    void anOpenBrowserFollowsTheChannelShown() {
        MainWindow window;
        window.attachTask(std::make_shared<SimulatedTask>(kTables), {dir_.filePath("shop.yaml"), euFile_, {}});
        settle(window);
        EventBrowserPage* browser = window.showEventBrowser();
        QVERIFY2(browser->sourceLabel()->text().contains(QString::number(kEuPort)),
                 qPrintable(browser->sourceLabel()->text()));
        // Another channel, with no source file here: the browser no longer reads (nor resumes with) the first's
        // binlog.
        window.attachTask(std::make_shared<SimulatedTask>(kTables));
        settle(window);
        QVERIFY2(browser->sourceLabel()->text().startsWith(QStringLiteral("No binlog to browse")),
                 qPrintable(browser->sourceLabel()->text()));
        QVERIFY(!browser->sourceLabel()->text().contains(QString::number(kEuPort)));
        browser->close();
    }

    void leavingTheTaskClearsThePicker() {
        auto task = std::make_shared<TwoSourceTask>();
        MainWindow window;
        window.attachTask(task, {dir_.filePath("shop.yaml"), sourceField({euFile_, usFile_}), {}});
        window.detachTask();
        SourcePicker* picker = window.taskView()->sourcePicker();
        QVERIFY(!picker->offersChoice());
        QVERIFY(picker->isHidden());
        QVERIFY(picker->chosenFile().isEmpty());
    }
};

QTEST_MAIN(SourcePickerTest)
#include "test_source_picker.moc"
