// Runs a verify of the open task's tables off the GUI thread and hands the GUI its progress on a
// timer: per table chunks done of total, rows compared, differences; overall progress and an ETA.
// Cancellable. Where the task stands comes from the engine's own status snapshot (its applied point),
// so rows in flight are told apart exactly as `syncscope-cli verify --control` does.
#pragma once

#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>
#include <optional>
#include <vector>

#include "engine/schema/table_name.h"
#include "engine/task/task_control.h"
#include "engine/verify/verify_result.h"

namespace syncscope::ui {

// A repair the DBA confirmed: the tables are verified again and what still differs is repaired through
// the task's apply path (a session set up as the task's workers set theirs; keyed rows while they are
// locked upstream), each table's repair written to the audit log first, then compared again; as
// `syncscope-cli verify --repair` does.
struct RepairRequest {
    std::vector<schema::TableName> tables;  // upstream names; empty: every table
    bool includeKeyless = false;            // tables without a key too (confirmed separately)
    QString auditPath;                      // the task's audit log; empty: not audited (refused)
};

struct VerifyProgress {
    std::vector<verify::TableVerifyResult> tables;  // started tables, in order
    size_t tableCount = 0;                          // 0 until the list of tables is known
    double elapsedSeconds = 0;
    std::optional<double> etaSeconds;
    double fraction = 0;  // 0..1
    bool running = false;
    bool cancelled = false;
    bool repairing = false;  // the run applies a confirmed repair
    QString error;           // why it could not run at all (a config or a server out of reach)
};

class VerifyRunner : public QObject {
    Q_OBJECT

public:
    static constexpr int kProgressMilliseconds = 250;

    explicit VerifyRunner(QObject* parent = nullptr);
    ~VerifyRunner() override;

    // Runs a verify of the task the files describe. `task`, when given, is asked for its applied point.
    // Ignored while one runs.
    void start(const QString& taskFile, const QString& sourceFile, std::shared_ptr<task::TaskControl> task);
    // The same run, repairing what it finds (see RepairRequest). Ignored while one runs.
    void startRepair(const QString& taskFile, const QString& sourceFile, std::shared_ptr<task::TaskControl> task,
                     RepairRequest repair);
    void cancel();
    bool running() const;
    VerifyProgress progress() const;

signals:
    void progressChanged(const syncscope::ui::VerifyProgress& progress);
    void finished(const syncscope::ui::VerifyProgress& progress);

private:
    struct Shared;
    void poll();
    void run(const QString& taskFile, const QString& sourceFile, std::shared_ptr<task::TaskControl> task,
             std::optional<RepairRequest> repair);

    std::shared_ptr<Shared> shared_;
    QTimer timer_;
};

}  // namespace syncscope::ui

Q_DECLARE_METATYPE(syncscope::ui::VerifyProgress)
