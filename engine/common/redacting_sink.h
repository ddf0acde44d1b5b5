// A log sink in front of the real ones (console, files, the GUI's ring): every message passes through
// redactSecrets first, so a statement that carries a password is logged with '<redacted>' wherever
// the engine logs it.
#pragma once

#include <mutex>
#include <vector>

#include <spdlog/logger.h>
#include <spdlog/sinks/base_sink.h>

namespace syncscope {

class RedactingSink : public spdlog::sinks::base_sink<std::mutex> {
public:
    explicit RedactingSink(std::vector<spdlog::sink_ptr> inner) : inner_(std::move(inner)) {}

protected:
    void sink_it_(const spdlog::details::log_msg& msg) override;
    void flush_() override;

private:
    std::vector<spdlog::sink_ptr> inner_;
};

// Puts every sink `logger` has now behind one RedactingSink (call it after the last sink is added).
void redactSecretsIn(spdlog::logger& logger);

}  // namespace syncscope
