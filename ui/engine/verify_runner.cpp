#include "ui/engine/verify_runner.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "engine/task/audit_log.h"
#include "engine/task/task_setup_builder.h"
#include "engine/verify/difference_json.h"
#include "engine/verify/task_verifier.h"

namespace syncscope::ui {

namespace {

// The applied point from the engine's status snapshot, read on the verify's thread.
class SnapshotProgress : public verify::TaskProgress {
public:
    explicit SnapshotProgress(std::weak_ptr<task::TaskControl> task) : task_(std::move(task)) {}

    verify::AppliedAnswer appliedUpTo(const binlog::Location& point) override {
        auto task = task_.lock();
        auto status = task ? task->status() : nullptr;
        if (!status || status->stage == task::Stage::New || status->applied.file.empty()) {
            return verify::AppliedAnswer::NoTask;
        }
        auto applied = binlog::Location::fromParts(status->applied.file, status->applied.pos, status->applied.gtid);
        auto order = applied.compare(point);
        return order == binlog::PositionOrder::After || order == binlog::PositionOrder::Same
                   ? verify::AppliedAnswer::Applied
                   : verify::AppliedAnswer::NotYet;
    }
    std::string describe() const override { return "the applied point of the task running in this window"; }

private:
    std::weak_ptr<task::TaskControl> task_;
};

}  // namespace

// What the verify's thread and the GUI share; the thread holds it, never the runner.
struct VerifyRunner::Shared {
    mutable std::mutex mutex;
    VerifyProgress progress;
    std::atomic<bool> cancel{false};
    std::atomic<bool> done{true};
    std::chrono::steady_clock::time_point started;
    std::thread thread;
};

VerifyRunner::VerifyRunner(QObject* parent) : QObject(parent), shared_(std::make_shared<Shared>()) {
    qRegisterMetaType<VerifyProgress>();
    timer_.setInterval(kProgressMilliseconds);
    connect(&timer_, &QTimer::timeout, this, &VerifyRunner::poll);
}

VerifyRunner::~VerifyRunner() {
    shared_->cancel.store(true);
    if (shared_->thread.joinable()) {
        shared_->thread.join();
    }
}

bool VerifyRunner::running() const {
    return !shared_->done.load();
}

VerifyProgress VerifyRunner::progress() const {
    std::lock_guard lock(shared_->mutex);
    return shared_->progress;
}

void VerifyRunner::cancel() {
    shared_->cancel.store(true);
}

void VerifyRunner::start(const QString& taskFile, const QString& sourceFile, std::shared_ptr<task::TaskControl> task) {
    run(taskFile, sourceFile, std::move(task), std::nullopt);
}

void VerifyRunner::startRepair(const QString& taskFile, const QString& sourceFile,
                               std::shared_ptr<task::TaskControl> task, RepairRequest repair) {
    run(taskFile, sourceFile, std::move(task), std::move(repair));
}

void VerifyRunner::run(const QString& taskFile, const QString& sourceFile, std::shared_ptr<task::TaskControl> task,
                       std::optional<RepairRequest> repair) {
    if (running()) {
        return;
    }
    if (shared_->thread.joinable()) {
        shared_->thread.join();
    }
    shared_->cancel.store(false);
    shared_->done.store(false);
    shared_->started = std::chrono::steady_clock::now();
    {
        std::lock_guard lock(shared_->mutex);
        shared_->progress = VerifyProgress{};
        shared_->progress.running = true;
        shared_->progress.repairing = repair.has_value();
    }
    std::weak_ptr<task::TaskControl> weakTask = task;
    shared_->thread = std::thread([shared = shared_, taskPath = taskFile.toStdString(),
                                   sourcePath = sourceFile.toStdString(), weakTask, repair] {
        try {
            auto taskConfig = config::loadTaskConfig(taskPath);
            auto sourceConfig = config::loadSourceConfig(sourcePath);
            std::vector<std::string> warnings;
            auto setup = task::makeTaskSetup(taskConfig, sourceConfig, warnings);
            SnapshotProgress progress(weakTask);
            if (repair && repair->auditPath.isEmpty()) {
                throw std::runtime_error("a repair needs the task's audit log, and this task has none");
            }
            verify::TaskVerifier verifier({setup.upstream, setup.downstream, setup.blockAllow, setup.router,
                                           repair ? repair->tables : std::vector<schema::TableName>{}},
                                          {}, progress);
            verifier.setCancelFlag(&shared->cancel);
            verifier.setProgressHandler([&shared](size_t index, size_t count, const verify::TableVerifyResult& result) {
                std::lock_guard lock(shared->mutex);
                auto& tables = shared->progress.tables;
                shared->progress.tableCount = count;
                if (tables.size() <= index) {
                    tables.resize(index + 1);
                }
                tables[index] = result;
                tables[index].differences.resize(std::min<size_t>(tables[index].differences.size(), 1000));
            });
            // Without a confirmed repair, the repair SQL is only planned, for review.
            std::unique_ptr<task::AuditLog> audit;
            verify::RepairOptions options;
            if (repair) {
                audit = std::make_unique<task::AuditLog>(repair->auditPath.toStdString());
                options.apply = true;
                options.applyKeyless = repair->includeKeyless;
                options.sessionVariables.assign(setup.downstreamSession.begin(), setup.downstreamSession.end());
                options.beforeApply = [&audit, &setup](const verify::ComparedTable& table,
                                                       const std::vector<verify::RowDifference>& differences,
                                                       const verify::RepairPlan& plan) {
                    task::AuditEntry entry;
                    entry.action = "verify-repair";
                    entry.task = setup.taskName;
                    entry.sourceId = setup.sourceId;
                    entry.details = verify::repairAuditDetails(table, differences, plan);
                    entry.details["from"] = "gui";
                    audit->append(entry);
                };
            }
            verifier.setRepair(std::move(options));
            verify::VerifyReport report = verifier.run();
            std::lock_guard lock(shared->mutex);
            shared->progress.tables = std::move(report.tables);
            shared->progress.tableCount = shared->progress.tables.size();
            shared->progress.cancelled = report.cancelled;
        } catch (const std::exception& e) {
            std::lock_guard lock(shared->mutex);
            shared->progress.error = QString::fromStdString(e.what());
        }
        shared->done.store(true);
    });
    timer_.start();
    emit progressChanged(progress());
}

void VerifyRunner::poll() {
    VerifyProgress current;
    {
        std::lock_guard lock(shared_->mutex);
        auto& progress = shared_->progress;
        progress.elapsedSeconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - shared_->started).count();
        progress.running = !shared_->done.load();
        double done = 0;
        for (const auto& table : progress.tables) {
            // A table's time is set when it is done (a failed plan has none).
            bool finished = table.seconds > 0 || table.outcome == verify::TableOutcome::Failed;
            if (finished || table.chunksTotal == 0) {
                done += finished ? 1.0 : 0.0;
            } else {
                done += static_cast<double>(table.chunksDone) / static_cast<double>(table.chunksTotal);
            }
        }
        progress.fraction = progress.tableCount == 0 ? 0 : done / static_cast<double>(progress.tableCount);
        if (progress.fraction > 0 && progress.running) {
            progress.etaSeconds = progress.elapsedSeconds * (1 - progress.fraction) / progress.fraction;
        } else {
            progress.etaSeconds.reset();
        }
        if (!progress.running) {
            progress.fraction = progress.error.isEmpty() && !progress.cancelled ? 1.0 : progress.fraction;
        }
        current = progress;
    }
    emit progressChanged(current);
    if (!current.running) {
        timer_.stop();
        emit finished(current);
    }
}

}  // namespace syncscope::ui
