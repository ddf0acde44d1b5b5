// The commands a DM cluster's rows offer on the overview (start and stop of a task or of one source's
// subtask, disable and enable of a source): what exactly is sent and what DM does with it, as one
// confirmation text, or why the row does not take the command. The command runs off the GUI thread.
#pragma once

#include <QString>
#include <memory>

#include "engine/task/task_control.h"
#include "ui/fleet/fleet_model.h"

namespace syncscope::dmcluster {
class DmTaskChannel;
}

namespace syncscope::ui {

enum class DmCommand { Start, Stop, EnableSource, DisableSource };

struct DmCommandPlan {
    DmCommand command = DmCommand::Start;
    QString title;         // "Stop on the DM cluster"
    QString confirmation;  // the request, what DM does, where it is audited
    QString refusal;       // why the row does not take it; empty when it does
    std::shared_ptr<dmcluster::DmTaskChannel> channel;
};

// The commands a row offers: none for a row that is not a DM task or subtask; the source's only on a
// subtask's row.
QList<DmCommand> dmCommandsOf(const FleetModel::Row& row);
QString dmCommandName(DmCommand command, const FleetModel::Row& row);  // "Disable source mysql-02..."
DmCommandPlan planDmCommand(const FleetModel::Row& row, DmCommand command);
// Blocks for the request: call it off the GUI thread.
task::CommandResult runDmCommand(const DmCommandPlan& plan);

}  // namespace syncscope::ui
