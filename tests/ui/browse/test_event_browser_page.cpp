// The event browser page offscreen over real binlogs (../shared/fixtures/binlog/zalora, MySQL 5.6):
// opened at a point it selects the transaction ending there; a table filter lists only that table; a
// key gives the row history with each change's downstream state; a point inside a transaction is
// refused with the reason; "Resume from here" hands the transaction's start to the task. Screenshots
// at 1280x760 are saved for review.
#include <QtTest>

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTreeView>

#include <cstdlib>
#include <ctime>

#include "engine/browse/local_binlog_history.h"
#include "tests/support/test_env.h"
#include "ui/browse/event_browser_page.h"
#include "ui/models/event_browser_model.h"

using namespace syncscope;
using namespace syncscope::ui;

namespace {

constexpr int kWaitMs = 30000;
constexpr int kWidth = 1280;
constexpr int kHeight = 760;

QString screenshotPath(const char* name) {
    return QString::fromStdString(test::outputDir("ui")) + "/" + name;
}

EventBrowserPage::HistoryFactory zalora() {
    return [] {
        std::vector<std::filesystem::path> files;
        for (const char* name : {"mysql-bin.01", "mysql-bin.02", "mysql-bin.03", "mysql-bin.05", "mysql-bin.06"}) {
            files.push_back(std::filesystem::path(test::fixturesDir()) / "zalora" / name);
        }
        return std::make_unique<browse::LocalBinlogHistory>(std::move(files));
    };
}

bool waitForPage(EventBrowserPage& page, QSignalSpy& shown) {
    return shown.wait(kWaitMs) && !page.isBusy();
}

}  // namespace

class EventBrowserPageTest : public QObject {
    Q_OBJECT

    std::unique_ptr<EventBrowserPage> page_;
    std::unique_ptr<QAbstractItemModelTester> tester_;

private slots:
    void initTestCase() {
        if (test::fixturesDir().empty()) {
            QSKIP("../shared/fixtures/binlog is not present: nothing to browse");
        }
        qputenv("TZ", "UTC");
        tzset();
    }

    void init() {
        page_ = std::make_unique<EventBrowserPage>();
        tester_ = std::make_unique<QAbstractItemModelTester>(page_->model(),
                                                             QAbstractItemModelTester::FailureReportingMode::QtTest);
        page_->setHistorySource(zalora(), QStringLiteral("the zalora fixtures (MySQL 5.6.35)"));
        page_->resize(kWidth, kHeight);
        page_->show();
        QVERIFY(QTest::qWaitForWindowExposed(page_.get()));
    }

    void cleanup() {
        tester_.reset();
        page_.reset();
    }

    void openedAtAPointItSelectsTheTransactionEndingThere() {
        QSignalSpy shown(page_.get(), &EventBrowserPage::pageShown);
        page_->setAppliedPoint({"mysql-bin.03", 591});
        page_->openAt({"mysql-bin.03", 591}, QStringLiteral("the applied point"));
        QVERIFY(waitForPage(*page_, shown));
        QModelIndex current = page_->tree()->currentIndex();
        const auto* trx = page_->model()->transactionAt(current);
        QVERIFY(trx != nullptr);
        QCOMPARE(QString::fromStdString(trx->file), QString("mysql-bin.03"));
        QCOMPARE(trx->pos, uint64_t{354});
        QCOMPARE(trx->endPos, uint64_t{591});
        QVERIFY(current.data(EventBrowserModel::IsTargetRole).toBool());
        QVERIFY(page_->tree()->isExpanded(current));
        // The transactions before it are listed too, from the start of its file; markers are grey rows.
        QVERIFY(current.row() >= 2);
        // The From box says where the list starts, not the point it was opened at.
        const auto* first = page_->model()->transactionAt(page_->model()->index(0, 0));
        QVERIFY(first != nullptr);
        QCOMPARE(page_->fromEdit()->text(), QStringLiteral("mysql-bin.03:%1").arg(first->pos));
        QVERIFY(first->pos < 354);
        QCOMPARE(page_->model()->index(current.row(), EventBrowserModel::AppliedColumn).data().toString(),
                 QString("applied"));
        QCOMPARE(page_->model()->index(current.row() + 1, EventBrowserModel::AppliedColumn).data().toString(),
                 QString("not yet"));
        // The selected transaction's rows: the update's before and after images.
        QCOMPARE(page_->rowsTable()->rowCount(), 2);
        QVERIFY2(page_->rowsTable()->item(1, 3)->text().contains("'foo2'"),
                 qPrintable(page_->rowsTable()->item(1, 3)->text()));
        QVERIFY(page_->grab().save(screenshotPath("event_browser_at_point.png")));
    }

    void aTableFilterListsOnlyThatTable() {
        QSignalSpy shown(page_.get(), &EventBrowserPage::pageShown);
        page_->tableEdit()->setText("test_db.rooms");
        page_->openFrom(QString());
        QVERIFY(waitForPage(*page_, shown));
        QCOMPARE(page_->model()->transactionCount(), size_t{2});
        for (int row = 0; row < page_->model()->rowCount(); ++row) {
            QCOMPARE(page_->model()->index(row, EventBrowserModel::TableColumn).data().toString(),
                     QString("test_db.rooms"));
        }
    }

    void aKeyGivesTheRowHistoryWithTheDownstreamState() {
        QSignalSpy shown(page_.get(), &EventBrowserPage::pageShown);
        page_->setAppliedPoint({"mysql-bin.03", 591});
        page_->tableEdit()->setText("test_db.buildings");
        page_->keyEdit()->setText("3");
        page_->openFrom(QStringLiteral("2017-04-24 00:00:00"));
        QVERIFY(waitForPage(*page_, shown));
        QTableWidget* rows = page_->rowsTable();
        QCOMPARE(rows->rowCount(), 3);
        QVERIFY(rows->item(0, 1)->text().endsWith("insert"));
        QVERIFY2(rows->item(0, 3)->text().contains("@2='foo'"), qPrintable(rows->item(0, 3)->text()));
        QVERIFY2(rows->item(1, 3)->text().contains("@3='bar'  ->  @1=3, @2='foo2'"),
                 qPrintable(rows->item(1, 3)->text()));
        QCOMPARE(rows->item(0, 4)->text(), QString("applied"));
        QCOMPARE(rows->item(1, 4)->text(), QString("applied"));
        QCOMPARE(rows->item(2, 4)->text(), QString("not yet"));
        QVERIFY2(page_->statusLabel()->text().contains("the first transaction at or after it is at mysql-bin.03:120"),
                 qPrintable(page_->statusLabel()->text()));
        QVERIFY(page_->grab().save(screenshotPath("event_browser_row_history.png")));
    }

    void aPointInsideATransactionIsRefusedWithTheReason() {
        QSignalSpy shown(page_.get(), &EventBrowserPage::pageShown);
        page_->openFrom(QStringLiteral("mysql-bin.01:197"));
        QVERIFY(waitForPage(*page_, shown));
        QVERIFY2(page_->statusLabel()->text().contains("is in the middle of the transaction at mysql-bin.01:120"),
                 qPrintable(page_->statusLabel()->text()));
        QCOMPARE(page_->model()->transactionCount(), size_t{0});
        QVERIFY(page_->grab().save(screenshotPath("event_browser_refused.png")));
    }

    void resumeFromHereHandsTheTransactionStartToTheTask() {
        QSignalSpy shown(page_.get(), &EventBrowserPage::pageShown);
        page_->openFrom(QStringLiteral("mysql-bin.03:354"));
        QVERIFY(waitForPage(*page_, shown));
        QVERIFY(!page_->resumeHereButton()->isEnabled());  // no task attached
        page_->setResumeEnabled(true);
        page_->tree()->setCurrentIndex(page_->model()->index(0, 0));
        QVERIFY(page_->resumeHereButton()->isEnabled());
        QSignalSpy resume(page_.get(), &EventBrowserPage::resumeFromRequested);
        page_->resumeHereButton()->click();
        QCOMPARE(resume.size(), 1);
        auto target = resume.first().first().value<task::ResumeTarget>();
        QCOMPARE(QString::fromStdString(target.file), QString("mysql-bin.03"));
        QCOMPARE(target.pos, uint64_t{354});
        page_->resumeAfterButton()->click();
        QCOMPARE(resume.size(), 2);
        QCOMPARE(resume.last().first().value<task::ResumeTarget>().pos, uint64_t{591});
    }
};

QTEST_MAIN(EventBrowserPageTest)
#include "test_event_browser_page.moc"
