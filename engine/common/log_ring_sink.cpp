#include "engine/common/log_ring_sink.h"

namespace syncscope {

LogLevel toLogLevel(spdlog::level::level_enum level) {
    switch (level) {
        case spdlog::level::trace:
            return LogLevel::Trace;
        case spdlog::level::debug:
            return LogLevel::Debug;
        case spdlog::level::info:
            return LogLevel::Info;
        case spdlog::level::warn:
            return LogLevel::Warning;
        case spdlog::level::err:
            return LogLevel::Error;
        case spdlog::level::critical:
            return LogLevel::Critical;
        default:
            return LogLevel::Info;
    }
}

LogRingSink::LogRingSink(std::shared_ptr<LogRing> ring) : ring_(std::move(ring)) {}

void LogRingSink::sink_it_(const spdlog::details::log_msg& msg) {
    LogLine line;
    line.at = msg.time;
    line.level = toLogLevel(msg.level);
    line.logger.assign(msg.logger_name.begin(), msg.logger_name.end());
    line.message.assign(msg.payload.begin(), msg.payload.end());
    ring_->push(std::move(line));
}

}  // namespace syncscope
