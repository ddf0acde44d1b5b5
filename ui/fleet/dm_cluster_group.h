// A DM cluster on the overview: one row per task (its subtasks combined), then one row per source's subtask
// under it, each shown and controlled on its own (DmTaskChannel). The rows follow the cluster's tasks as
// they come and go; a cluster that does not answer shows its last tasks as lost, with when it was last seen.
#pragma once

#include <memory>

#include "ui/fleet/channel_group.h"

namespace syncscope::dmcluster {
class DmTaskChannel;
}

namespace syncscope::ui {

// Never throws: options that cannot work (an address, a CA file) are the group's connection() problem.
std::unique_ptr<ChannelGroup> dmClusterGroup(const ChannelSpec& spec);

// The DM task or subtask a channel of the overview is, or null for a channel of another kind.
const dmcluster::DmTaskChannel* dmChannelOf(const task::TaskControl* channel);

}  // namespace syncscope::ui
