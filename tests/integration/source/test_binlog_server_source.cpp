// The server source streams raw events from the private upstream: from a file position and from a
// GTID position, with heartbeats on an idle stream, across FLUSH BINARY LOGS, through a killed
// connection (resumed after the last complete transaction), cancelled from another thread within a
// second, and with clear errors for a purged position, a wrong password, a missing grant and a
// wrong server setting.
#include <QtTest>

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <thread>

#include "engine/source/binlog_server_source.h"
#include "engine/source/raw_event_fields.h"
#include "engine/source/upstream_connection.h"
#include "tests/support/test_env.h"

using namespace syncscope;
using namespace std::chrono_literals;
using source::BinlogServerSource;
using source::ServerSourceOptions;

namespace {

constexpr uint8_t kWriteRowsV1 = 23;
constexpr uint8_t kGtid = 162;

ServerSettings toSettings(const test::ServerSettings& s) {
    ServerSettings settings;
    settings.host = s.host;
    settings.port = s.port;
    settings.user = s.user;
    settings.password = s.password;
    return settings;
}

struct Seen {
    std::string file;
    uint64_t pos = 0;
    source::RawEventHeader header;
    std::string query;  // for QUERY events
    std::string rotateTo;
};

Seen describe(const binlog::RawEvent& event, bool checksum) {
    Seen seen{std::string(event.file), event.pos, source::readRawEventHeader(event.bytes), {}, {}};
    if (seen.header.type == source::kQueryEventType) {
        seen.query = std::string(source::readQueryText(event.bytes, checksum));
    } else if (seen.header.type == source::kRotateEventType) {
        seen.rotateTo = source::readRotateTarget(event.bytes, checksum).file;
    }
    return seen;
}

// Reads until `stop` says so; fails the test after `limit` (heartbeats make next() return regularly).
std::vector<Seen> readUntil(BinlogServerSource& source, const std::function<bool(const Seen&)>& stop,
                            std::chrono::milliseconds limit = 10s) {
    std::vector<Seen> seen;
    auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
        auto event = source.next();
        if (!event) {
            break;
        }
        seen.push_back(describe(*event, source.hasChecksum()));
        if (stop(seen.back())) {
            return seen;
        }
    }
    return {};
}

std::function<bool(const Seen&)> queryContaining(const std::string& text) {
    return [text](const Seen& s) { return s.query.find(text) != std::string::npos; };
}

bool isXid(const Seen& s) {
    return s.header.type == source::kXidEventType;
}

}  // namespace

class BinlogServerSourceTest : public QObject {
    Q_OBJECT

    std::unique_ptr<source::UpstreamConnection> root_;

    std::pair<std::string, uint64_t> masterPosition() {
        auto rows = root_->query("SHOW MASTER STATUS");
        return {*rows.at(0).at(0), std::stoull(*rows.at(0).at(1))};
    }

    size_t killDumpThreads() {
        auto threads = root_->query(
            "SELECT ID FROM information_schema.PROCESSLIST WHERE COMMAND LIKE 'Binlog Dump%' AND USER = '" +
            test::upstreamReplication().user + "'");
        for (const auto& row : threads) {
            try {
                root_->execute("KILL " + *row.at(0));
            } catch (const source::UpstreamError&) {
                // ended on its own meanwhile
            }
        }
        return threads.size();
    }

    ServerSourceOptions optionsFrom(const std::pair<std::string, uint64_t>& position) {
        ServerSourceOptions options;
        options.server = toSettings(test::upstreamReplication());
        options.startFile = position.first;
        options.startPosition = position.second;
        options.heartbeatPeriod = 300ms;
        options.readTimeout = 5s;
        options.initialBackoff = 50ms;
        return options;
    }

private slots:
    void initTestCase() {
        root_ = std::make_unique<source::UpstreamConnection>(toSettings(test::upstreamRoot()));
        root_->execute("CREATE DATABASE IF NOT EXISTS source_test");
    }

    void streamsFromAFilePositionWithExactEventPositions() {
        auto start = masterPosition();
        root_->execute("CREATE TABLE source_test.from_pos (id INT PRIMARY KEY, name VARCHAR(20))");
        root_->execute("INSERT INTO source_test.from_pos VALUES (1, 'a'), (2, 'b')");

        BinlogServerSource source(optionsFrom(start));
        auto seen = readUntil(source, isXid);
        QVERIFY2(!seen.empty(), "no XID within the time limit");
        QCOMPARE(seen.front().header.type, source::kRotateEventType);  // the artificial rotate
        QCOMPARE(seen.front().rotateTo, start.first);
        QCOMPARE(seen.at(1).header.type, source::kFormatDescriptionEventType);
        QVERIFY(source.hasChecksum());
        auto ddl = std::find_if(seen.begin(), seen.end(), queryContaining("CREATE TABLE source_test.from_pos"));
        QVERIFY(ddl != seen.end());
        auto firstGtid = std::find_if(seen.begin(), seen.end(), [](const Seen& s) { return s.header.type == kGtid; });
        QVERIFY(firstGtid != seen.end());
        QCOMPARE(firstGtid->pos, start.second);  // the first event in the file starts where we asked
        for (const Seen& s : seen) {
            if (s.header.logPos != 0 && s.header.type != source::kRotateEventType &&
                s.header.type != source::kFormatDescriptionEventType) {
                QCOMPARE(s.file, start.first);
                QCOMPARE(s.pos + s.header.eventSize, uint64_t(s.header.logPos));
            }
        }
        QVERIFY(std::any_of(seen.begin(), seen.end(), [](const Seen& s) { return s.header.type == kWriteRowsV1; }));
        auto status = source.status();
        QCOMPARE(status.resumeFile, start.first);
        QCOMPARE(status.resumePosition, uint64_t(seen.back().header.logPos));
        QCOMPARE(status.resumePosition, masterPosition().second);
        QVERIFY(status.connected);
    }

    void streamsFromAGtidPosition() {
        std::string before = root_->queryValue("SELECT @@gtid_binlog_pos").value_or("");
        QVERIFY(!before.empty());
        root_->execute("CREATE TABLE source_test.from_gtid (id INT PRIMARY KEY)");
        std::string after = root_->queryValue("SELECT @@gtid_binlog_pos").value_or("");

        auto options = optionsFrom({"", 4});
        options.startGtid = before;
        BinlogServerSource source(options);
        auto seen = readUntil(source, queryContaining("CREATE TABLE source_test.from_gtid"));
        QVERIFY2(!seen.empty(), "the DDL after the GTID position did not arrive");
        // Only the DDL's own group came: no earlier statement of this suite.
        QCOMPARE(std::count_if(seen.begin(), seen.end(), [](const Seen& s) { return s.header.type == kGtid; }), 1);
        QCOMPARE(source.status().resumeGtid, after);
    }

    void heartbeatsArriveOnAnIdleStream() {
        BinlogServerSource source(optionsFrom(masterPosition()));
        int heartbeats = 0;
        auto seen = readUntil(source, [&](const Seen& s) {
            heartbeats += s.header.type == source::kHeartbeatEventType ? 1 : 0;
            return heartbeats == 3;
        });
        QVERIFY2(!seen.empty(), "three heartbeats did not arrive within the time limit");
        auto status = source.status();
        QVERIFY(status.lastHeartbeatTime.has_value());
        QVERIFY(std::chrono::system_clock::now() - *status.lastHeartbeatTime < 1s);
    }

    void cancelFromAnotherThreadEndsABlockedReadWithinOneSecond() {
        auto options = optionsFrom(masterPosition());
        options.heartbeatPeriod = 10s;  // nothing wakes the read but the cancel
        options.readTimeout = 30s;
        BinlogServerSource source(options);
        std::atomic<bool> reading{false};
        auto reader = std::async(std::launch::async, [&] {
            while (source.next()) {
                reading = true;  // the artificial ROTATE and FORMAT_DESCRIPTION come first
            }
            return std::chrono::steady_clock::now();
        });
        auto deadline = std::chrono::steady_clock::now() + 5s;
        while (!reading && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(10ms);
        }
        QVERIFY(reading);
        std::this_thread::sleep_for(300ms);  // now blocked in the server read
        auto cancelledAt = std::chrono::steady_clock::now();
        source.cancel();
        QVERIFY2(reader.wait_for(2s) == std::future_status::ready, "next() did not return after cancel()");
        auto took = std::chrono::duration_cast<std::chrono::milliseconds>(reader.get() - cancelledAt);
        QVERIFY2(took < 1000ms, (std::to_string(took.count()) + " ms").c_str());
        QVERIFY(!source.next().has_value());
    }

    void followsFlushBinaryLogsIntoTheNextFile() {
        auto start = masterPosition();
        BinlogServerSource source(optionsFrom(start));
        root_->execute("FLUSH BINARY LOGS");
        root_->execute("CREATE TABLE source_test.after_flush (id INT)");
        auto next = masterPosition().first;
        QVERIFY(next != start.first);
        auto seen = readUntil(source, queryContaining("CREATE TABLE source_test.after_flush"));
        QVERIFY(!seen.empty());
        auto rotate = std::find_if(seen.begin(), seen.end(), [&](const Seen& s) {
            return s.header.type == source::kRotateEventType && s.header.logPos != 0;
        });
        QVERIFY(rotate != seen.end());
        QCOMPARE(rotate->file, start.first);
        QCOMPARE(rotate->rotateTo, next);
        QCOMPARE(seen.back().file, next);
        QCOMPARE(source.status().file, next);
    }

    void aKilledConnectionResumesAfterTheLastCompleteTransaction() {
        root_->execute("CREATE TABLE IF NOT EXISTS source_test.resumed (id INT PRIMARY KEY)");
        auto start = masterPosition();
        BinlogServerSource source(optionsFrom(start));
        root_->execute("INSERT INTO source_test.resumed VALUES (1)");
        QVERIFY(!readUntil(source, isXid).empty());
        uint64_t resumeAt = source.status().resumePosition;

        // Kill the dump thread on the server, then write the next transaction.
        QVERIFY(killDumpThreads() > 0);
        root_->execute("INSERT INTO source_test.resumed VALUES (2)");
        auto seen = readUntil(source, isXid);
        QVERIFY2(!seen.empty(), "the stream did not resume");
        QCOMPARE(source.reconnects(), uint64_t(1));
        auto firstInFile = std::find_if(seen.begin(), seen.end(), [](const Seen& s) { return s.header.type == kGtid; });
        QVERIFY(firstInFile != seen.end());
        QCOMPARE(firstInFile->pos, resumeAt);
    }

    void aWrongPasswordIsAClearErrorWithoutThePassword() {
        auto options = optionsFrom(masterPosition());
        options.server.password = "wrong-password-0815";
        BinlogServerSource source(options);
        try {
            source.next();
            QFAIL("streamed with a wrong password");
        } catch (const source::UpstreamError& e) {
            QCOMPARE(e.code(), 1045u);
            std::string message = e.what();
            QVERIFY2(message.find(options.server.describe()) != std::string::npos, e.what());
            QVERIFY2(message.find("wrong-password-0815") == std::string::npos, e.what());
        }
    }

    void aMissingReplicationGrantNamesTheGrant() {
        root_->execute("CREATE USER IF NOT EXISTS 'source_nogrant'@'127.0.0.1' IDENTIFIED BY 'nogrant'");
        root_->execute("GRANT SELECT ON *.* TO 'source_nogrant'@'127.0.0.1'");
        auto options = optionsFrom(masterPosition());
        options.server.user = "source_nogrant";
        options.server.password = "nogrant";
        BinlogServerSource source(options);
        try {
            source.next();
            QFAIL("streamed without REPLICATION SLAVE");
        } catch (const source::UpstreamError& e) {
            std::string message = e.what();
            QCOMPARE(e.code(), 1227u);
            QVERIFY2(message.find("REPLICATION SLAVE") != std::string::npos, e.what());
            QVERIFY2(message.find("GRANT") != std::string::npos, e.what());
        }
    }

    void aWrongServerSettingNamesTheSettingAndItsFix() {
        root_->execute("SET GLOBAL binlog_format = 'STATEMENT'");
        auto restore = qScopeGuard([&] { root_->execute("SET GLOBAL binlog_format = 'ROW'"); });
        BinlogServerSource source(optionsFrom(masterPosition()));
        try {
            source.next();
            QFAIL("streamed from a server with binlog_format STATEMENT");
        } catch (const source::UpstreamError& e) {
            std::string message = e.what();
            QVERIFY2(message.find("binlog_format is STATEMENT but must be ROW") != std::string::npos, e.what());
            QVERIFY2(message.find("SET GLOBAL binlog_format = 'ROW'") != std::string::npos, e.what());
        }
    }

    // Last: it purges the older binlog files of the private upstream.
    void aPurgedPositionNamesItAndWhatTheUpstreamStillHas() {
        auto old = masterPosition();
        root_->execute("FLUSH BINARY LOGS");
        auto current = masterPosition().first;
        // The server keeps files that a dump thread still reads; those of earlier tests may linger
        // until their next heartbeat write fails.
        for (int i = 0; i < 50 && killDumpThreads() > 0; ++i) {
            std::this_thread::sleep_for(100ms);  // KILL takes effect asynchronously
        }
        // A file stays until the binlog checkpoint (crash recovery) has moved past it: retry a while.
        auto firstFile = [&] { return *root_->query("SHOW BINARY LOGS").at(0).at(0); };
        for (int i = 0; i < 100 && firstFile() != current; ++i) {
            root_->execute("PURGE BINARY LOGS TO '" + current + "'");
            std::this_thread::sleep_for(100ms);
        }
        QCOMPARE(firstFile(), current);
        BinlogServerSource source(optionsFrom({old.first, 4}));
        try {
            // The server may send the artificial ROTATE before it finds the file missing.
            for (int i = 0; i < 3 && source.next(); ++i) {
            }
            QFAIL("streamed from a purged file");
        } catch (const source::UpstreamError& e) {
            std::string message = e.what();
            QCOMPARE(e.code(), 1236u);
            QVERIFY2(message.find(old.first + ":4") != std::string::npos, e.what());
            QVERIFY2(message.find("still has " + current) != std::string::npos, e.what());
            qInfo("%s", e.what());
        }
    }
};

QTEST_GUILESS_MAIN(BinlogServerSourceTest)
#include "test_binlog_server_source.moc"
