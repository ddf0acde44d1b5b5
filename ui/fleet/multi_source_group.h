// A local task with several sources on the overview: one row for the whole task (its combined status;
// pause and resume reach every source), then one row per source's subtask under it, each shown and
// controlled on its own (pause one source before its upstream's maintenance). The source files of such a
// task are kept in the entry's one source field, separated by a tab (sourceFileList), so that workspace files
// and recent-task entries keep their shape.
#pragma once

#include <QString>
#include <QStringList>
#include <memory>

#include "engine/multisource/multi_source_task.h"
#include "ui/fleet/channel_group.h"

namespace syncscope::ui {

// The source files in an entry's source field (one for most tasks), and the field for several files.
QStringList sourceFileList(const QString& sourceField);
QString sourceField(const QStringList& sourceFiles);

// The title of the dialog that asks for a task file's source files: the task's source-ids when it has several
// ("Open the 2 source files of task shop (mysql-eu, mysql-us), one per source"), else one file's.
QString sourceFilesPrompt(const QString& taskPath);

// The one source file of a channel: for a subtask of a task with several sources, the file whose source-id is
// the subtask's (so that the pages that read one source work on it); otherwise the entry's source field as is.
QString sourceFileOf(const ChannelSpec& spec, const task::TaskControl* channel);

std::unique_ptr<ChannelGroup> multiSourceTaskGroup(const ChannelSpec& spec,
                                                   std::shared_ptr<multisource::MultiSourceTask> task);

}  // namespace syncscope::ui
