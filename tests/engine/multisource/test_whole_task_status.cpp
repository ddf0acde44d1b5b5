// The whole task's status over its subtasks' (no server): which stage it shows, what is summed and what is the
// worst, and that every source is named where a source's state is described.
#include <QtTest>

#include "engine/multisource/whole_task_status.h"

using syncscope::task::Stage;
using syncscope::task::StatusSnapshot;

namespace {

std::shared_ptr<const StatusSnapshot> subtask(const std::string& sourceId, Stage stage, uint64_t rows = 0,
                                              double lag = 0) {
    auto status = std::make_shared<StatusSnapshot>();
    status->taskName = "shop";
    status->sourceId = sourceId;
    status->stage = stage;
    status->rowsApplied = rows;
    status->lagSeconds = lag;
    return status;
}

}  // namespace

Q_DECLARE_METATYPE(Stage)

class WholeTaskStatusTest : public QObject {
    Q_OBJECT

private slots:
    void theWholeTaskShowsTheStageThatMatters_data() {
        QTest::addColumn<Stage>("first");
        QTest::addColumn<Stage>("second");
        QTest::addColumn<Stage>("whole");
        QTest::addRow("an error in one source is the task's error") << Stage::Running << Stage::Error << Stage::Error;
        QTest::addRow("one source paused for maintenance: the task still runs")
            << Stage::Paused << Stage::Running << Stage::Running;
        QTest::addRow("every source paused: the task is paused") << Stage::Paused << Stage::Paused << Stage::Paused;
        QTest::addRow("paused and stopped: paused") << Stage::Stopped << Stage::Paused << Stage::Paused;
        QTest::addRow("one started, one new: stopped over new") << Stage::New << Stage::Stopped << Stage::Stopped;
    }

    void theWholeTaskShowsTheStageThatMatters() {
        QFETCH(Stage, first);
        QFETCH(Stage, second);
        QFETCH(Stage, whole);
        auto status = syncscope::multisource::wholeTaskStatus({subtask("eu", first), subtask("us", second)});
        QCOMPARE(status->stage, whole);
        QVERIFY2(status->stageReason.find(std::string("source eu: ") + syncscope::task::stageName(first)) !=
                         std::string::npos &&
                     status->stageReason.find(std::string("source us: ") + syncscope::task::stageName(second)) !=
                         std::string::npos,
                 status->stageReason.c_str());
    }

    void rowsAreSummedLagIsTheWorstAndErrorsNameTheirSource() {
        auto failing = std::make_shared<StatusSnapshot>(*subtask("us", Stage::Error, 5, 2));
        failing->lastError = "duplicate key";
        failing->failedEvent = syncscope::task::FailedEvent{};
        failing->failedEvent->table = "orders";
        failing->sequence = 7;
        auto status = syncscope::multisource::wholeTaskStatus({subtask("eu", Stage::Running, 10, 9), failing});
        QCOMPARE(status->rowsApplied, uint64_t{15});
        QCOMPARE(status->lagSeconds, 9.0);
        QCOMPARE(status->sourceId, std::string("eu,us"));
        QCOMPARE(status->lastError, std::string("source us: duplicate key"));
        QVERIFY(status->failedEvent && status->failedEvent->table == "orders");
        QVERIFY(!status->globalPersisted.known());  // a position belongs to one source
        QCOMPARE(status->sequence, uint64_t{7});
    }
};

QTEST_GUILESS_MAIN(WholeTaskStatusTest)
#include "test_whole_task_status.moc"
