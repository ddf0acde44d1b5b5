// openServerStream: the syncer's BinlogStream over source::BinlogServerSource.
#include <chrono>

#include "engine/source/binlog_server_source.h"
#include "engine/task/binlog_stream.h"

namespace syncscope::task {

namespace {

class ServerBinlogStream final : public BinlogStream {
public:
    explicit ServerBinlogStream(source::ServerSourceOptions options) : source_(std::move(options)) {}

    std::optional<binlog::RawEvent> next() override { return source_.next(); }
    void cancel() override { source_.cancel(); }
    StreamConnectionView connection() const override {
        source::ServerSourceStatus status = source_.status();
        return {status.connected,          status.reconnecting, status.reconnectAttempt,
                status.lastReconnectError, status.reconnects,   status.lastCut};
    }
    uint64_t reconnects() const override { return source_.reconnects(); }

private:
    source::BinlogServerSource source_;
};

}  // namespace

std::unique_ptr<BinlogStream> openServerStream(const ServerSettings& upstream, const StreamStart& start) {
    source::ServerSourceOptions options;
    options.server = upstream;
    if (start.useGtid && start.from.flavor() == binlog::GtidFlavor::MariaDB) {
        options.startGtid = start.from.gtidText();
        options.gtidStrictMode = true;
    } else {
        options.startFile = start.from.position().file();
        options.startPosition = start.from.position().offset();
    }
    options.heartbeatPeriod = std::chrono::seconds(start.heartbeatSeconds);
    constexpr int kDeadAfterHeartbeats = 5;
    options.readTimeout = std::chrono::seconds(start.heartbeatSeconds * kDeadAfterHeartbeats);
    // A lost stream is resumed in place, as the native replica's IO thread does: the source restarts
    // after the last complete transaction and the pipeline passes over the events of the transaction
    // being read that it has handled already (sync_pipeline.h). Retried until it comes back or a
    // pause or stop cancels it; a server that is not the same one any more ends the session
    // (StreamIdentityChanged).
    options.maxReconnectAttempts = -1;
    return std::make_unique<ServerBinlogStream>(std::move(options));
}

}  // namespace syncscope::task
