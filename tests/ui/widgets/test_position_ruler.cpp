// The position ruler: it opens on the span that matters and follows it, fits, zooms and pans within the
// axis; for a set of position layouts (all marks in one file, spread over 1,000 files, a table far
// ahead, 10,000 tables, the exit-safe mark reserved past the upstream's end, a view away from the
// marks) no two labels overlap, the labels follow the positions, every mark is inside the view or has an
// edge label with its distance, and every table point is in the strip or counted at an edge; hovering
// gives exact positions and names tables, a click on a table's mark names it; screenshots for review.
#include <QSignalSpy>
#include <QtTest>
#include <chrono>
#include <cstdio>

#include "tests/support/test_env.h"
#include "tests/ui/support/simulated_task.h"
#include "ui/widgets/position_ruler.h"

using namespace syncscope;
using namespace syncscope::ui;
using syncscope::test::SimulatedTask;

namespace {

constexpr uint64_t kLayoutFileSize = 1024 * 1024 * 1024;

// A snapshot laid out by hand: `files` binlog files of kLayoutFileSize bytes; points given on the axis.
struct Layout {
    int files = 1;
    uint64_t upstream = 0;
    uint64_t read = 0;
    uint64_t applied = 0;
    uint64_t globalMemory = 0;
    uint64_t globalPersisted = 0;
    uint64_t exitSafe = 0;
    std::vector<std::pair<uint64_t, bool>> tables;  // persisted table point, ahead of the global point
};

task::PointView pointAt(uint64_t axis) {
    task::PointView view;
    const uint64_t file = axis / kLayoutFileSize;
    char name[32];
    std::snprintf(name, sizeof(name), "mariadb-bin.%06llu", static_cast<unsigned long long>(file + 1));
    view.file = name;
    view.pos = axis - file * kLayoutFileSize;
    view.axis = axis;
    return view;
}

std::shared_ptr<const task::StatusSnapshot> snapshotOf(const Layout& layout) {
    auto snapshot = std::make_shared<task::StatusSnapshot>();
    for (int i = 0; i < layout.files; ++i) {
        char name[32];
        std::snprintf(name, sizeof(name), "mariadb-bin.%06d", i + 1);
        snapshot->upstreamFiles.push_back(
            {name, i + 1 < layout.files ? kLayoutFileSize : layout.upstream % kLayoutFileSize});
    }
    snapshot->upstream = pointAt(layout.upstream);
    snapshot->read = pointAt(layout.read);
    snapshot->applied = pointAt(layout.applied);
    snapshot->globalInMemory = pointAt(layout.globalMemory);
    snapshot->globalPersisted = pointAt(layout.globalPersisted);
    snapshot->exitSafe = pointAt(layout.exitSafe);
    if (layout.exitSafe > layout.upstream) {
        snapshot->exitSafe.axis = layout.exitSafe;  // past the last file's end: still on the axis line
    }
    int number = 0;
    for (const auto& [at, ahead] : layout.tables) {
        task::TablePointView table;
        table.schema = "shop";
        table.table = "t" + std::to_string(number++);
        table.persisted = pointAt(at);
        table.inMemory = table.persisted;
        table.aheadOfGlobal = ahead;
        table.bytesFromGlobal = int64_t(at) - int64_t(layout.globalPersisted);
        snapshot->tables.push_back(std::move(table));
    }
    return snapshot;
}

Layout caughtUpInOneFile() {
    Layout layout;
    layout.upstream = 50'000'000;
    layout.read = 50'000'000;
    layout.applied = 49'999'800;
    layout.globalMemory = 49'999'800;
    layout.globalPersisted = 49'990'000;
    layout.exitSafe = 49'990'000 + 64 * 1024 * 1024;  // reserved ahead of the upstream's end
    for (int i = 0; i < 8; ++i) {
        layout.tables.push_back({49'980'000 + uint64_t(i) * 1000, false});
    }
    return layout;
}

}  // namespace

class PositionRulerTest : public QObject {
    Q_OBJECT

private:
    // Every acceptance rule of the ruler's geometry, for the ruler as it is now.
    static void checkGeometry(const PositionRuler& ruler) {
        const auto labels = ruler.labels();
        const auto markers = ruler.markers();
        QVERIFY(!labels.empty());
        for (size_t i = 0; i < labels.size(); ++i) {
            const QRectF& rect = labels[i].rect;
            QVERIFY2(rect.left() >= 0 && rect.right() <= ruler.width() + 0.5 && rect.top() >= 0,
                     qPrintable(QStringLiteral("label %1 leaves the ruler").arg(i)));
            for (size_t j = i + 1; j < labels.size(); ++j) {
                QVERIFY2(!rect.intersects(labels[j].rect),
                         qPrintable(QStringLiteral("label %1 covers label %2").arg(i).arg(j)));
            }
        }
        // The labels follow the positions: in position order, the leaders leave their labels left to right.
        for (size_t i = 1; i < labels.size(); ++i) {
            QVERIFY2(labels[i].markX >= labels[i - 1].markX, qPrintable(QString::number(i)));
            QVERIFY2(labels[i].anchorX >= labels[i - 1].anchorX,
                     qPrintable(QStringLiteral("label %1 leaves its leader left of label %2's").arg(i).arg(i - 1)));
        }
        // Every mark with a point has its label: over it when inside the view, at the edge otherwise.
        for (size_t id = 0; id < markers.size(); ++id) {
            const auto& point = *markers[id].point;
            if (!point.axis) {
                continue;
            }
            const double value = double(*point.axis);
            const bool inside = value >= ruler.viewStart() && value <= ruler.viewEnd();
            bool found = false;
            for (const auto& label : labels) {
                for (const auto& part : label.parts) {
                    if (part.id != int(id)) {
                        continue;
                    }
                    found = true;
                    if (inside) {
                        QVERIFY2(label.edge == 0 && std::abs(label.markX - ruler.xOf(value)) < 2.5,
                                 qPrintable(markers[id].name));
                    } else {
                        QVERIFY2(label.edge != 0, qPrintable(markers[id].name));
                        const double distance =
                            value < ruler.viewStart() ? ruler.viewStart() - value : value - ruler.viewEnd();
                        QVERIFY2(part.text.contains(rulerDistanceText(distance)), qPrintable(part.text));
                    }
                }
            }
            QVERIFY2(found, qPrintable(QStringLiteral("no label for %1").arg(markers[id].name)));
        }
        // Every table point is in the view's strip or counted at the edge it is past.
        const auto outside = ruler.tablesOutside();
        int inside = 0;
        for (const auto& table : ruler.snapshot()->tables) {
            const double value = double(*table.persisted.axis);
            inside += value >= ruler.viewStart() && value <= ruler.viewEnd() ? 1 : 0;
        }
        QCOMPARE(inside + outside.left + outside.right, int(ruler.snapshot()->tables.size()));
    }

private slots:
    void opensOnTheSpanThatMattersAndFollowsIt() {
        PositionRuler ruler;
        ruler.resize(1200, ruler.sizeHint().height());
        Layout layout = caughtUpInOneFile();
        ruler.setSnapshot(snapshotOf(layout));
        QCOMPARE(ruler.viewMode(), PositionRuler::ViewMode::Span);
        // Not the whole history (50 MB) but the persisted global point to the upstream's end, with a margin.
        QVERIFY2(ruler.viewStart() <= double(layout.globalPersisted) && ruler.viewStart() > 49'900'000,
                 qPrintable(QString::number(ruler.viewStart())));
        QVERIFY2(ruler.viewEnd() >= double(layout.upstream) && ruler.viewEnd() < 50'100'000,
                 qPrintable(QString::number(ruler.viewEnd())));
        // It follows the stream.
        layout.upstream += 1'000'000;
        layout.read = layout.applied = layout.globalMemory = layout.upstream;
        ruler.setSnapshot(snapshotOf(layout));
        QVERIFY(ruler.viewEnd() >= double(layout.upstream));
        QVERIFY(ruler.viewStart() <= double(layout.globalPersisted));
        // All shows every file; a zoom is the DBA's and stays; Span goes back to following.
        ruler.zoomToFit();
        QCOMPARE(ruler.viewMode(), PositionRuler::ViewMode::All);
        QCOMPARE(ruler.viewStart(), 0.0);
        QCOMPARE(ruler.viewEnd(), double(layout.upstream));
        ruler.zoomIn();
        QVERIFY(ruler.isZoomed());
        const double zoomedStart = ruler.viewStart();
        ruler.setSnapshot(snapshotOf(layout));
        QCOMPARE(ruler.viewStart(), zoomedStart);
        ruler.setView(-500, 1000);  // panned past the start: clamped
        QCOMPARE(ruler.viewStart(), 0.0);
        QCOMPARE(ruler.viewEnd(), 1500.0);
        ruler.zoomToGlobal();
        QCOMPARE(ruler.viewMode(), PositionRuler::ViewMode::Span);
        QVERIFY(ruler.viewStart() > 49'000'000);
    }

    void labelsAndTableMarksHoldOnEveryLayout_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("layoutKind");
        const std::pair<const char*, int> kinds[] = {
            {"all marks in one file", 0}, {"spread over 1,000 files", 1},       {"a table far ahead", 2},
            {"10,000 tables", 3},         {"exit-safe within the upstream", 4}, {"a view away from every mark", 5}};
        for (int width : {320, 1280, 1920}) {
            for (const auto& [name, kind] : kinds) {
                QTest::addRow("%s, %d px", name, width) << width << kind;
            }
        }
    }

    void labelsAndTableMarksHoldOnEveryLayout() {
        QFETCH(int, width);
        QFETCH(int, layoutKind);
        Layout layout = caughtUpInOneFile();
        switch (layoutKind) {
            case 1:  // a task a thousand files behind, its tables spread over them
                layout.globalPersisted = 5 * kLayoutFileSize + 17;
                layout.globalMemory = 5 * kLayoutFileSize + 900;
                layout.applied = 400 * kLayoutFileSize;
                layout.read = 700 * kLayoutFileSize + 5;
                layout.upstream = 999 * kLayoutFileSize + 12345;
                layout.exitSafe = layout.read + 64 * 1024 * 1024;
                layout.files = 1000;
                layout.tables.clear();
                for (int i = 0; i < 200; ++i) {
                    layout.tables.push_back({uint64_t(i) * 3 * kLayoutFileSize + 99, i % 50 == 7});
                }
                break;
            case 2:  // one table's point persisted far ahead of the global point
                layout.tables.push_back({49'999'000, true});
                layout.globalPersisted = 20'000'000;
                break;
            case 3:
                layout.tables.clear();
                for (int i = 0; i < 10'000; ++i) {
                    layout.tables.push_back({49'000'000 + uint64_t(i) * 101, i % 997 == 0});
                }
                layout.globalPersisted = 49'000'000;
                break;
            case 4:  // a backlog: the exit-safe mark lies within what the upstream has written
                layout.globalPersisted = 1'000'000;
                layout.globalMemory = layout.applied = 2'000'000;
                layout.read = 3'000'000;
                layout.exitSafe = 3'000'000 + 64 * 1024;
                break;
            default:
                break;
        }
        PositionRuler ruler;
        ruler.resize(width, ruler.sizeHint().height());
        ruler.setSnapshot(snapshotOf(layout));
        if (layoutKind == 5) {
            ruler.setView(10'000'000, 10'500'000);
        }
        checkGeometry(ruler);
        // Exit-safe reserved past the upstream's end is no mark: the legend says what it means.
        bool exitSafeMarked = false;
        for (const auto& marker : ruler.markers()) {
            exitSafeMarked = exitSafeMarked || marker.point == &ruler.snapshot()->exitSafe;
        }
        const bool exitSafeWithin = layoutKind == 1 || layoutKind == 4;
        QCOMPARE(exitSafeMarked, exitSafeWithin);
        QVERIFY(ruler.safeModeAfterCrashText().startsWith(QStringLiteral("after a crash: safe mode to ")));
        if (!exitSafeWithin) {
            QVERIFY(ruler.safeModeAfterCrashText().contains(QStringLiteral("upstream's end")));
        }
        // The same positions moved on a little keep every label in its lane (no flicker).
        const auto before = ruler.labels();
        layout.upstream += 10;
        layout.read += 10;
        ruler.setSnapshot(snapshotOf(layout));
        const auto after = ruler.labels();
        QCOMPARE(after.size(), before.size());
        for (size_t i = 0; i < before.size(); ++i) {
            QCOMPARE(after[i].lane, before[i].lane);
        }
        // It paints (10,000 tables included) and the picture is kept for review.
        ruler.show();
        QVERIFY(QTest::qWaitForWindowExposed(&ruler));
        const auto started = std::chrono::steady_clock::now();
        const QPixmap picture = ruler.grab();
        const double milliseconds =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
        qInfo("painted in %.1f ms", milliseconds);
        const QString path = QString::fromStdString(syncscope::test::outputDir("ui")) +
                             QStringLiteral("/ruler_layout%1_%2.png").arg(layoutKind).arg(width);
        QVERIFY(picture.save(path));
    }

    void hoverGivesExactPositionsAndAClickSelectsATable() {
        SimulatedTask task(5);
        task.start();
        task.advance(120000, 500);
        task.flush();
        task.putTableAhead(1, 3000, 7);
        PositionRuler ruler;
        ruler.resize(1200, ruler.sizeHint().height());
        ruler.setSnapshot(task.status());
        const auto snapshot = task.status();
        const double globalX = ruler.xOf(double(*snapshot->globalPersisted.axis));
        QVERIFY(globalX > 0 && globalX < 1200);
        // Over the persisted global point's label: its exact position, GTID and what it means.
        QString atGlobal;
        for (const auto& label : ruler.labels()) {
            for (const auto& part : label.parts) {
                if (part.text == QStringLiteral("global persisted")) {
                    atGlobal = ruler.describeAt(label.rect.center().toPoint());
                }
            }
        }
        QVERIFY2(atGlobal.contains(QStringLiteral("global persisted")), qPrintable(atGlobal));
        QVERIFY2(atGlobal.contains(QString::fromStdString(snapshot->globalPersisted.text())), qPrintable(atGlobal));
        QVERIFY2(atGlobal.contains(QString::fromStdString(snapshot->globalPersisted.gtid)), qPrintable(atGlobal));
        QVERIFY2(atGlobal.contains(QStringLiteral("where a resume starts")), qPrintable(atGlobal));

        const auto& ahead = snapshot->tables[1];
        const int aheadX = int(std::lround(ruler.xOf(double(*ahead.persisted.axis))));
        const int stripY = ruler.sizeHint().height() - 40;
        const QString atTick = ruler.describeAt(QPoint(aheadX, stripY));
        QVERIFY2(atTick.contains(QStringLiteral("`shop`.`t1`")), qPrintable(atTick));
        QVERIFY2(atTick.contains(QStringLiteral("ahead of the global point by 3,000 bytes")), qPrintable(atTick));

        QSignalSpy clicked(&ruler, &PositionRuler::tableClicked);
        ruler.show();
        QVERIFY(QTest::qWaitForWindowExposed(&ruler));
        QTest::mouseClick(&ruler, Qt::LeftButton, {}, QPoint(aheadX, stripY));
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.first().at(0).toString(), QStringLiteral("shop"));
        QCOMPARE(clicked.first().at(1).toString(), QStringLiteral("t1"));
        // A drag pans and selects nothing.
        QTest::mousePress(&ruler, Qt::LeftButton, {}, QPoint(600, stripY));
        QTest::mouseMove(&ruler, QPoint(500, stripY));
        QTest::mouseRelease(&ruler, Qt::LeftButton, {}, QPoint(500, stripY));
        QCOMPARE(clicked.count(), 1);
        QVERIFY(ruler.isZoomed());

        ruler.zoomToGlobal();
        const QString path = QString::fromStdString(syncscope::test::outputDir("ui")) + "/ruler_ahead.png";
        QVERIFY(ruler.grab().save(path));
    }
};

QTEST_MAIN(PositionRulerTest)
#include "test_position_ruler.moc"
