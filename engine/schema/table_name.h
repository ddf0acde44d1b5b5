// The schema part's name for a table: the engine's one TableName (engine/common/table_name.h).
#pragma once

#include "engine/common/table_name.h"

namespace syncscope::schema {

using TableName = syncscope::TableName;
using TableNameHash = syncscope::TableNameHash;

}  // namespace syncscope::schema
