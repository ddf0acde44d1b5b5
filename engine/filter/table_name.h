// A table as the filters see it: the engine's one TableName (engine/common/table_name.h). An empty table
// name stands for the schema itself (CREATE DATABASE and the like), as in DM.
#pragma once

#include "engine/common/table_name.h"

namespace syncscope::filter {

using TableName = syncscope::TableName;

}  // namespace syncscope::filter
