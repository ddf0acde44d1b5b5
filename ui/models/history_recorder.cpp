#include "ui/models/history_recorder.h"

#include <limits>

namespace syncscope::ui {

HistoryRecorder::HistoryRecorder(QObject* parent, qint64 windowMsecs, qint64 sampleIntervalMsecs)
    : QObject(parent), windowMsecs_(windowMsecs), sampleIntervalMsecs_(sampleIntervalMsecs) {}

bool HistoryRecorder::record(const task::StatusSnapshot& snapshot) {
    const qint64 at =
        std::chrono::duration_cast<std::chrono::milliseconds>(snapshot.takenAt.time_since_epoch()).count();
    if (!samples_.empty() && at - samples_.back().atMsecs < sampleIntervalMsecs_) {
        return false;
    }
    // A clock that went back (a new task, a test) starts a new history rather than drawing backwards.
    if (!samples_.empty() && at < samples_.back().atMsecs) {
        samples_.clear();
    }
    samples_.push_back(
        {at, snapshot.lagSeconds, snapshot.recentRowsPerSecond, snapshot.upstream.axis, snapshot.globalPersisted.axis});
    while (!samples_.empty() && at - samples_.front().atMsecs > windowMsecs_) {
        samples_.pop_front();
    }
    emit samplesChanged();
    return true;
}

int HistoryRecorder::addEarlier(const std::vector<HistorySample>& earlier) {
    const qint64 newest = samples_.empty() ? (earlier.empty() ? 0 : earlier.back().atMsecs) : samples_.back().atMsecs;
    const qint64 firstKept = samples_.empty() ? std::numeric_limits<qint64>::max() : samples_.front().atMsecs;
    std::vector<HistorySample> added;
    for (const HistorySample& sample : earlier) {
        const bool spaced = added.empty() || sample.atMsecs - added.back().atMsecs >= sampleIntervalMsecs_;
        if (sample.atMsecs < firstKept && newest - sample.atMsecs <= windowMsecs_ && spaced) {
            added.push_back(sample);
        }
    }
    samples_.insert(samples_.begin(), added.begin(), added.end());
    if (!added.empty()) {
        emit samplesChanged();
    }
    return static_cast<int>(added.size());
}

void HistoryRecorder::clear() {
    samples_.clear();
    emit samplesChanged();
}

}  // namespace syncscope::ui
