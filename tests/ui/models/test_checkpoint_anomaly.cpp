// Which table points the GUI flags (issue 10.13): a flag comes from one consistent view of the snapshot,
// in which the upstream has at least every event that was read from it. A position polled before the
// read point moved, or a file list polled before a rotation, flags nothing; a point that no upstream
// could have written yet, or one in a purged file, is still flagged.
#include <QtTest>

#include "ui/models/checkpoint_anomaly.h"

using syncscope::task::PointView;
using syncscope::task::StatusSnapshot;
using syncscope::task::TablePointView;
using syncscope::ui::anomalyOf;
using syncscope::ui::CheckpointAnomaly;

Q_DECLARE_METATYPE(CheckpointAnomaly)

namespace {

constexpr uint64_t kFileSize = 10000;

// A point in file `file` (mysql-bin.00000N) at `pos`; placed on the axis of the snapshot's files when
// `onAxis`, as the engine places points in files it lists.
PointView point(int file, uint64_t pos, bool onAxis = true) {
    PointView p;
    p.file = "mysql-bin.00000" + std::to_string(file);
    p.pos = pos;
    if (onAxis) {
        p.axis = uint64_t(file - 1) * kFileSize + pos;
    }
    return p;
}

}  // namespace

class CheckpointAnomalyTest : public QObject {
    Q_OBJECT

private slots:
    void flagsComeFromOneConsistentView_data() {
        QTest::addColumn<PointView>("upstream");
        QTest::addColumn<PointView>("read");
        QTest::addColumn<int>("listedFiles");
        QTest::addColumn<PointView>("persisted");
        QTest::addColumn<bool>("aheadOfGlobal");
        QTest::addColumn<CheckpointAnomaly>("expected");

        // The live run of issue 10.13: the upstream was polled at 1,000, the stream has since read to
        // 5,000 and flushed a table at 3,000. The upstream has that event, so nothing is wrong.
        QTest::addRow("point past a stale upstream poll but not past the read point is healthy")
            << point(1, 1000) << point(1, 5000) << 1 << point(1, 3000) << false << CheckpointAnomaly::None;
        QTest::addRow("point at the read point is healthy")
            << point(1, 1000) << point(1, 5000) << 1 << point(1, 5000) << false << CheckpointAnomaly::None;
        // The upstream rotated after the file list was polled: the new file is not listed yet.
        QTest::addRow("point in a file rotated to after the poll is neither purged nor beyond")
            << point(1, 9000) << point(2, 700, false) << 1 << point(2, 400, false) << false << CheckpointAnomaly::None;
        // After a rotation the old file grew past its polled size: on the axis its end lies beyond the
        // start of the new file, but as positions it is before the upstream.
        QTest::addRow("end of the old file past its polled size is healthy")
            << point(2, 100) << point(2, 100) << 2 << point(1, kFileSize + 500) << false << CheckpointAnomaly::None;
        QTest::addRow("point past both the upstream and the read point is beyond upstream")
            << point(1, 1000) << point(1, 5000) << 1 << point(1, 8000) << false << CheckpointAnomaly::BeyondUpstream;
        QTest::addRow("point past the upstream of a task that never read is beyond upstream")
            << point(1, 1000) << PointView{} << 1 << point(1, 8000) << false << CheckpointAnomaly::BeyondUpstream;
        QTest::addRow("point in a file newer than the upstream's is beyond upstream")
            << point(1, 1000) << point(1, 1000) << 1 << point(3, 100, false) << false
            << CheckpointAnomaly::BeyondUpstream;
        QTest::addRow("point in a file older than every listed one is in a purged file")
            << point(3, 1000) << point(3, 1000) << 2 << point(1, 100, false) << false << CheckpointAnomaly::FilePurged;
        QTest::addRow("ahead of the global point comes first")
            << point(1, 1000) << point(1, 5000) << 1 << point(1, 3000) << true << CheckpointAnomaly::AheadOfGlobal;
    }

    void flagsComeFromOneConsistentView() {
        QFETCH(PointView, upstream);
        QFETCH(PointView, read);
        QFETCH(int, listedFiles);
        QFETCH(PointView, persisted);
        QFETCH(bool, aheadOfGlobal);
        QFETCH(CheckpointAnomaly, expected);
        StatusSnapshot snapshot;
        snapshot.upstream = upstream;
        snapshot.read = read;
        // The newest listed file is the one the upstream was in when polled.
        int newest = std::stoi(upstream.file.substr(upstream.file.size() - 1));
        for (int file = newest - listedFiles + 1; file <= newest; ++file) {
            snapshot.upstreamFiles.push_back({"mysql-bin.00000" + std::to_string(file), kFileSize});
        }
        TablePointView table;
        table.schema = "shop";
        table.table = "orders";
        table.persisted = persisted;
        table.inMemory = persisted;
        table.aheadOfGlobal = aheadOfGlobal;
        QCOMPARE(anomalyOf(table, snapshot), expected);
    }
};

QTEST_GUILESS_MAIN(CheckpointAnomalyTest)
#include "test_checkpoint_anomaly.moc"
