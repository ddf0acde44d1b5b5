#include "ui/engine/remote_history_loader.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <chrono>
#include <vector>

#include "engine/remote/remote_task.h"
#include "ui/models/history_recorder.h"

namespace syncscope::ui {

namespace {

struct Answer {
    std::vector<HistorySample> samples;
    QString error;
};

qint64 msecsOf(task::Clock::time_point at) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count();
}

}  // namespace

RemoteHistoryLoader::RemoteHistoryLoader(HistoryRecorder* recorder, QObject* parent)
    : QObject(parent), recorder_(recorder) {}

void RemoteHistoryLoader::load(const std::shared_ptr<task::TaskControl>& task) {
    const quint64 generation = ++generation_;
    auto remote = std::dynamic_pointer_cast<remote::RemoteTask>(task);
    if (!remote) {
        return;
    }
    const auto since = task::Clock::now() - std::chrono::milliseconds(recorder_->windowMsecs());
    auto* watcher = new QFutureWatcher<Answer>(this);
    connect(watcher, &QFutureWatcher<Answer>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != generation_) {
            return;  // another channel is shown now
        }
        const Answer answer = watcher->result();
        emit loaded(answer.error.isEmpty() ? recorder_->addEarlier(answer.samples) : 0, answer.error);
    });
    watcher->setFuture(QtConcurrent::run([remote = std::move(remote), since]() mutable {
        Answer answer;
        try {
            for (const control::HistoryPoint& point : remote->history(since)) {
                answer.samples.push_back({msecsOf(point.at), point.lagSeconds, point.rowsPerSecond, point.upstreamAxis,
                                          point.persistedGlobalAxis});
            }
        } catch (const std::exception& e) {
            answer.error = QString::fromUtf8(e.what());
        }
        remote.reset();  // the last reference may be this one: released here, off the GUI thread
        return answer;
    }));
}

}  // namespace syncscope::ui
