// Batch actions on channels selected in the overview: what will happen to each (pause a running one,
// resume a paused or failed one; the others are listed as left alone, with why), one confirmation text
// for all of them, and the commands run off the GUI thread, each result reported.
#pragma once

#include <QList>
#include <QObject>
#include <QString>
#include <memory>

#include "engine/task/task_control.h"
#include "ui/fleet/fleet_model.h"

namespace syncscope::ui {

enum class BatchCommand { Pause, Resume };

struct BatchStep {
    QString channel;
    QString kind;
    QString stage;
    bool runs = false;  // false: left alone, see note
    QString note;       // what runs ("pause", "STOP SLAVE") or why it is left alone
    std::shared_ptr<task::TaskControl> task;
};

struct BatchPlan {
    BatchCommand command = BatchCommand::Pause;
    QList<BatchStep> steps;
    int runCount() const;
};

BatchPlan planBatch(const FleetModel& model, BatchCommand command, const QList<int>& rows);
QString confirmationText(const BatchPlan& plan);

// Runs the steps that run, each on the thread pool; reports each result and then the summary.
class BatchRunner : public QObject {
    Q_OBJECT

public:
    explicit BatchRunner(QObject* parent = nullptr) : QObject(parent) {}
    void run(const BatchPlan& plan);
    int pending() const { return pending_; }

signals:
    void stepFinished(const QString& channel, const syncscope::task::CommandResult& result);
    void finished(int accepted, int refused);

private:
    int pending_ = 0;
    int accepted_ = 0;
    int refused_ = 0;
};

}  // namespace syncscope::ui
