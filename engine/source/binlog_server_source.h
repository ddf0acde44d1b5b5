// Streams binlog events from a MariaDB (or MySQL, by file position) server. MariaDB Connector/C is
// only the transport: it connects and sends COM_BINLOG_DUMP, and the raw event bytes of each packet
// are handed out as they came, for the engine's own decoder. Heartbeats tell an idle stream from a
// dead one; a lost connection is resumed, with backoff, after the last complete transaction.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "engine/binlog/raw_event.h"
#include "engine/common/server_settings.h"
#include "engine/source/resume_point_tracker.h"
#include "engine/source/upstream_connection.h"

namespace syncscope::source {

struct ServerSourceOptions {
    ServerSettings server;
    // Where to start: a file and position, or (when startGtid is set) a MariaDB GTID position
    // ("0-1-5,1-2-7") after which the upstream sends; then startFile and startPosition are ignored.
    std::string startFile;
    uint64_t startPosition = 4;
    std::string startGtid;
    bool gtidStrictMode = false;        // @slave_gtid_strict_mode
    bool gtidIgnoreDuplicates = false;  // @slave_gtid_ignore_duplicates

    // The server id this reader presents; two readers with the same id evict each other. 0: one
    // derived from the process id, different for every source in the process.
    uint32_t replicaServerId = 0;
    // The upstream sends a heartbeat after this much silence.
    std::chrono::milliseconds heartbeatPeriod{std::chrono::seconds(5)};
    // No event and no heartbeat for this long: the connection is dead (must exceed the heartbeat period).
    std::chrono::seconds readTimeout{20};
    // Check binlog_format, row image and row metadata before streaming (see upstream_settings_check.h).
    bool checkSettings = true;

    // After the stream was established, a lost connection is retried in place this many times (-1: forever),
    // waiting initialBackoff, doubling up to maxBackoff. The first connection is never retried.
    int maxReconnectAttempts = 10;
    std::chrono::milliseconds initialBackoff{200};
    std::chrono::milliseconds maxBackoff{std::chrono::seconds(30)};
};

// What the source knows about the stream, for status displays; safe to take from any thread.
struct ServerSourceStatus {
    std::string file;  // the upstream file being read
    uint64_t position = 0;
    std::string resumeFile;  // after the last complete transaction
    uint64_t resumePosition = 0;
    std::string resumeGtid;
    std::optional<std::chrono::system_clock::time_point> lastHeartbeatTime;  // last heartbeat
    uint64_t reconnects = 0;
    bool connected = false;
    // While a lost stream is being resumed in place: which attempt runs and why the last one failed.
    bool reconnecting = false;
    int reconnectAttempt = 0;
    std::string lastCut;             // the last loss: "lost at mariadb-bin.000003:1234: Lost connection ... [2013]"
    std::string lastReconnectError;  // why the last attempt failed ("" once one succeeded)
};

// A reconnect reached a server that cannot go on where the stream was cut: another server behind the
// address (server_id changed), another GTID domain, or another binlog checksum. Retrying in place would
// read the wrong stream; the caller restarts from its persisted point instead (the message says why).
class StreamIdentityChanged : public UpstreamError {
public:
    using UpstreamError::UpstreamError;
};

class BinlogServerSource {
public:
    // Checks the options (throws Error naming a bad one); connects on the first next().
    explicit BinlogServerSource(ServerSourceOptions options);
    ~BinlogServerSource();
    BinlogServerSource(const BinlogServerSource&) = delete;
    BinlogServerSource& operator=(const BinlogServerSource&) = delete;

    // The next event (heartbeats included: type 27), or nullopt once cancelled. The bytes stay valid
    // until the next call. Throws UpstreamError for what a retry cannot fix: bad credentials, a
    // missing grant, wrong server settings, a purged or impossible start position (1236), or a
    // connection that stayed lost through every reconnect attempt.
    // After a reconnect (reconnects() grew) the stream restarts after the last complete transaction,
    // with a ROTATE and FORMAT_DESCRIPTION first: drop any incomplete transaction you hold.
    std::optional<binlog::RawEvent> next();

    // From any thread: makes a blocked next() return nullopt within a second, and every later one too.
    void cancel();
    bool cancelled() const { return cancelled_.load(); }

    // Whether events carry a CRC32 trailer (negotiated from @@global.binlog_checksum); known after
    // the first next(). The artificial ROTATE that starts a stream comes before any FORMAT_DESCRIPTION.
    bool hasChecksum() const { return hasChecksum_; }
    uint64_t reconnects() const { return reconnects_.load(); }
    ServerSourceStatus status() const;

    // Retryable server and client error codes (connection lost, server shutting down, ...).
    static bool isRetryable(unsigned code);

    // The upstream server's identity, read at every connect (a reconnect must find the same one).
    struct Identity {
        std::string serverId;
        std::string gtidDomainId;  // "" when not streaming by GTID
        bool checksum = false;
    };

private:
    void connectAndDump();
    Identity readIdentity(UpstreamConnection& connection);
    void checkSameIdentity(const Identity& now) const;
    void setReconnecting(bool reconnecting, int attempt, const std::string& lastError);
    void reconnectWithBackoff(const UpstreamError& cause);
    void closeConnection();
    void sendDumpCommand(UpstreamConnection& connection);
    [[noreturn]] void failReading(unsigned code, const std::string& serverMessage);
    std::string startDescription() const;
    std::string describeAvailableBinlogs();

    ServerSourceOptions options_;
    uint32_t replicaServerId_ = 0;
    std::unique_ptr<UpstreamConnection> connection_;  // guarded by connectionMutex_ for cancel()
    mutable std::mutex connectionMutex_;
    std::condition_variable backoffWake_;
    std::atomic<bool> cancelled_{false};
    std::atomic<uint64_t> reconnects_{0};
    bool started_ = false;
    bool hasChecksum_ = false;
    std::optional<Identity> identity_;  // of the first connection
    bool gtidMode_ = false;

    ResumePointTracker tracker_;
    std::deque<std::string> fileNames_;  // every file name handed out, so that RawEvent::file stays valid

    mutable std::mutex statusMutex_;
    ServerSourceStatus status_;
    uint64_t statusResumeMoves_ = 0;  // the tracker's resumeMoves() that status_'s resume point shows
};

}  // namespace syncscope::source
