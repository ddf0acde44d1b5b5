// The checkpoint analyzer flags, from rows as DM or SyncScope store them: table points ahead of the
// global point with the skip window in bytes and transactions, points that cannot be ordered, points
// beyond the upstream, points in files the upstream no longer has, a missing global row, and
// unreadable values; and it flags nothing on a healthy checkpoint.
#include <QtTest>

#include "engine/inspect/checkpoint_analyzer.h"

using namespace syncscope;
using namespace syncscope::inspect;

namespace {

const std::string kUuid = "3e11fa47-71ca-11e1-9e33-c80aa9429562";

CheckpointRow row(const std::string& source, const std::string& schema, const std::string& table,
                  const std::string& file, uint64_t pos, const std::string& gtid = {}) {
    CheckpointRow r;
    r.sourceId = source;
    r.schema = schema;
    r.table = table;
    r.binlogName = file;
    r.binlogPos = pos;
    r.binlogGtid = gtid;
    r.isGlobal = schema.empty() && table.empty();
    r.tableInfo = r.isGlobal ? "null" : R"({"id":45,"name":{"O":")" + table + R"(","L":")" + table + R"("}})";
    return r;
}

CheckpointTableRows tableOf(std::vector<CheckpointRow> rows) {
    return CheckpointTableRows{"dm_meta", "task_syncer_checkpoint", "task", std::move(rows), {}};
}

UpstreamState upstream(const std::string& current, const std::string& gtid = {}) {
    UpstreamState state;
    state.server = "repl@127.0.0.1:3306";
    auto position = binlog::BinlogPosition::parse(current);
    state.current = binlog::Location::fromParts(position.file(), position.offset(), gtid);
    state.files = {{"mysql-bin.000003", 2000}, {"mysql-bin.000004", 3000}};
    return state;
}

const InspectedPoint& tablePoint(const InspectedSource& source, const std::string& table) {
    for (const auto& point : source.tables) {
        if (point.row.table == table) {
            return point;
        }
    }
    throw std::runtime_error("no table point " + table);
}

std::vector<AnomalyKind> kinds(const std::vector<CheckpointAnomaly>& anomalies) {
    std::vector<AnomalyKind> out;
    for (const auto& anomaly : anomalies) {
        out.push_back(anomaly.kind);
    }
    return out;
}

}  // namespace

class CheckpointAnalyzerTest : public QObject {
    Q_OBJECT

private slots:
    void healthyCheckpointHasNoAnomalies() {
        auto result = analyzeCheckpointTable(
            tableOf({row("s1", "", "", "mysql-bin.000004", 1000), row("s1", "db", "a", "mysql-bin.000004", 1000),
                     row("s1", "db", "b", "mysql-bin.000003", 500)}),
            {upstream("mysql-bin.000004:2500"), ""});
        QCOMPARE(result.sources.size(), size_t(1));
        QCOMPARE(result.anomalyCount(), size_t(0));
        QCOMPARE(result.sources[0].global->axisBytes, std::optional<uint64_t>(3000));
        QCOMPARE(tablePoint(result.sources[0], "b").axisBytes, std::optional<uint64_t>(500));
    }

    void tableAheadOfGlobalIsFlaggedWithItsSkipWindow() {
        auto result = analyzeCheckpointTable(
            tableOf({row("s1", "", "", "mysql-bin.000003", 1500), row("s1", "db", "ahead", "mysql-bin.000004", 200),
                     row("s1", "db", "behind", "mysql-bin.000003", 100)}),
            {upstream("mysql-bin.000004:2500"), ""});
        const auto& ahead = tablePoint(result.sources[0], "ahead");
        QCOMPARE(kinds(ahead.anomalies), std::vector<AnomalyKind>{AnomalyKind::TableAheadOfGlobal});
        const auto& window = *ahead.anomalies[0].skipWindow;
        QCOMPARE(window.from.toString(), std::string("mysql-bin.000003:1500"));
        QCOMPARE(window.to.toString(), std::string("mysql-bin.000004:200"));
        QCOMPARE(window.bytes, std::optional<int64_t>(700));  // 500 to the end of 000003, 200 into 000004
        QVERIFY2(ahead.anomalies[0].message.find("700 bytes") != std::string::npos, ahead.anomalies[0].message.c_str());
        QVERIFY2(ahead.anomalies[0].message.find("db.ahead") != std::string::npos, ahead.anomalies[0].message.c_str());
        QVERIFY(tablePoint(result.sources[0], "behind").anomalies.empty());
    }

    void skipWindowWithoutUpstreamUsesOneFileOrSaysUnknown() {
        auto result = analyzeCheckpointTable(
            tableOf({row("s1", "", "", "mysql-bin.000004", 1000), row("s1", "db", "same", "mysql-bin.000004", 1800),
                     row("s1", "db", "next", "mysql-bin.000005", 10)}),
            {});
        QCOMPARE(tablePoint(result.sources[0], "same").anomalies[0].skipWindow->bytes, std::optional<int64_t>(800));
        QVERIFY(!tablePoint(result.sources[0], "next").anomalies[0].skipWindow->bytes.has_value());
        QVERIFY(!result.sources[0].checkedAgainstUpstream);
    }

    void skipWindowCountsTransactionsFromGtids_data() {
        QTest::addColumn<QString>("globalGtid");
        QTest::addColumn<QString>("tableGtid");
        QTest::addColumn<qulonglong>("transactions");
        QTest::addRow("mariadb") << "0-1-10,1-1-5"
                                 << "0-1-13,1-1-6" << 4ULL;
        QTest::addRow("mariadb new domain") << "0-1-10"
                                            << "0-1-10,2-1-3" << 3ULL;
        QTest::addRow("mysql") << QString::fromStdString(kUuid + ":1-10") << QString::fromStdString(kUuid + ":1-12")
                               << 2ULL;
    }
    void skipWindowCountsTransactionsFromGtids() {
        QFETCH(QString, globalGtid);
        QFETCH(QString, tableGtid);
        QFETCH(qulonglong, transactions);
        auto result = analyzeCheckpointTable(
            tableOf({row("s1", "", "", "mysql-bin.000004", 1000, globalGtid.toStdString()),
                     row("s1", "db", "t", "mysql-bin.000004", 1000 + 100, tableGtid.toStdString())}),
            {});
        const auto& point = tablePoint(result.sources[0], "t");
        QCOMPARE(kinds(point.anomalies), std::vector<AnomalyKind>{AnomalyKind::TableAheadOfGlobal});
        QCOMPARE(point.anomalies[0].skipWindow->transactions, std::optional<uint64_t>(transactions));
    }

    void incomparableGtidsAreFlaggedNotGuessed() {
        auto result = analyzeCheckpointTable(tableOf({row("s1", "", "", "mysql-bin.000004", 1000, "0-1-10,1-1-5"),
                                                      row("s1", "db", "t", "mysql-bin.000004", 900, "0-1-11,1-1-4")}),
                                             {});
        QCOMPARE(kinds(tablePoint(result.sources[0], "t").anomalies),
                 std::vector<AnomalyKind>{AnomalyKind::TableUnorderedToGlobal});
    }

    void pointsAgainstTheUpstream_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qulonglong>("pos");
        QTest::addColumn<QString>("gtid");
        QTest::addColumn<QList<int>>("expected");
        QTest::addRow("purged file") << "mysql-bin.000002" << 4ULL << ""
                                     << QList<int>{int(AnomalyKind::FileNotOnUpstream)};
        QTest::addRow("file from another server")
            << "other-bin.000004" << 4ULL << "" << QList<int>{int(AnomalyKind::FileNotOnUpstream)};
        QTest::addRow("beyond in the same file")
            << "mysql-bin.000004" << 2600ULL << "" << QList<int>{int(AnomalyKind::BeyondUpstream)};
        QTest::addRow("file not yet written")
            << "mysql-bin.000009" << 4ULL << "" << QList<int>{int(AnomalyKind::BeyondUpstream)};
        QTest::addRow("gtid beyond upstream")
            << "mysql-bin.000004" << 100ULL << "0-1-99" << QList<int>{int(AnomalyKind::BeyondUpstream)};
        QTest::addRow("gtid of another history")
            << "mysql-bin.000004" << 100ULL << "0-7-20" << QList<int>{int(AnomalyKind::UnorderedToUpstream)};
        QTest::addRow("at the upstream") << "mysql-bin.000004" << 2500ULL << "0-1-20" << QList<int>{};
    }
    void pointsAgainstTheUpstream() {
        QFETCH(QString, file);
        QFETCH(qulonglong, pos);
        QFETCH(QString, gtid);
        QFETCH(QList<int>, expected);
        auto result = analyzeCheckpointTable(tableOf({row("s1", "", "", file.toStdString(), pos, gtid.toStdString())}),
                                             {upstream("mysql-bin.000004:2500", "0-1-20"), ""});
        QList<int> found;
        for (auto kind : kinds(result.sources[0].global->anomalies)) {
            found.append(int(kind));
        }
        QCOMPARE(found, expected);
    }

    void upstreamChecksOnlyItsOwnSource() {
        auto result = analyzeCheckpointTable(
            tableOf({row("s1", "", "", "mysql-bin.000001", 4), row("s2", "", "", "mysql-bin.000001", 4)}),
            {upstream("mysql-bin.000004:2500"), "s2"});
        QCOMPARE(result.sources.size(), size_t(2));
        QCOMPARE(result.sources[0].sourceId, std::string("s1"));
        QVERIFY(result.sources[0].global->anomalies.empty());
        QVERIFY(!result.sources[0].checkedAgainstUpstream);
        QCOMPARE(kinds(result.sources[1].global->anomalies), std::vector<AnomalyKind>{AnomalyKind::FileNotOnUpstream});
    }

    void missingGlobalRowIsFlagged() {
        auto result = analyzeCheckpointTable(tableOf({row("s1", "db", "t", "mysql-bin.000004", 4)}), {});
        QVERIFY(!result.sources[0].global.has_value());
        QCOMPARE(kinds(result.sources[0].anomalies), std::vector<AnomalyKind>{AnomalyKind::MissingGlobalRow});
        QCOMPARE(result.anomalyCount(), size_t(1));
    }

    void unreadableValuesAreFlaggedWithTheRow_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("gtid");
        QTest::addColumn<QString>("expected");
        QTest::addRow("file without suffix") << "mysql-bin"
                                             << ""
                                             << "no numeric suffix";
        QTest::addRow("garbage gtid") << "mysql-bin.000004"
                                      << "hello"
                                      << "neither a MariaDB";
        QTest::addRow("broken mysql gtid") << "mysql-bin.000004"
                                           << "abc:1-2"
                                           << "is not a server UUID";
    }
    void unreadableValuesAreFlaggedWithTheRow() {
        QFETCH(QString, file);
        QFETCH(QString, gtid);
        QFETCH(QString, expected);
        auto result = analyzeCheckpointTable(tableOf({row("s1", "", "", "mysql-bin.000004", 4),
                                                      row("s1", "db", "t", file.toStdString(), 4, gtid.toStdString())}),
                                             {upstream("mysql-bin.000004:2500"), ""});
        const auto& point = tablePoint(result.sources[0], "t");
        QCOMPARE(kinds(point.anomalies), std::vector<AnomalyKind>{AnomalyKind::UnreadablePoint});
        QVERIFY2(QString::fromStdString(point.anomalies[0].message).contains(expected),
                 point.anomalies[0].message.c_str());
        QVERIFY2(point.anomalies[0].message.find("db.t") != std::string::npos, point.anomalies[0].message.c_str());
    }

    void exitSafePointIsParsedFromTheGlobalRow() {
        auto global = row("s1", "", "", "mysql-bin.000004", 1000, "0-1-10");
        global.exitSafeBinlogName = "mysql-bin.000004";
        global.exitSafeBinlogPos = 1900;
        global.exitSafeBinlogGtid = "0-1-12";
        auto result = analyzeCheckpointTable(tableOf({global}), {});
        QCOMPARE(result.sources[0].global->exitSafePoint.toString(), std::string("mysql-bin.000004:1900 gtid 0-1-12"));
    }

    void anomalyNamesAreStable() {
        QCOMPARE(std::string(anomalyName(AnomalyKind::TableAheadOfGlobal)), std::string("table-ahead-of-global"));
        QCOMPARE(std::string(anomalyName(AnomalyKind::MissingGlobalRow)), std::string("missing-global-row"));
        QCOMPARE(std::string(anomalyName(AnomalyKind::FileNotOnUpstream)), std::string("file-not-on-upstream"));
    }
};

QTEST_GUILESS_MAIN(CheckpointAnalyzerTest)
#include "test_checkpoint_analyzer.moc"
