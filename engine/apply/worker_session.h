// A downstream session set up as every apply worker's is: the task's session variables (checked to be
// plain names, values quoted unless all digits) and NO_AUTO_VALUE_ON_ZERO added to sql_mode. Also used
// by the verifier's repair, so that a repaired row is written exactly as the task would write it.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/apply/dml_executor.h"
#include "engine/common/server_settings.h"

namespace syncscope::apply {

// Throws DownstreamError naming the server or the bad variable.
std::unique_ptr<DmlExecutor> connectWorkerSession(
    const ServerSettings& downstream, const std::vector<std::pair<std::string, std::string>>& sessionVariables);

}  // namespace syncscope::apply
