#include "engine/checkpoint/checkpoint_point.h"

namespace syncscope::checkpoint {

std::string checkpointTableName(std::string_view task) {
    return std::string(task) + std::string(kCheckpointTableSuffix);
}

}  // namespace syncscope::checkpoint
