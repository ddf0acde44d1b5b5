// The last minutes of a task's lag, rows per second and positions, sampled from status snapshots at
// most once per interval so that the charts redraw once a second, not on every refresh.
#pragma once

#include <QObject>
#include <deque>
#include <optional>
#include <vector>

#include "engine/task/status_snapshot.h"

namespace syncscope::ui {

struct HistorySample {
    qint64 atMsecs = 0;
    double lagSeconds = 0;
    double rowsPerSecond = 0;
    std::optional<uint64_t> upstreamAxis;
    std::optional<uint64_t> persistedGlobalAxis;
};

class HistoryRecorder : public QObject {
    Q_OBJECT

public:
    static constexpr qint64 kDefaultWindowMsecs = 10 * 60 * 1000;
    static constexpr qint64 kDefaultSampleIntervalMsecs = 1000;

    explicit HistoryRecorder(QObject* parent = nullptr, qint64 windowMsecs = kDefaultWindowMsecs,
                             qint64 sampleIntervalMsecs = kDefaultSampleIntervalMsecs);

    // Adds a sample when the snapshot is at least one interval newer than the last; true if added.
    bool record(const task::StatusSnapshot& snapshot);
    // Adds samples taken before the first recorded one (a remote engine's own history, oldest first); the ones at
    // or after it, and those older than the window, are left out. Returns how many were added.
    int addEarlier(const std::vector<HistorySample>& earlier);
    void clear();

    const std::deque<HistorySample>& samples() const { return samples_; }
    qint64 windowMsecs() const { return windowMsecs_; }

signals:
    void samplesChanged();

private:
    qint64 windowMsecs_;
    qint64 sampleIntervalMsecs_;
    std::deque<HistorySample> samples_;
};

}  // namespace syncscope::ui
