// Times as a DBA types and reads them ('YYYY-MM-DD HH:MM:SS', local time): the browser uses the
// engine's shared parser (engine/common/local_time.h), also used by the task's stop point.
#pragma once

#include "engine/common/local_time.h"

namespace syncscope::browse {

using syncscope::formatLocalTime;
using syncscope::parseLocalTime;

}  // namespace syncscope::browse
