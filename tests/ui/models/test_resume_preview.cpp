// The Resume-from preview worked out from a status snapshot: what is applied again, what is skipped for
// every table, and which tables skip their own events because their points are past the start.
#include <QtTest>

#include "ui/models/resume_preview.h"

using namespace syncscope::ui;
using syncscope::task::StatusSnapshot;

namespace {
constexpr uint64_t kFileSize = 1000;

syncscope::task::PointView at(uint64_t axis) {
    syncscope::task::PointView point;
    point.file = "mysql-bin.00000" + std::to_string(axis / kFileSize + 1);
    point.pos = axis % kFileSize;
    point.axis = axis;
    return point;
}

StatusSnapshot snapshot() {
    StatusSnapshot s;
    s.upstreamFiles = {{"mysql-bin.000001", kFileSize}, {"mysql-bin.000002", kFileSize}};
    s.upstream = at(1900);
    s.applied = at(1500);
    s.globalPersisted = at(1200);
    s.exitSafe = at(1600);
    for (auto [name, point] : {std::pair{"orders", 1100}, std::pair{"payments", 1350}}) {
        syncscope::task::TablePointView table;
        table.schema = "shop";
        table.table = name;
        table.persisted = at(uint64_t(point));
        table.aheadOfGlobal = point > 1200;
        s.tables.push_back(table);
    }
    return s;
}
}  // namespace

class ResumePreviewTest : public QObject {
    Q_OBJECT

private slots:
    void previewSaysWhatIsAppliedAgainAndSkipped_data() {
        QTest::addColumn<int>("start");
        QTest::addColumn<QString>("choice");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<qulonglong>("appliedAgain");
        QTest::addColumn<qulonglong>("skipped");
        QTest::addColumn<QStringList>("tablesSkipping");
        QTest::addColumn<bool>("moves");
        QTest::addRow("persisted global: the ahead table skips its events")
            << int(ResumeStart::PersistedGlobal) << QString() << true << 300ULL << 0ULL
            << QStringList{"shop.payments up to mysql-bin.000002:350"} << false;
        QTest::addRow("a table's point") << int(ResumeStart::TablePoint) << QStringLiteral("shop.orders") << true
                                         << 400ULL << 0ULL << QStringList{"shop.payments up to mysql-bin.000002:350"}
                                         << true;
        QTest::addRow("file:pos past the applied point skips for everyone")
            << int(ResumeStart::FilePosition) << QStringLiteral("mysql-bin.000002:800") << true << 0ULL << 300ULL
            << QStringList{} << true;
        QTest::addRow("file the upstream does not have")
            << int(ResumeStart::FilePosition) << QStringLiteral("mysql-bin.000009:4") << false << 0ULL << 0ULL
            << QStringList{} << false;
        QTest::addRow("not a position") << int(ResumeStart::FilePosition) << QStringLiteral("mysql-bin.000002") << false
                                        << 0ULL << 0ULL << QStringList{} << false;
        QTest::addRow("unknown table") << int(ResumeStart::TablePoint) << QStringLiteral("shop.nope") << false << 0ULL
                                       << 0ULL << QStringList{} << false;
        QTest::addRow("GTID: amounts unknown")
            << int(ResumeStart::GtidSet) << QStringLiteral("0-1-99") << true << 0ULL << 0ULL << QStringList{} << true;
    }

    void previewSaysWhatIsAppliedAgainAndSkipped() {
        QFETCH(int, start);
        QFETCH(QString, choice);
        QFETCH(bool, valid);
        QFETCH(qulonglong, appliedAgain);
        QFETCH(qulonglong, skipped);
        QFETCH(QStringList, tablesSkipping);
        QFETCH(bool, moves);
        const ResumePreview preview = previewResume(snapshot(), ResumeStart(start), choice);
        QCOMPARE(preview.valid, valid);
        if (!valid) {
            QVERIFY(!preview.error.isEmpty());
            return;
        }
        QCOMPARE(qulonglong(preview.bytesAppliedAgain), appliedAgain);
        QCOMPARE(qulonglong(preview.bytesSkipped), skipped);
        QCOMPARE(preview.tablesSkipping, tablesSkipping);
        QCOMPARE(preview.movesPosition, moves);
        QVERIFY(preview.needsConfirmation() == (moves || skipped > 0 || !tablesSkipping.isEmpty()));
        if (appliedAgain > 0) {
            QVERIFY(preview.text.contains(QStringLiteral("Safe mode")));
        }
    }
};

QTEST_MAIN(ResumePreviewTest)
#include "test_resume_preview.moc"
