// Everything shown about one open task: the header, the position ruler and the tabs (table checkpoints,
// shard locks of a task in shard-mode, failed event, history, logs, audit), with the source picker of a task with
// several sources beside the tabs. It owns the models and turns each status snapshot into updates.
#pragma once

#include <QWidget>
#include <memory>
#include <vector>

#include "engine/common/log_ring.h"
#include "engine/task/task_control.h"
#include "ui/models/table_verification.h"

class QTabWidget;

namespace syncscope::ui {

class AuditModel;
class AuditPage;
class FailedEventPanel;
class HistoryPage;
class HistoryRecorder;
class LoadPage;
class LoadProgressModel;
class LogModel;
class LogPage;
class PositionRuler;
class RemoteHistoryLoader;
class ShardLockModel;
class ShardLocksPage;
class SourcePicker;
class StatusHeader;
class TableCheckpointModel;
class TableCheckpointsPage;
class VerifyPage;

class TaskView : public QWidget {
    Q_OBJECT

public:
    explicit TaskView(QWidget* parent = nullptr);

    // Behind the overview (the window shown, this view not), only the charts' history and the source picker follow
    // each snapshot; the header, ruler, tables and panels take the latest when the view is shown again.
    void setSnapshot(std::shared_ptr<const task::StatusSnapshot> snapshot);
    bool holdsSnapshotUntilShown() const { return heldSnapshot_ != nullptr; }
    void appendLogLines(const std::vector<LogLine>& lines, uint64_t dropped);
    void appendNotices(const std::vector<task::Notice>& notices);
    void setAuditPath(const QString& path);
    void refreshAge();
    void clear();
    // A remote engine's charts start with its own history (RemoteHistoryLoader); other tasks start empty.
    void loadHistoryOf(const std::shared_ptr<task::TaskControl>& task);
    // The last verify of each table, on the table checkpoints page and the ruler (the Verify page's
    // finished runs come here by themselves).
    void showVerifications(const TableVerifications& verifications);

    StatusHeader* header() const { return header_; }
    PositionRuler* ruler() const { return ruler_; }
    QTabWidget* tabs() const { return tabs_; }
    TableCheckpointModel* tableModel() const { return tableModel_; }
    TableCheckpointsPage* tablesPage() const { return tablesPage_; }
    FailedEventPanel* failedEventPanel() const { return failedPanel_; }
    HistoryRecorder* history() const { return history_; }
    HistoryPage* historyPage() const { return historyPage_; }
    RemoteHistoryLoader* historyLoader() const { return historyLoader_; }
    LogModel* logModel() const { return logModel_; }
    LogPage* logPage() const { return logPage_; }
    AuditModel* auditModel() const { return auditModel_; }
    VerifyPage* verifyPage() const { return verifyPage_; }
    LoadPage* loadPage() const { return loadPage_; }
    AuditPage* auditPage() const { return auditPage_; }
    ShardLockModel* shardLockModel() const { return shardLockModel_; }
    ShardLocksPage* shardLocksPage() const { return shardLocksPage_; }
    bool shardLocksShown() const;
    // For a task with several sources: which source the pages that read one source show (Verify and the windows).
    SourcePicker* sourcePicker() const { return sourcePicker_; }
    bool failedEventShown() const;

signals:
    void retryRequested();
    void skipConfirmed();

protected:
    void showEvent(QShowEvent* event) override;

private:
    QWidget* makeRulerRow();
    void showSnapshot(const std::shared_ptr<const task::StatusSnapshot>& snapshot);
    void showFailedEvent(const std::optional<task::FailedEvent>& event);
    void showLoad(const std::shared_ptr<const task::StatusSnapshot>& snapshot);
    void showShardLocks(const std::shared_ptr<const task::StatusSnapshot>& snapshot);

    TableCheckpointModel* tableModel_;
    LogModel* logModel_;
    AuditModel* auditModel_;
    HistoryRecorder* history_;
    RemoteHistoryLoader* historyLoader_;
    LoadProgressModel* loadModel_;
    ShardLockModel* shardLockModel_;
    StatusHeader* header_ = nullptr;
    PositionRuler* ruler_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    TableCheckpointsPage* tablesPage_ = nullptr;
    FailedEventPanel* failedPanel_ = nullptr;
    HistoryPage* historyPage_ = nullptr;
    LogPage* logPage_ = nullptr;
    AuditPage* auditPage_ = nullptr;
    VerifyPage* verifyPage_ = nullptr;
    LoadPage* loadPage_ = nullptr;
    ShardLocksPage* shardLocksPage_ = nullptr;
    SourcePicker* sourcePicker_ = nullptr;
    std::shared_ptr<const task::StatusSnapshot> heldSnapshot_;  // the latest, while hidden behind the overview
    QString shownFailureKey_;  // the failure the panel was last raised for, so a refresh does not steal focus
};

}  // namespace syncscope::ui
