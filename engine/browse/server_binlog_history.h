// A binlog history read from a MariaDB/MySQL server: SHOW BINARY LOGS for the files, a binlog dump
// (engine/source's server source, the way a replica reads) for the events. A stream ends at the
// position SHOW MASTER STATUS gave when it was opened.
#pragma once

#include <memory>

#include "engine/browse/binlog_history.h"
#include "engine/common/server_settings.h"

namespace syncscope::source {
class UpstreamConnection;
}

namespace syncscope::browse {

class ServerBinlogHistory : public BinlogHistory {
public:
    // Connects for the queries (throws source::UpstreamError naming the server); dumps connect on open.
    explicit ServerBinlogHistory(ServerSettings server);
    ~ServerBinlogHistory() override;

    std::vector<binlog::BinlogFileSize> files() override;
    std::unique_ptr<EventStream> openAt(const BrowsePoint& start) override;
    // The dump sends every byte; only the bodies BoundaryEventDecoder needs are decoded.
    std::unique_ptr<EventStream> openHeadersAt(const BrowsePoint& start) override;
    std::unique_ptr<EventStream> openAfterGtid(const std::string& gtidPosition) override;
    std::string currentGtidPosition() override;
    std::string oldestGtidPosition() override;
    std::string describe() const override { return server_.describe(); }

    // The end of the history now (SHOW MASTER STATUS).
    BrowsePoint endPosition();

private:
    std::unique_ptr<EventStream> open(const BrowsePoint& start, bool headersOnly);

    ServerSettings server_;
    std::unique_ptr<source::UpstreamConnection> connection_;
};

}  // namespace syncscope::browse
