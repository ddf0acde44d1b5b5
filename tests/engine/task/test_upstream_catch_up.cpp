// The upstream in a status snapshot is brought up to the read point (issue 10.13): it has every event
// that was read from it, whatever the last poll (once a second) said.
#include <QtTest>

#include "engine/task/upstream_catch_up.h"

using syncscope::binlog::BinlogPosition;
using syncscope::task::catchUpWithRead;
using syncscope::task::UpstreamState;

namespace {

UpstreamState polledAt(const std::string& file, uint64_t pos) {
    UpstreamState state;
    state.position = BinlogPosition(file, pos);
    state.files = {{"mysql-bin.000001", 5000}, {file, pos}};
    state.axis = syncscope::binlog::PositionAxis(state.files);
    return state;
}

}  // namespace

class UpstreamCatchUpTest : public QObject {
    Q_OBJECT

private slots:
    void readPastAStalePollMovesTheUpstreamAndTheAxis() {
        UpstreamState state =
            catchUpWithRead(polledAt("mysql-bin.000002", 1000), BinlogPosition("mysql-bin.000002", 4000));
        QCOMPARE(state.position->toString(), std::string("mysql-bin.000002:4000"));
        QCOMPARE(state.files.back().size, uint64_t(4000));
        QCOMPARE(state.axis.bytesOf(BinlogPosition("mysql-bin.000002", 4000)), std::optional<uint64_t>(9000));
    }

    void readInAFileRotatedToAfterThePollListsThatFile() {
        UpstreamState state =
            catchUpWithRead(polledAt("mysql-bin.000002", 1000), BinlogPosition("mysql-bin.000003", 300));
        QCOMPARE(state.position->toString(), std::string("mysql-bin.000003:300"));
        QCOMPARE(state.files.size(), size_t(3));
        QVERIFY(state.axis.bytesOf(BinlogPosition("mysql-bin.000003", 200)).has_value());
    }

    void readBehindThePollChangesNothing() {
        UpstreamState state =
            catchUpWithRead(polledAt("mysql-bin.000002", 1000), BinlogPosition("mysql-bin.000002", 400));
        QCOMPARE(state.position->toString(), std::string("mysql-bin.000002:1000"));
        QCOMPARE(state.files.back().size, uint64_t(1000));
    }

    void nothingReadOrNeverPolledChangesNothing() {
        UpstreamState never;
        UpstreamState state = catchUpWithRead(never, BinlogPosition("mysql-bin.000002", 400));
        QVERIFY(!state.position);
        QVERIFY(state.axis.isEmpty());
        state = catchUpWithRead(polledAt("mysql-bin.000002", 1000), BinlogPosition());
        QCOMPARE(state.position->toString(), std::string("mysql-bin.000002:1000"));
    }

    void readFromAnotherServersFileLeavesTheAxisAlone() {
        UpstreamState state =
            catchUpWithRead(polledAt("mysql-bin.000002", 1000), BinlogPosition("other-bin.000002", 4000));
        QCOMPARE(state.position->toString(), std::string("mysql-bin.000002:1000"));
        QCOMPARE(state.files.back().size, uint64_t(1000));
        QVERIFY(!state.axis.bytesOf(BinlogPosition("other-bin.000002", 4000)).has_value());
    }
};

QTEST_GUILESS_MAIN(UpstreamCatchUpTest)
#include "test_upstream_catch_up.moc"
