// One entry of the workspace as the overview sees it: a local task (one channel), a remote engine (one
// channel, over HTTP), a replica server (one channel per replication connection, changing as the
// server's configuration changes) or a DM cluster (a channel per task and per subtask). Each channel is a TaskControl,
// so the task view shows any of them.
#pragma once

#include <QDateTime>
#include <QString>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "engine/task/task_control.h"
#include "ui/fleet/channel_spec.h"

namespace syncscope::ui {

struct ChannelHandle {
    QString label;                            // shown in the overview's first column
    std::shared_ptr<task::TaskControl> task;  // null when the entry could not be opened
};

// How the GUI reaches the entry: lost is shown as such, with when it was last seen.
struct ChannelConnection {
    bool lost = false;
    std::optional<QDateTime> lastSeen;
    QString problem;  // why it cannot be reached or opened; empty when fine
};

class ChannelGroup {
public:
    explicit ChannelGroup(ChannelSpec spec) : spec_(std::move(spec)) {}
    virtual ~ChannelGroup() = default;
    ChannelGroup(const ChannelGroup&) = delete;
    ChannelGroup& operator=(const ChannelGroup&) = delete;

    const ChannelSpec& spec() const { return spec_; }
    void setNotifications(bool notify, double lagThresholdSeconds) {
        spec_.notify = notify;
        spec_.lagThresholdSeconds = lagThresholdSeconds;
    }
    virtual QString host() const = 0;
    // The channels now; a replica's may come and go between calls. Never empty: an entry that cannot
    // be opened or reached has one channel without a task, whose connection() says why.
    virtual std::vector<ChannelHandle> channels() = 0;
    virtual ChannelConnection connection() const = 0;

private:
    ChannelSpec spec_;
};

// Builds the engine's Task for a local task's files; the application provides it (the GUI library does
// not know how tasks are built). Returns null with the reason in `error`.
using LocalTaskOpener = std::function<std::shared_ptr<task::TaskControl>(const ChannelSpec& spec, QString* error)>;

// Opens an entry: never throws; a problem (unreadable token file, no opener) is the group's connection().
std::unique_ptr<ChannelGroup> openChannelGroup(const ChannelSpec& spec, const LocalTaskOpener& opener);
// A local task that is already built (opened through File > Open task, or a test's simulated task).
std::unique_ptr<ChannelGroup> localTaskGroup(const ChannelSpec& spec, std::shared_ptr<task::TaskControl> task);

}  // namespace syncscope::ui
