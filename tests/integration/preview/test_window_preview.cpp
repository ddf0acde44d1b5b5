// The preview of a binlog window (what a skip or a resume-from leaves out) on the real pair: a window of
// two transactions whose rows the downstream holds equal, lacks, holds different, and still holds though
// deleted is reported row by row with those states; a keyless table is named as not checked; the replay
// SQL run on the downstream makes the table equal to the upstream, and run twice changes nothing; windows
// that cannot be read are refused with the reason.
#include <QtTest>

#include <optional>
#include <string>

#include "engine/source/upstream_connection.h"
#include "engine/verify/verify_error.h"
#include "engine/verify/window_preview.h"
#include "tests/support/test_env.h"

using namespace syncscope;
using source::UpstreamConnection;
using verify::WindowRowState;

namespace {

binlog::BinlogPosition masterPosition(UpstreamConnection& up) {
    auto status = up.query("SHOW MASTER STATUS");
    return binlog::BinlogPosition(*status.front()[0], std::stoull(*status.front()[1]));
}

// The statements of a replay file, comments left out.
void runSql(UpstreamConnection& down, const std::string& sql) {
    size_t start = 0;
    while (start < sql.size()) {
        size_t end = sql.find('\n', start);
        std::string line = sql.substr(start, end == std::string::npos ? std::string::npos : end - start);
        start = end == std::string::npos ? sql.size() : end + 1;
        if (!line.empty() && line.rfind("--", 0) != 0) {
            down.execute(line);
        }
    }
}

}  // namespace

class WindowPreviewTest : public QObject {
    Q_OBJECT

    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> down_;

    verify::WindowPreviewRequest request(const binlog::BinlogPosition& from, const binlog::BinlogPosition& to) {
        verify::WindowPreviewRequest r;
        r.upstream = test::engineSettings(test::upstreamRoot());
        r.downstream = test::engineSettings(test::downstreamRoot());
        r.from = from;
        r.to = to;
        return r;
    }
    std::string checksum(UpstreamConnection& server) {
        return server.query("CHECKSUM TABLE preview_w.p").front()[1].value_or("NULL");
    }

private slots:
    void initTestCase() {
        up_ = std::make_unique<UpstreamConnection>(test::engineSettings(test::upstreamRoot()));
        down_ = std::make_unique<UpstreamConnection>(test::engineSettings(test::downstreamRoot()));
        for (UpstreamConnection* server : {up_.get(), down_.get()}) {
            server->execute("SET SESSION sql_log_bin = 0");
            server->execute("DROP DATABASE IF EXISTS preview_w");
            server->execute("CREATE DATABASE preview_w");
            server->execute("CREATE TABLE preview_w.p (id INT PRIMARY KEY, v INT, name VARCHAR(20))");
            server->execute("CREATE TABLE preview_w.nokey (v INT)");
            server->execute("INSERT INTO preview_w.p VALUES (1, 1, 'one'), (2, 2, 'two'), (3, 3, 'three')");
            server->execute("SET SESSION sql_log_bin = 1");
        }
    }

    void eachRowHasItsDownstreamStateAndTheReplaySqlRestoresThem() {
        const binlog::BinlogPosition from = masterPosition(*up_);
        up_->execute("BEGIN");
        up_->execute("INSERT INTO preview_w.p VALUES (10, 10, 'ten'), (11, 11, 'eleven')");
        up_->execute("UPDATE preview_w.p SET v = 20, name = 'two!' WHERE id = 2");
        up_->execute("COMMIT");
        up_->execute("BEGIN");
        up_->execute("DELETE FROM preview_w.p WHERE id = 3");
        up_->execute("INSERT INTO preview_w.nokey VALUES (1)");
        up_->execute("COMMIT");
        const binlog::BinlogPosition to = masterPosition(*up_);
        // The downstream: row 10 applied, row 11 not, row 2 with another name, row 3 not deleted.
        down_->execute("INSERT INTO preview_w.p VALUES (10, 10, 'ten')");
        down_->execute("UPDATE preview_w.p SET v = 20, name = 'two?' WHERE id = 2");

        verify::WindowPreview preview = verify::WindowPreviewer().preview(request(from, to));
        QCOMPARE(preview.transactions.size(), size_t(2));
        QCOMPARE(preview.transactions[0].rowChanges, uint64_t(3));
        QCOMPARE(preview.transactions[0].start, from);
        QCOMPARE(preview.transactions[1].end, to);
        QCOMPARE(preview.tables.size(), size_t(1));
        const verify::SkipWindowReport& p = preview.tables.front();
        QCOMPARE(p.rows.size(), size_t(4));  // 10, 11, 2, 3 in first-change order
        auto stateOf = [&](const char* id) -> std::optional<WindowRowState> {
            for (const auto& row : p.rows) {
                if (row.key.front().text() == std::optional<std::string>(id)) {
                    return row.state;
                }
            }
            return std::nullopt;
        };
        QCOMPARE(stateOf("10"), std::optional(WindowRowState::Equal));
        QCOMPARE(stateOf("11"), std::optional(WindowRowState::Missing));
        QCOMPARE(stateOf("2"), std::optional(WindowRowState::Different));
        QCOMPARE(stateOf("3"), std::optional(WindowRowState::NotDeleted));
        QCOMPARE(p.rows[2].differingColumns, std::vector<std::string>{"name"});
        QCOMPARE(preview.problems.size(), size_t(1));
        QCOMPARE(QString::fromStdString(preview.problems.front().table.text()), QString("preview_w.nokey"));

        const std::string sql = preview.replaySql("a test skip");
        QVERIFY2(sql.find("-- SyncScope: a test skip") == 0, sql.c_str());
        QVERIFY2(sql.find("NOT CHECKED, no statements: preview_w.nokey") != std::string::npos, sql.c_str());
        QVERIFY(checksum(*up_) != checksum(*down_));
        runSql(*down_, sql);
        QCOMPARE(checksum(*down_), checksum(*up_));
        runSql(*down_, sql);  // idempotent
        QCOMPARE(checksum(*down_), checksum(*up_));
        verify::WindowPreview after = verify::WindowPreviewer().preview(request(from, to));
        QCOMPARE(after.rowsIn(WindowRowState::Equal), size_t(4));
    }

    void windowsThatCannotBeReadAreRefused_data() {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("reason");
        const binlog::BinlogPosition now = masterPosition(*up_);
        const std::string file = now.file();
        QTest::addRow("end before start")
            << QString::fromStdString(now.toString()) << QString::fromStdString(file + ":4") << "before the end";
        QTest::addRow("end beyond the upstream")
            << QString::fromStdString(file + ":4")
            << QString::fromStdString(file + ":" + std::to_string(now.offset() + 1000))
            << "beyond the upstream's position";
        QTest::addRow("empty start") << "" << QString::fromStdString(now.toString()) << "before the end";
    }

    void windowsThatCannotBeReadAreRefused() {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, reason);
        auto position = [](const QString& text) {
            return text.isEmpty() ? binlog::BinlogPosition() : binlog::BinlogPosition::parse(text.toStdString());
        };
        try {
            verify::WindowPreviewer().preview(request(position(from), position(to)));
            QFAIL("refused nothing");
        } catch (const verify::VerifyError& e) {
            QVERIFY2(QString(e.what()).contains(reason), e.what());
        }
    }

    void cleanupTestCase() {
        for (UpstreamConnection* server : {up_.get(), down_.get()}) {
            server->execute("SET SESSION sql_log_bin = 0");
            server->execute("DROP DATABASE IF EXISTS preview_w");
            server->execute("SET SESSION sql_log_bin = 1");
        }
    }
};

QTEST_GUILESS_MAIN(WindowPreviewTest)
#include "test_window_preview.moc"
