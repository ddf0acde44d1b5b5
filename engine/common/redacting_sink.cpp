#include "engine/common/redacting_sink.h"

#include <memory>
#include <string>

#include "engine/common/secret_redaction.h"

namespace syncscope {

void RedactingSink::sink_it_(const spdlog::details::log_msg& msg) {
    std::string_view payload(msg.payload.data(), msg.payload.size());
    std::string redacted;
    spdlog::details::log_msg forwarded(msg);
    if (mayHoldSecret(payload)) {
        redacted = redactSecrets(payload);
        forwarded.payload = spdlog::string_view_t(redacted.data(), redacted.size());
    }
    for (const auto& sink : inner_) {
        if (sink->should_log(forwarded.level)) {
            sink->log(forwarded);
        }
    }
}

void RedactingSink::flush_() {
    for (const auto& sink : inner_) {
        sink->flush();
    }
}

void redactSecretsIn(spdlog::logger& logger) {
    std::vector<spdlog::sink_ptr> inner = logger.sinks();
    logger.sinks().clear();
    logger.sinks().push_back(std::make_shared<RedactingSink>(std::move(inner)));
}

}  // namespace syncscope
