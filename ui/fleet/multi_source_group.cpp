#include "ui/fleet/multi_source_group.h"

#include <QCoreApplication>

#include "engine/config/source_config.h"
#include "engine/config/task_config.h"
#include "engine/task/task.h"

namespace syncscope::ui {

namespace {

const QChar kSourceFileSeparator = QLatin1Char('\t');

QString tr(const char* text) {
    return QCoreApplication::translate("MultiSourceGroup", text);
}

class MultiSourceTaskGroup : public ChannelGroup {
public:
    MultiSourceTaskGroup(ChannelSpec spec, std::shared_ptr<multisource::MultiSourceTask> task)
        : ChannelGroup(std::move(spec)), task_(std::move(task)) {}
    QString host() const override { return tr("this machine"); }
    std::vector<ChannelHandle> channels() override {
        QString title = spec().title();
        if (title.isEmpty()) {
            title = QString::fromStdString(task_->taskName());
        }
        std::vector<ChannelHandle> handles{{tr("%1 (%2 sources)").arg(title).arg(task_->subtasks().size()), task_}};
        for (const auto& subtask : task_->sourceSubtasks()) {
            // The subtask's row is labelled under its task's: "  └ source mysql-01". Its commands go through the
            // subtask that remembers a pause across restarts.
            handles.push_back({tr("  \u2514 source %1").arg(QString::fromStdString(subtask->sourceId())), subtask});
        }
        return handles;
    }
    ChannelConnection connection() const override { return {}; }

private:
    std::shared_ptr<multisource::MultiSourceTask> task_;
};

}  // namespace

QStringList sourceFileList(const QString& sourceField) {
    return sourceField.split(kSourceFileSeparator, Qt::SkipEmptyParts);
}

QString sourceField(const QStringList& sourceFiles) {
    return sourceFiles.join(kSourceFileSeparator);
}

QString sourceFilesPrompt(const QString& taskPath) {
    try {
        const config::TaskConfig config = config::loadTaskConfig(taskPath.toStdString());
        if (config.mysqlInstances.size() > 1) {
            QStringList ids;
            for (const config::MysqlInstanceConfig& instance : config.mysqlInstances) {
                ids.append(QString::fromStdString(instance.sourceId));
            }
            return tr("Open the %1 source files of task %2 (%3), one per source")
                .arg(config.mysqlInstances.size())
                .arg(QString::fromStdString(config.name), ids.join(QStringLiteral(", ")));
        }
    } catch (const std::exception&) {
        // A task file that does not load: the opener says why once the files are chosen.
    }
    return tr("Open the task's source file (several for a task with several sources)");
}

QString sourceFileOf(const ChannelSpec& spec, const task::TaskControl* channel) {
    const QStringList files = sourceFileList(spec.sourcePath);
    const auto* subtask = dynamic_cast<const multisource::SourceSubtask*>(channel);
    if (files.size() < 2 || subtask == nullptr) {
        return spec.sourcePath;
    }
    for (const QString& file : files) {
        try {
            if (config::loadSourceConfig(file.toStdString()).sourceId == subtask->sourceId()) {
                return file;
            }
        } catch (const std::exception&) {
            // A file that no longer loads is not this subtask's.
        }
    }
    return spec.sourcePath;
}

std::unique_ptr<ChannelGroup> multiSourceTaskGroup(const ChannelSpec& spec,
                                                   std::shared_ptr<multisource::MultiSourceTask> task) {
    return std::make_unique<MultiSourceTaskGroup>(spec, std::move(task));
}

}  // namespace syncscope::ui
