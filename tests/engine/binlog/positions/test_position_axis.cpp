// The position axis places positions from different binlog files on one ruler of bytes from the
// start of the oldest file the upstream still has, and reports positions in unknown files as such.
#include <QtTest>

#include "engine/binlog/position_axis.h"

using namespace syncscope::binlog;

Q_DECLARE_METATYPE(syncscope::binlog::AxisPlacement)

namespace {
// Listed out of order on purpose: the axis sorts by file number.
PositionAxis sampleAxis() {
    return PositionAxis({{"bin.000010", 500}, {"bin.000008", 1000}, {"bin.000009", 2000}});
}
}  // namespace

class PositionAxisTest : public QObject {
    Q_OBJECT

private slots:
    void filesAreLaidEndToEndInNumericOrder() {
        PositionAxis axis = sampleAxis();
        QCOMPARE(axis.files().size(), size_t(3));
        QCOMPARE(axis.files()[0].file, std::string("bin.000008"));
        QCOMPARE(axis.files()[0].startBytes, 0ULL);
        QCOMPARE(axis.files()[1].startBytes, 1000ULL);
        QCOMPARE(axis.files()[2].startBytes, 3000ULL);
        QCOMPARE(axis.totalBytes(), 3500ULL);
    }

    void placesPositions_data() {
        QTest::addColumn<QString>("position");
        QTest::addColumn<AxisPlacement>("placement");
        QTest::addColumn<qulonglong>("bytes");
        QTest::addRow("start of oldest") << "bin.000008:0" << AxisPlacement::OnAxis << 0ULL;
        QTest::addRow("inside oldest") << "bin.000008:4" << AxisPlacement::OnAxis << 4ULL;
        QTest::addRow("second file") << "bin.000009:120" << AxisPlacement::OnAxis << 1120ULL;
        QTest::addRow("newest file end") << "bin.000010:500" << AxisPlacement::OnAxis << 3500ULL;
        QTest::addRow("purged file") << "bin.000007:4" << AxisPlacement::Purged << 0ULL;
        QTest::addRow("future file") << "bin.000011:4" << AxisPlacement::NotYetWritten << 0ULL;
        QTest::addRow("DM 1.0 relay name") << "bin|000001.000009:120" << AxisPlacement::OnAxis << 1120ULL;
        QTest::addRow("other base name") << "other.000009:4" << AxisPlacement::UnknownFile << 0ULL;
    }
    void placesPositions() {
        QFETCH(QString, position);
        QFETCH(AxisPlacement, placement);
        QFETCH(qulonglong, bytes);
        AxisPoint point = sampleAxis().place(BinlogPosition::parse(position.toStdString()));
        QCOMPARE(point.placement, placement);
        QCOMPARE(point.bytes, bytes);
        QCOMPARE(sampleAxis().bytesOf(BinlogPosition::parse(position.toStdString())).has_value(),
                 placement == AxisPlacement::OnAxis);
    }

    void gapInTheListIsAnUnknownFile() {
        PositionAxis axis({{"bin.000001", 100}, {"bin.000003", 100}});
        QCOMPARE(axis.place(BinlogPosition::parse("bin.000002:4")).placement, AxisPlacement::UnknownFile);
    }

    void offsetPastListedSizeIsMarked() {
        AxisPoint point = sampleAxis().place(BinlogPosition::parse("bin.000010:900"));
        QCOMPARE(point.placement, AxisPlacement::OnAxis);
        QVERIFY(point.beyondFileEnd);
        QCOMPARE(point.bytes, 3900ULL);
    }

    void distanceCrossesFiles() {
        PositionAxis axis = sampleAxis();
        auto from = BinlogPosition::parse("bin.000008:900");
        auto to = BinlogPosition::parse("bin.000009:100");
        QCOMPARE(axis.distance(from, to), std::optional<int64_t>(200));
        QCOMPARE(axis.distance(to, from), std::optional<int64_t>(-200));
        QVERIFY(!axis.distance(from, BinlogPosition::parse("bin.000001:4")).has_value());
    }

    void emptyPositionAndEmptyAxisAreUnknown() {
        QCOMPARE(sampleAxis().place(BinlogPosition()).placement, AxisPlacement::UnknownFile);
        QCOMPARE(PositionAxis().place(BinlogPosition::parse("bin.000001:4")).placement, AxisPlacement::UnknownFile);
        QCOMPARE(PositionAxis().totalBytes(), 0ULL);
    }

    void badFileListIsRefused() {
        QVERIFY_THROWS_EXCEPTION(PositionError, PositionAxis({{"bin", 100}}));
        QVERIFY_THROWS_EXCEPTION(PositionError, PositionAxis({{"bin.000001", 100}, {"bin.1", 100}}));
    }
};

QTEST_GUILESS_MAIN(PositionAxisTest)
#include "test_position_axis.moc"
