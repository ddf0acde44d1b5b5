// Resume from a time in the GUI over the real engine and the private MariaDB pair, offscreen: a time typed in
// the event browser's From opens at the first transaction at or after it; "Resume from here" while the task
// runs is refused on the page with the reason and opens nothing; paused, it opens the preview of what is
// applied again (going back) or skipped (going forward), whose Resume works only once the point is typed;
// confirmed, the task replays (the lost row back, tables equal) or skips (the skipped row saved as SQL named in
// the audit entry, the next one applied).
#include <QtTest>

#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeView>
#include <thread>

#include "engine/browse/browse_time.h"
#include "tests/support/task_files.h"
#include "tests/support/test_env.h"
#include "tests/ui/browse/real_task_window.h"
#include "tests/ui/support/real_task.h"
#include "ui/browse/event_browser_page.h"
#include "ui/dialogs/window_preview_dialog.h"
#include "ui/engine/engine_adapter.h"
#include "ui/main/main_window.h"
#include "ui/main/task_actions.h"
#include "ui/models/event_browser_model.h"

using namespace syncscope;
using namespace syncscope::ui;
using namespace syncscope::test::real_gui;
using source::UpstreamConnection;

namespace {

constexpr auto kPoll = std::chrono::milliseconds(50);

// The page's first transaction (not a marker between transactions), or -1.
int firstTransactionRow(const EventBrowserModel& model) {
    for (int row = 0; row < model.rowCount(); ++row) {
        if (!model.transactionAt(model.index(row, 0))->isMarker) {
            return row;
        }
    }
    return -1;
}

// The key of the first row of the page's first transaction ("" without one), or what the page holds.
std::string firstKeyShown(const EventBrowserModel& model) {
    const int row = firstTransactionRow(model);
    if (row < 0) {
        return "no transaction among " + std::to_string(model.rowCount()) + " rows";
    }
    for (const auto& event : model.transactionAt(model.index(row, 0))->events) {
        if (!event.rows.empty()) {
            return event.rows.front().keyText;
        }
    }
    const auto* trx = model.transactionAt(model.index(row, 0));
    return "no rows in " + trx->file + ":" + std::to_string(trx->pos) + " " + trx->gtid;
}

}  // namespace

class ResumeFromTimeTest : public QObject {
    Q_OBJECT

    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> down_;
    QTemporaryDir dir_;

    uint32_t upstreamNow() { return static_cast<uint32_t>(std::stoul(test::valueOf(*up_, "SELECT UNIX_TIMESTAMP()"))); }
    // A time after every transaction written so far: what follows is at or after it.
    uint32_t nextSecond() {
        const uint32_t now = upstreamNow();
        while (upstreamNow() == now) {
            std::this_thread::sleep_for(kPoll);
        }
        return now + 1;
    }
    bool tableEqual(const std::string& table) {
        const std::string sql = "CHECKSUM TABLE " + table;
        return *down_->query(sql).front()[1] == *up_->query(sql).front()[1];
    }
    WindowPreviewDialog* previewOf(MainWindow& window) {
        WindowPreviewDialog* dialog = nullptr;
        const bool shown = QTest::qWaitFor(
            [&] {
                dialog = window.findChild<WindowPreviewDialog*>(QStringLiteral("windowPreviewDialog"));
                return dialog != nullptr && !dialog->isBusy();
            },
            kWaitMs);
        return shown ? dialog : nullptr;
    }
    // Opens the browser at a time typed in From, and waits for the page.
    void openAtTime(EventBrowserPage& page, uint32_t time) {
        QSignalSpy shown(&page, &EventBrowserPage::pageShown);
        page.fromEdit()->setText(QString::fromStdString(browse::formatLocalTime(time)));
        page.openFrom(page.fromEdit()->text());
        QVERIFY(shown.wait(kWaitMs));
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        connectSuite("test_resume_from_time", up_, down_);
    }

    void aTimeIsResumedFromOnlyPausedAndOnlyOnceThePointIsTyped() {
        freshDatabase(*up_, *down_, "resume_time", {"CREATE TABLE resume_time.orders (id INT PRIMARY KEY, qty INT)"});
        test::TaskFileOptions options = taskFromNow(*up_, "resume-time");
        options.instanceExtra = "    block-allow-list: \"only-resume-time\"\n";
        options.topLevelExtra = "block-allow-list:\n  only-resume-time: {do-dbs: [\"resume_time\"]}\n";
        const test::TaskFiles files = test::writeTaskFiles(dir_.path().toStdString(), options);
        const QString audit = dir_.filePath("resume-time-audit.jsonl");

        MainWindow window;
        startTaskIn(window, files, audit);
        if (QTest::currentTestFailed()) {
            return;
        }
        up_->execute("INSERT INTO resume_time.orders VALUES (1, 1), (2, 1)");
        const uint32_t replayFrom = nextSecond();
        up_->execute("INSERT INTO resume_time.orders VALUES (3, 1)");
        up_->execute("INSERT INTO resume_time.orders VALUES (4, 1)");
        QTRY_COMPARE_WITH_TIMEOUT(test::valueOf(*down_, "SELECT COUNT(*) FROM resume_time.orders"), std::string("4"),
                                  kWaitMs);

        // A time typed in From: the page opens at the first transaction at or after it (row 3's).
        EventBrowserPage* page = window.showEventBrowser();
        page->resize(kWidth, kHeight);
        openAtTime(*page, replayFrom);
        QVERIFY2(
            firstKeyShown(*page->model()) == "3",
            qPrintable(QString::fromStdString(firstKeyShown(*page->model())) + " / " + page->statusLabel()->text()));
        page->tree()->setCurrentIndex(page->model()->index(firstTransactionRow(*page->model()), 0));

        // Running: the click is refused on the page with the reason; no preview, nothing changes.
        QSignalSpy refused(&window, &MainWindow::resumeFromRefused);
        QVERIFY(page->resumeHereButton()->isEnabled());
        page->resumeHereButton()->click();
        QCOMPARE(refused.size(), 1);
        const QString reason = refused.takeFirst().at(0).toString();
        QVERIFY2(reason.contains("refused, nothing changed: the task is Running; pause or stop it first"),
                 qPrintable(reason));
        QVERIFY2(page->statusLabel()->text().contains("the task is Running"), qPrintable(page->statusLabel()->text()));
        QVERIFY(window.findChild<WindowPreviewDialog*>(QStringLiteral("windowPreviewDialog")) == nullptr);
        QTRY_COMPARE_WITH_TIMEOUT(page->model()
                                      ->index(firstTransactionRow(*page->model()), EventBrowserModel::AppliedColumn)
                                      .data()
                                      .toString(),
                                  QString("applied"), kWaitMs);  // the page follows the task's applied point
        QVERIFY(page->grab().save(screenshotPath("resume_from_time_refused_running.png")));
        QCOMPARE(stageShown(window), QStringLiteral("Running"));

        // Paused, going back: row 3 (lost downstream) and row 4 are applied again; Resume waits for the point.
        window.actions()->pause()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Paused"), kWaitMs);
        down_->execute("DELETE FROM resume_time.orders WHERE id = 3");
        const auto* third = page->model()->transactionAt(page->model()->index(firstTransactionRow(*page->model()), 0));
        const QString thirdStart = QStringLiteral("%1:%2").arg(QString::fromStdString(third->file)).arg(third->pos);
        page->resumeHereButton()->click();
        WindowPreviewDialog* replay = previewOf(window);
        QVERIFY(replay != nullptr);
        QVERIFY2(replay->preview().has_value(), qPrintable(replay->error()));
        QVERIFY2(replay->summaryLabel()->text().contains("2 transaction(s)"),
                 qPrintable(replay->summaryLabel()->text()));
        QCOMPARE(stateShown(*replay, "resume_time.orders", "3"), QString("missing"));
        QCOMPARE(stateShown(*replay, "resume_time.orders", "4"), QString("equal"));
        QCOMPARE(stateShown(*replay, "resume_time.orders", "2"), QString());  // before the time
        QCOMPARE(replay->typedConfirmation(), thirdStart);
        QVERIFY(replay->confirmationEdit()->isVisible());
        QVERIFY(!replay->confirmButton()->isEnabled());
        replay->confirmationEdit()->setText(QStringLiteral("resume"));
        QVERIFY(!replay->confirmButton()->isEnabled());
        replay->accept();  // the button's slot, called anyway: refused while the point is not typed
        QVERIFY(replay->isVisible());
        QCOMPARE(stageShown(window), QStringLiteral("Paused"));
        replay->confirmationEdit()->setText(thirdStart);
        QVERIFY(replay->confirmButton()->isEnabled());
        replay->layout()->activate();  // the summary's new height, before the picture
        QVERIFY(replay->grab().save(screenshotPath("resume_from_time_replay.png")));
        replay->confirmButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Running"), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(tableEqual("resume_time.orders"), kWaitMs);

        // Paused, going forward to a later time: row 5 (before it) is skipped and saved, row 6 applied.
        window.actions()->pause()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Paused"), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(
            window.findChild<WindowPreviewDialog*>(QStringLiteral("windowPreviewDialog")) == nullptr, kWaitMs);
        up_->execute("INSERT INTO resume_time.orders VALUES (5, 1)");
        const uint32_t skipTo = nextSecond();
        up_->execute("INSERT INTO resume_time.orders VALUES (6, 1)");
        openAtTime(*page, skipTo);
        QVERIFY2(
            firstKeyShown(*page->model()) == "6",
            qPrintable(QString::fromStdString(firstKeyShown(*page->model())) + " / " + page->statusLabel()->text()));
        page->tree()->setCurrentIndex(page->model()->index(firstTransactionRow(*page->model()), 0));
        page->resumeHereButton()->click();
        WindowPreviewDialog* forward = previewOf(window);
        QVERIFY(forward != nullptr);
        QVERIFY2(forward->preview().has_value(), qPrintable(forward->error()));
        QCOMPARE(stateShown(*forward, "resume_time.orders", "5"), QString("missing"));
        QCOMPARE(stateShown(*forward, "resume_time.orders", "6"), QString());  // from here on: applied
        QVERIFY(!forward->confirmButton()->isEnabled());
        forward->confirmationEdit()->setText(forward->typedConfirmation());
        forward->layout()->activate();
        QVERIFY(forward->grab().save(screenshotPath("resume_from_time_skip.png")));
        forward->confirmButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Running"), kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(test::valueOf(*down_, "SELECT COUNT(*) FROM resume_time.orders WHERE id = 6"),
                                  std::string("1"), kWaitMs);
        QCOMPARE(test::valueOf(*down_, "SELECT COUNT(*) FROM resume_time.orders WHERE id = 5"), std::string("0"));
        QString sqlPath;
        QFile auditFile(audit);
        QTRY_VERIFY_WITH_TIMEOUT(
            auditFile.open(QIODevice::ReadOnly) &&
                [&] {
                    auditFile.seek(0);
                    for (const QByteArray& line : auditFile.readAll().split('\n')) {
                        QJsonObject entry = QJsonDocument::fromJson(line).object();
                        if (entry.value("action").toString() == "resume-from") {
                            sqlPath = entry.value("details").toObject().value("replay_sql_file").toString();
                        }
                    }
                    auditFile.close();
                    return !sqlPath.isEmpty();
                }(),
            kWaitMs);
        QFile sql(sqlPath);
        QVERIFY2(sql.open(QIODevice::ReadOnly), qPrintable(sqlPath));
        for (const QString& line : QString::fromUtf8(sql.readAll()).split('\n')) {
            if (!line.isEmpty() && !line.startsWith("--")) {
                down_->execute(line.toStdString());
            }
        }
        QVERIFY(tableEqual("resume_time.orders"));
        window.actions()->stop()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Stopped"), kWaitMs);
        window.detachTask();
    }
};

QTEST_MAIN(ResumeFromTimeTest)
#include "test_resume_from_time.moc"
