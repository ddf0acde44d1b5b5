// The status snapshot read back from the control API's JSON (GET /api/v1/status), so that a remote
// engine is shown by the same views as a local task. The inverse of statusJson(); unknown keys are
// ignored and missing ones keep their defaults, so that an older or newer engine can still be shown.
#pragma once

#include <nlohmann/json.hpp>

#include "engine/task/status_snapshot.h"

namespace syncscope::control {

// Throws syncscope::Error naming the key when a present value has the wrong type.
task::StatusSnapshot statusFromJson(const nlohmann::json& json);

// "2026-11-29T21:05:00.123Z" (isoTime's form); nullopt for anything else.
std::optional<task::Clock::time_point> parseIsoTime(const std::string& text);

task::Stage stageFromName(const std::string& name);

}  // namespace syncscope::control
