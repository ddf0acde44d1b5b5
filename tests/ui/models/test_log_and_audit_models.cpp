// The log path and the audit log: spdlog lines go through the LogRingSink into a bounded LogRing, are
// drained in one batch into the capped LogModel and filtered by level and text; the audit model reads
// the engine's JSON Lines incrementally and shows a broken line as unreadable instead of failing.
#include <spdlog/logger.h>
#include <QAbstractItemModelTester>
#include <QTemporaryDir>
#include <QtTest>

#include "engine/common/log_ring_sink.h"
#include "ui/models/audit_model.h"
#include "ui/models/log_filter_proxy.h"
#include "ui/models/log_model.h"

using namespace syncscope;
using namespace syncscope::ui;

class LogAndAuditModelsTest : public QObject {
    Q_OBJECT

private slots:
    void spdlogLinesReachTheModelInOneBatchAndFilter() {
        auto ring = std::make_shared<LogRing>(100);
        spdlog::logger logger("apply", std::make_shared<LogRingSink>(ring));
        logger.set_level(spdlog::level::trace);
        logger.info("worker 1 committed {} rows", 250);
        logger.warn("deadlock on shop.orders, retrying");
        logger.error("Unknown column 'note' in 'field list'");
        logger.debug("queue depth 3");
        QCOMPARE(ring->size(), size_t(4));

        LogModel model;
        LogFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const LogBatch batch = ring->drain(1000);
        QCOMPARE(batch.dropped, uint64_t(0));
        model.appendLines(batch.lines);
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.index(0, LogModel::PartColumn).data().toString(), QStringLiteral("apply"));
        QCOMPARE(model.index(0, LogModel::MessageColumn).data().toString(),
                 QStringLiteral("worker 1 committed 250 rows"));
        QCOMPARE(model.index(2, LogModel::LevelColumn).data().toString(), QStringLiteral("error"));

        proxy.setMinimumLevel(LogLevel::Warning);
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setSearchText(QStringLiteral("DEADLOCK"));
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setMinimumLevel(LogLevel::Trace);
        proxy.setSearchText(QStringLiteral("apply"));  // matches the part
        QCOMPARE(proxy.rowCount(), 4);
    }

    void ringDropsTheOldestAndCountsThem() {
        LogRing ring(3);
        for (int i = 0; i < 5; ++i) {
            ring.push({{}, LogLevel::Info, "source", "line " + std::to_string(i)});
        }
        const LogBatch batch = ring.drain(10);
        QCOMPARE(batch.dropped, uint64_t(2));
        QCOMPARE(batch.lines.size(), size_t(3));
        QCOMPARE(batch.lines.front().message, std::string("line 2"));
        QCOMPARE(ring.drain(10).dropped, uint64_t(0));
    }

    void modelKeepsOnlyTheNewestLinesUpToItsCap() {
        LogModel model(nullptr, 5);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        std::vector<LogLine> lines;
        for (int i = 0; i < 4; ++i) {
            lines.push_back({{}, LogLevel::Info, "task", "first " + std::to_string(i)});
        }
        model.appendLines(lines);
        lines.clear();
        for (int i = 0; i < 3; ++i) {
            lines.push_back({{}, LogLevel::Info, "task", "second " + std::to_string(i)});
        }
        model.appendLines(lines);
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(model.index(0, LogModel::MessageColumn).data().toString(), QStringLiteral("first 2"));
        QCOMPARE(model.index(4, LogModel::MessageColumn).data().toString(), QStringLiteral("second 2"));
        model.noteDropped(7);
        QVERIFY(model.index(4, LogModel::MessageColumn).data().toString().contains(QStringLiteral("7 log line(s)")));
        QCOMPARE(LogModel::kDefaultCap, 20000);
    }

    void auditLogIsReadIncrementallyAndBadLinesAreShown() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("audit.jsonl"));
        AuditModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setPath(path);
        QCOMPARE(model.reload(), QString());  // no file yet: nothing audited
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Append));
        file.write(R"({"time":"2026-11-29T21:00:00Z","user":"dba","action":"skip","task":"t","source_id":"s",)"
                   R"("position_before":"mysql-bin.000003:1200","position_after":"mysql-bin.000003:1450",)"
                   R"("details":{"table":"shop.orders"}})"
                   "\n{not json}\n{\"action\":\"pause\"");
        file.flush();
        QCOMPARE(model.reload(), QString());
        QCOMPARE(model.rowCount(), 2);  // the third line is not complete yet
        QCOMPARE(model.index(0, AuditModel::ActionColumn).data().toString(), QStringLiteral("skip"));
        QCOMPARE(model.index(0, AuditModel::UserColumn).data().toString(), QStringLiteral("dba"));
        QCOMPARE(model.index(0, AuditModel::PositionColumn).data().toString(),
                 QStringLiteral("mysql-bin.000003:1200 \u2192 mysql-bin.000003:1450"));
        QVERIFY(model.index(0, AuditModel::DetailsColumn).data().toString().contains(QStringLiteral("shop.orders")));
        QCOMPARE(model.index(1, AuditModel::ActionColumn).data().toString(), QStringLiteral("unreadable line 2"));
        file.write(",\"time\":\"2026-11-29T21:01:00Z\"}\n");
        file.flush();
        QCOMPARE(model.reload(), QString());
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(2, AuditModel::ActionColumn).data().toString(), QStringLiteral("pause"));
        QCOMPARE(model.index(2, AuditModel::TimeColumn).data().toString(), QStringLiteral("2026-11-29T21:01:00Z"));
    }
};

QTEST_MAIN(LogAndAuditModelsTest)
#include "test_log_and_audit_models.moc"
