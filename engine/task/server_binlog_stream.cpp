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
    bool caughtUp() const override {
        source::ServerSourceStatus status = source_.status();
        return status.lastHeartbeatTime &&
               (!status.lastEventTime || *status.lastHeartbeatTime >= *status.lastEventTime);
    }

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
    // A lost stream ends the session instead: the task resumes from the persisted global point with
    // safe mode on, the one recovery path that never doubles a half-dispatched transaction.
    options.maxReconnectAttempts = 0;
    return std::make_unique<ServerBinlogStream>(std::move(options));
}

}  // namespace syncscope::task
