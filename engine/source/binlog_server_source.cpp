#include "engine/source/binlog_server_source.h"

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>

// clang-format off
#include <mysql.h>
#include <mysqld_error.h>
#include <errmsg.h>
// clang-format on

#include <spdlog/spdlog.h>

#include "engine/source/raw_event_fields.h"
#include "engine/source/upstream_settings_check.h"

namespace syncscope::source {

namespace {

constexpr uint8_t kPacketOk = 0x00;
constexpr uint8_t kPacketEof = 0xFE;
constexpr size_t kEofPacketMaxLength = 8;
constexpr unsigned long kPacketError = static_cast<unsigned int>(-1);  // Connector/C's packet_error

// MARIA_SLAVE_CAPABILITY_GTID: the server sends GTID events and accepts @slave_connect_state.
constexpr int kMariaDbSlaveCapabilityGtid = 4;
// BINLOG_SEND_ANNOTATE_ROWS_EVENT: send ANNOTATE_ROWS events as they are in the file.
constexpr uint16_t kDumpFlagSendAnnotateRows = 0x02;
constexpr uint32_t kReplicaIdBase = 0x5C000000;  // far from the ids DBAs give their servers
constexpr uint32_t kReplicaIdsPerProcess = 0x100;
constexpr uint32_t kProcessIdSlots = 0x10000;

// COM_BINLOG_DUMP: position (4), flags (2), server id (4), file name (rest).
constexpr size_t kDumpFixedLength = 10;

std::atomic<uint32_t> sourcesInProcess{0};

void putLittleEndian(std::string& out, uint64_t value, size_t width) {
    for (size_t i = 0; i < width; ++i) {
        out += static_cast<char>((value >> (8 * i)) & 0xFF);
    }
}

bool isGtidPositionText(const std::string& text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) {
        return std::isdigit(c) || c == '-' || c == ',' || c == ' ';
    });
}

}  // namespace

bool BinlogServerSource::isRetryable(unsigned code) {
    switch (code) {
        case CR_CONNECTION_ERROR:
        case CR_CONN_HOST_ERROR:
        case CR_SERVER_GONE_ERROR:
        case CR_SERVER_LOST:
        case CR_SERVER_LOST_EXTENDED:
        case ER_CON_COUNT_ERROR:
        case ER_SERVER_SHUTDOWN:
        case ER_NET_READ_ERROR:
        case ER_NET_READ_INTERRUPTED:
        case ER_NET_ERROR_ON_WRITE:
        case ER_NET_WRITE_INTERRUPTED:
        case ER_CONNECTION_KILLED:
            return true;
        default:
            return false;
    }
}

BinlogServerSource::BinlogServerSource(ServerSourceOptions options) : options_(std::move(options)) {
    auto period = std::chrono::duration_cast<std::chrono::milliseconds>(options_.readTimeout);
    if (options_.heartbeatPeriod.count() <= 0 || options_.heartbeatPeriod >= period) {
        throw Error("binlog stream from " + options_.server.describe() + ": the heartbeat period (" +
                    std::to_string(options_.heartbeatPeriod.count()) + " ms) must be positive and shorter than the " +
                    "read timeout (" + std::to_string(options_.readTimeout.count()) + " s)");
    }
    gtidMode_ = !options_.startGtid.empty();
    if (gtidMode_ && !isGtidPositionText(options_.startGtid)) {
        throw Error("binlog stream from " + options_.server.describe() + ": '" + options_.startGtid +
                    "' is not a MariaDB GTID position (domain-server-sequence, comma-separated, e.g. 0-1-100)");
    }
    replicaServerId_ = options_.replicaServerId;
    if (replicaServerId_ == 0) {
        uint32_t pidSlot = static_cast<uint32_t>(::getpid()) % kProcessIdSlots;
        replicaServerId_ =
            kReplicaIdBase + pidSlot * kReplicaIdsPerProcess + sourcesInProcess++ % kReplicaIdsPerProcess;
    }
    options_.server.readTimeoutSeconds = static_cast<int>(options_.readTimeout.count());
    tracker_.start(options_.startFile, options_.startPosition, options_.startGtid);
    status_.file = options_.startFile;
    status_.position = options_.startPosition;
}

BinlogServerSource::~BinlogServerSource() {
    closeConnection();
}

std::string BinlogServerSource::startDescription() const {
    if (gtidMode_) {
        return "GTID position " + tracker_.resumeGtidPosition();
    }
    return tracker_.resumeFile() + ":" + std::to_string(tracker_.resumePosition());
}

void BinlogServerSource::cancel() {
    cancelled_ = true;
    std::lock_guard lock(connectionMutex_);
    if (connection_) {
        // Wakes a read blocked in the server connection at once; the reader then sees cancelled_.
        ::shutdown(static_cast<int>(mysql_get_socket(connection_->handle())), SHUT_RDWR);
    }
    backoffWake_.notify_all();
}

void BinlogServerSource::closeConnection() {
    std::unique_ptr<UpstreamConnection> closing;
    {
        std::lock_guard lock(connectionMutex_);
        closing = std::move(connection_);
    }
    std::lock_guard lock(statusMutex_);
    status_.connected = false;
}

void BinlogServerSource::sendDumpCommand(UpstreamConnection& connection) {
    std::string file = gtidMode_ ? std::string() : tracker_.resumeFile();
    uint64_t position = gtidMode_ ? 4 : tracker_.resumePosition();
    std::string packet;
    packet.reserve(kDumpFixedLength + file.size());
    putLittleEndian(packet, position, 4);
    putLittleEndian(packet, kDumpFlagSendAnnotateRows, 2);
    putLittleEndian(packet, replicaServerId_, 4);
    packet += file;
    MYSQL* mysql = connection.handle();
    if (mysql->methods->db_command(mysql, COM_BINLOG_DUMP, packet.data(), packet.size(), 1, nullptr) != 0) {
        failReading(mysql_errno(mysql), mysql_error(mysql));
    }
}

void BinlogServerSource::connectAndDump() {
    auto connection = std::make_unique<UpstreamConnection>(options_.server);
    if (options_.checkSettings) {
        auto problems = checkUpstreamSettings(*connection);
        if (!problems.empty()) {
            throw UpstreamError(describeSettingProblems(problems, options_.server.describe()), 0);
        }
    }
    Identity identity = readIdentity(*connection);
    if (identity_) {
        checkSameIdentity(identity);
    } else {
        identity_ = identity;
    }
    hasChecksum_ = identity.checksum;
    connection->execute("SET @mariadb_slave_capability = " + std::to_string(kMariaDbSlaveCapabilityGtid));
    auto periodNs = std::chrono::duration_cast<std::chrono::nanoseconds>(options_.heartbeatPeriod).count();
    connection->execute("SET @master_heartbeat_period = " + std::to_string(periodNs));
    if (gtidMode_) {
        connection->execute("SET @slave_connect_state = '" + tracker_.resumeGtidPosition() + "'");
        connection->execute(std::string("SET @slave_gtid_strict_mode = ") + (options_.gtidStrictMode ? "1" : "0"));
        connection->execute(std::string("SET @slave_gtid_ignore_duplicates = ") +
                            (options_.gtidIgnoreDuplicates ? "1" : "0"));
    }
    {
        std::lock_guard lock(connectionMutex_);
        connection_ = std::move(connection);
        if (cancelled_) {
            ::shutdown(static_cast<int>(mysql_get_socket(connection_->handle())), SHUT_RDWR);
            return;
        }
    }
    sendDumpCommand(*connection_);
    std::lock_guard lock(statusMutex_);
    status_.connected = true;
}

BinlogServerSource::Identity BinlogServerSource::readIdentity(UpstreamConnection& connection) {
    Identity identity;
    connection.execute("SET @master_binlog_checksum = @@global.binlog_checksum");
    std::string checksum = connection.queryValue("SELECT @master_binlog_checksum").value_or("NONE");
    std::transform(checksum.begin(), checksum.end(), checksum.begin(), [](unsigned char c) { return std::toupper(c); });
    identity.checksum = checksum == "CRC32";
    identity.serverId = connection.queryValue("SELECT @@server_id").value_or("");
    if (gtidMode_) {
        identity.gtidDomainId = connection.queryValue("SELECT @@gtid_domain_id").value_or("");
    }
    return identity;
}

void BinlogServerSource::checkSameIdentity(const Identity& now) const {
    std::string where = "binlog stream from " + options_.server.describe() + ", reconnecting at " + startDescription();
    std::string restart =
        ": reading on in place could skip or repeat events; the session restarts from its persisted point";
    if (now.serverId != identity_->serverId) {
        throw StreamIdentityChanged(where + ": another server answers (server_id " + identity_->serverId +
                                        " before the cut, " + now.serverId + " now)" + restart,
                                    CR_SERVER_LOST);
    }
    if (now.gtidDomainId != identity_->gtidDomainId) {
        throw StreamIdentityChanged(where + ": the server's gtid_domain_id changed (" + identity_->gtidDomainId +
                                        " before the cut, " + now.gtidDomainId + " now)" + restart,
                                    CR_SERVER_LOST);
    }
    if (now.checksum != identity_->checksum) {
        auto name = [](bool crc) { return crc ? std::string("CRC32") : std::string("NONE"); };
        throw StreamIdentityChanged(where + ": binlog_checksum changed (" + name(identity_->checksum) +
                                        " before the cut, " + name(now.checksum) + " now)" + restart,
                                    CR_SERVER_LOST);
    }
}

void BinlogServerSource::setReconnecting(bool reconnecting, int attempt, const std::string& lastError) {
    std::lock_guard lock(statusMutex_);
    status_.reconnecting = reconnecting;
    status_.reconnectAttempt = attempt;
    status_.lastReconnectError = lastError;
}

void BinlogServerSource::reconnectWithBackoff(const UpstreamError& cause) {
    std::string lostAt = "binlog stream from " + options_.server.describe() + " lost at " + tracker_.currentFile() +
                         ":" + std::to_string(tracker_.currentPosition());
    if (options_.maxReconnectAttempts == 0) {
        throw UpstreamError(lostAt + " (reconnects are left to the caller): " + cause.what(), cause.code());
    }
    auto delay = options_.initialBackoff;
    std::string lastError = cause.what();
    unsigned lastCode = cause.code();
    {
        std::lock_guard lock(statusMutex_);
        status_.lastCut = "lost at " + tracker_.currentFile() + ":" + std::to_string(tracker_.currentPosition()) +
                          ": " + lastError + " [" + std::to_string(lastCode) + "]";
    }
    for (int attempt = 1; options_.maxReconnectAttempts < 0 || attempt <= options_.maxReconnectAttempts; ++attempt) {
        setReconnecting(true, attempt, attempt == 1 ? std::string() : lastError);
        {
            std::unique_lock lock(connectionMutex_);
            backoffWake_.wait_for(lock, delay, [this] { return cancelled_.load(); });
        }
        if (cancelled_) {
            setReconnecting(false, 0, {});
            return;
        }
        try {
            connectAndDump();
            ++reconnects_;
            setReconnecting(false, 0, {});
            std::lock_guard lock(statusMutex_);
            status_.reconnects = reconnects_;
            return;
        } catch (const StreamIdentityChanged&) {
            setReconnecting(false, 0, {});
            throw;
        } catch (const UpstreamError& e) {
            if (!isRetryable(e.code())) {
                setReconnecting(false, 0, {});
                throw;
            }
            lastError = e.what();
            lastCode = e.code();
        }
        if (attempt == 1 || attempt % 10 == 0) {
            spdlog::warn("{}: reconnect attempt {} failed: {}", lostAt, attempt, lastError);
        }
        delay = std::min(delay * 2, options_.maxBackoff);
    }
    setReconnecting(false, 0, {});
    throw UpstreamError(lostAt + " and not resumed after " + std::to_string(options_.maxReconnectAttempts) +
                            " attempts; last error: " + lastError,
                        lastCode);
}

std::string BinlogServerSource::describeAvailableBinlogs() {
    try {
        UpstreamConnection connection(options_.server);
        auto rows = connection.query("SHOW BINARY LOGS");
        if (rows.empty()) {
            return "the upstream has no binary logs (SHOW BINARY LOGS is empty)";
        }
        std::string first = rows.front().front().value_or("?");
        std::string last = rows.back().front().value_or("?");
        std::string text =
            "the upstream still has " + first + (first == last ? std::string() : " to " + last) + " (SHOW BINARY LOGS)";
        if (auto gtid = connection.queryValue("SELECT BINLOG_GTID_POS('" + first + "', 4)"); gtid && !gtid->empty()) {
            text += "; the oldest GTID position it can serve is " + *gtid;
        }
        return text + "; start from a position it still has, e.g. " + first + ":4, and re-copy what was purged";
    } catch (const Error& e) {
        return std::string("SHOW BINARY LOGS failed as well: ") + e.what();
    }
}

void BinlogServerSource::failReading(unsigned code, const std::string& serverMessage) {
    std::string where = "binlog stream from " + options_.server.describe();
    if (code == ER_MASTER_FATAL_ERROR_READING_BINLOG) {
        throw UpstreamError(where + ": cannot read from " + startDescription() + ": " + serverMessage + " [" +
                                std::to_string(code) + "]; " + describeAvailableBinlogs(),
                            code);
    }
    if (code == ER_SPECIFIC_ACCESS_DENIED_ERROR || code == ER_ACCESS_DENIED_ERROR || code == ER_DBACCESS_DENIED_ERROR) {
        throw UpstreamError(where + ": " + serverMessage + " [" + std::to_string(code) +
                                "]; fix: GRANT REPLICATION SLAVE, BINLOG MONITOR ON *.* TO '" + options_.server.user +
                                "'@'<its host>'",
                            code);
    }
    throw UpstreamError(where + " at " + tracker_.currentFile() + ":" + std::to_string(tracker_.currentPosition()) +
                            ": " + serverMessage + " [" + std::to_string(code) + "]",
                        code);
}

std::optional<binlog::RawEvent> BinlogServerSource::next() {
    for (;;) {
        if (cancelled_) {
            closeConnection();
            return std::nullopt;
        }
        if (!connection_) {
            if (!started_) {
                connectAndDump();
                started_ = true;
            } else {
                reconnectWithBackoff(UpstreamError("connection lost", CR_SERVER_LOST));
            }
            continue;
        }
        MYSQL* mysql = connection_->handle();
        unsigned long length = mysql_net_read_packet(mysql);
        if (cancelled_) {
            continue;
        }
        if (length == kPacketError || length == 0) {
            unsigned code = length == 0 ? static_cast<unsigned>(CR_SERVER_LOST) : mysql_errno(mysql);
            std::string message = length == 0 ? "empty packet" : mysql_error(mysql);
            closeConnection();
            if (!isRetryable(code)) {
                failReading(code, message);
            }
            reconnectWithBackoff(UpstreamError(message, code));
            continue;
        }
        const auto* packet = mysql->net.read_pos;
        if (packet[0] == kPacketEof && length < kEofPacketMaxLength) {
            closeConnection();  // the server ended the dump (it is shutting down): resume elsewhere
            reconnectWithBackoff(UpstreamError("the server ended the binlog stream", CR_SERVER_LOST));
            continue;
        }
        if (packet[0] != kPacketOk || length - 1 < binlog::kEventHeaderSize) {
            closeConnection();
            failReading(CR_MALFORMED_PACKET, "a binlog packet that is not an event (first byte " +
                                                 std::to_string(packet[0]) + ", " + std::to_string(length) + " bytes)");
        }
        std::string_view bytes(reinterpret_cast<const char*>(packet + 1), length - 1);
        RawEventHeader header = readRawEventHeader(bytes);
        if (header.eventSize != bytes.size()) {
            closeConnection();
            failReading(CR_MALFORMED_PACKET, "an event whose header says " + std::to_string(header.eventSize) +
                                                 " bytes came in a packet of " + std::to_string(bytes.size()));
        }
        binlog::RawEvent event{bytes, {}, 0};
        bool heartbeat = header.type == kHeartbeatEventType || header.type == kHeartbeatV2EventType;
        // Artificial events (the ROTATE and FORMAT_DESCRIPTION a stream starts with) are not in the
        // file: they belong where the stream stands after them.
        bool inFile = !heartbeat && header.logPos >= header.eventSize && (header.flags & kArtificialEventFlag) == 0;
        if (!inFile) {
            tracker_.observe(event, hasChecksum_);
        }
        if (fileNames_.empty() || fileNames_.back() != tracker_.currentFile()) {
            fileNames_.push_back(tracker_.currentFile());
        }
        event.file = fileNames_.back();
        event.pos = inFile ? header.logPos - header.eventSize : tracker_.currentPosition();
        if (inFile) {
            tracker_.observe(event, hasChecksum_);
        }
        std::lock_guard lock(statusMutex_);
        if (heartbeat) {  // the clock is read per heartbeat, not per event (a few a row on a busy stream)
            status_.lastHeartbeatTime = std::chrono::system_clock::now();
        }
        status_.file = tracker_.currentFile();
        status_.position = tracker_.currentPosition();
        if (statusResumeMoves_ != tracker_.resumeMoves()) {  // once per transaction, not per event
            statusResumeMoves_ = tracker_.resumeMoves();
            status_.resumeFile = tracker_.resumeFile();
            status_.resumePosition = tracker_.resumePosition();
            status_.resumeGtid = tracker_.resumeGtidPosition();
        }
        return event;
    }
}

ServerSourceStatus BinlogServerSource::status() const {
    std::lock_guard lock(statusMutex_);
    return status_;
}

}  // namespace syncscope::source
