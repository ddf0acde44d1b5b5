// An spdlog sink that writes into a LogRing: the engine logs as usual and the GUI drains the ring on
// its timer (spdlog's own Qt sinks post one cross-thread call per message, which floods the GUI).
#pragma once

#include <memory>
#include <mutex>

#include <spdlog/sinks/base_sink.h>

#include "engine/common/log_ring.h"

namespace syncscope {

class LogRingSink : public spdlog::sinks::base_sink<std::mutex> {
public:
    explicit LogRingSink(std::shared_ptr<LogRing> ring);

    const std::shared_ptr<LogRing>& ring() const { return ring_; }

protected:
    void sink_it_(const spdlog::details::log_msg& msg) override;
    void flush_() override {}

private:
    std::shared_ptr<LogRing> ring_;
};

LogLevel toLogLevel(spdlog::level::level_enum level);

}  // namespace syncscope
