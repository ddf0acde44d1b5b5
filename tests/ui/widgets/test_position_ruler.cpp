// The position ruler: it fits the upstream's files, zooms around a point and pans within the axis,
// its hover text gives the exact file:pos and GTID of a marker and flags a table point ahead of the
// global point; a zoomed ruler is saved as a screenshot for review.
#include <QtTest>

#include "tests/support/test_env.h"
#include "tests/ui/support/simulated_task.h"
#include "ui/widgets/position_ruler.h"

using namespace syncscope::ui;
using syncscope::test::SimulatedTask;

class PositionRulerTest : public QObject {
    Q_OBJECT

private slots:
    void fitsZoomsAndPansWithinTheAxis() {
        SimulatedTask task(5);
        PositionRuler ruler;
        ruler.resize(1000, ruler.sizeHint().height());
        ruler.setSnapshot(task.status());
        const double length = double(2 * SimulatedTask::kFileSize + 200000);
        QCOMPARE(ruler.viewStart(), 0.0);
        QCOMPARE(ruler.viewEnd(), length);
        QVERIFY(!ruler.isZoomed());
        ruler.zoomIn();
        QVERIFY(ruler.isZoomed());
        QCOMPARE(ruler.viewEnd() - ruler.viewStart(), length / PositionRuler::kZoomStep);
        ruler.setView(-500, 1000);  // panned past the start: clamped
        QCOMPARE(ruler.viewStart(), 0.0);
        QCOMPARE(ruler.viewEnd(), 1500.0);
        ruler.setView(length - 100, length + 900);
        QCOMPARE(ruler.viewEnd(), length);
        ruler.zoomToFit();
        QVERIFY(!ruler.isZoomed());
    }

    void markerLabelsNeverCoverEachOther_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<bool>("zoomed");
        QTest::addRow("narrow, every file") << 320 << false;
        QTest::addRow("wide, every file") << 1200 << false;
        QTest::addRow("wide, zoomed on the global point") << 1200 << true;
    }

    void markerLabelsNeverCoverEachOther() {
        QFETCH(int, width);
        QFETCH(bool, zoomed);
        // Read, applied, the global points and the exit-safe point a few bytes apart: on a ruler of
        // megabytes they fall on the same pixels.
        SimulatedTask task(5);
        task.start();
        task.advance(120000, 500);
        task.flush();
        task.advance(300, 5);
        PositionRuler ruler;
        ruler.resize(width, ruler.sizeHint().height());
        ruler.setSnapshot(task.status());
        if (zoomed) {
            ruler.zoomToGlobal();
        }
        const auto labels = ruler.markerLabelRects();
        QVERIFY(!labels.empty());
        for (size_t i = 0; i < labels.size(); ++i) {
            QVERIFY2(labels[i].left() >= 0 && labels[i].right() <= width, qPrintable(QString::number(i)));
            for (size_t j = i + 1; j < labels.size(); ++j) {
                QVERIFY2(!labels[i].intersects(labels[j]),
                         qPrintable(QStringLiteral("label %1 covers label %2").arg(i).arg(j)));
            }
        }
    }

    void hoverGivesExactPositionAndFlagsAheadTables() {
        SimulatedTask task(5);
        task.start();
        task.advance(120000, 500);
        task.flush();
        task.putTableAhead(1, 3000, 7);
        PositionRuler ruler;
        ruler.resize(1200, ruler.sizeHint().height());
        ruler.setSnapshot(task.status());
        ruler.zoomToGlobal();
        QVERIFY(ruler.isZoomed());
        const auto snapshot = task.status();
        const double globalX = ruler.xOf(double(*snapshot->globalPersisted.axis));
        const QString atGlobal = ruler.describeAt(QPoint(int(globalX), 40));
        QVERIFY2(atGlobal.contains(QStringLiteral("global persisted")), qPrintable(atGlobal));
        QVERIFY2(atGlobal.contains(QString::fromStdString(snapshot->globalPersisted.text())), qPrintable(atGlobal));
        QVERIFY2(atGlobal.contains(QString::fromStdString(snapshot->globalPersisted.gtid)), qPrintable(atGlobal));

        const auto& ahead = snapshot->tables[1];
        const double aheadX = ruler.xOf(double(*ahead.persisted.axis));
        const QString atTick = ruler.describeAt(QPoint(int(std::lround(aheadX)), 110));
        QVERIFY2(atTick.contains(QStringLiteral("`shop`.`t1`")), qPrintable(atTick));
        QVERIFY2(atTick.contains(QStringLiteral("ahead of the global point by 3,000 bytes")), qPrintable(atTick));

        ruler.show();
        QVERIFY(QTest::qWaitForWindowExposed(&ruler));
        const QString path = QString::fromStdString(syncscope::test::outputDir("ui")) + "/ruler_zoomed.png";
        QVERIFY(ruler.grab().save(path));
    }
};

QTEST_MAIN(PositionRulerTest)
#include "test_position_ruler.moc"
