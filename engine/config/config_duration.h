// Durations written the way DM (Go's time.ParseDuration) writes them: "60s", "1m30s", "250ms", "1.5h".
#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace syncscope::config {

// Throws std::invalid_argument saying what is wrong. Units: ns, us (or µs), ms, s, m, h; a bare "0" is
// zero; a leading '-' makes the duration negative (callers decide whether that is allowed).
std::chrono::nanoseconds parseGoDuration(std::string_view text);

// The shortest Go spelling of a whole number of seconds or milliseconds ("60s", "1500ms", "0s").
std::string formatGoDuration(std::chrono::nanoseconds duration);

}  // namespace syncscope::config
