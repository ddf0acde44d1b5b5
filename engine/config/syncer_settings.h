// A task's `syncers` entry: how the sync unit applies (worker-count, batch, safe mode, ...).
#pragma once

#include <chrono>
#include <optional>

namespace syncscope::config {

// DM's syncer settings, with DM's defaults.
struct SyncerSettings {
    static constexpr int kDefaultWorkerCount = 16;
    static constexpr int kDefaultBatch = 100;
    static constexpr int kDefaultQueueSize = 1024;
    static constexpr int kDefaultCheckpointFlushIntervalSeconds = 30;
    // DM's default is twice its default flush interval, written "60s".
    static constexpr std::chrono::seconds kDefaultSafeModeDuration{2 * kDefaultCheckpointFlushIntervalSeconds};

    int workerCount = kDefaultWorkerCount;
    int batch = kDefaultBatch;
    int queueSize = kDefaultQueueSize;
    int checkpointFlushIntervalSeconds = kDefaultCheckpointFlushIntervalSeconds;
    bool safeMode = false;
    std::chrono::nanoseconds safeModeDuration = kDefaultSafeModeDuration;
    // On unless the task says `multiple-rows: false` (DM's default is false): a batch's rows merge into
    // multi-row statements only where that is exact (DmlBuilder), so the default path is the fast one.
    bool multipleRows = true;
    // On unless the task says `compact: false` (DM's default is false): with multiple-rows, a batch's
    // changes of one row fold into their net effect where that is exact (apply/key_folding.h).
    bool compact = true;
    // As written in the task; the source file's enable-gtid decides the mode, as in DM.
    std::optional<bool> enableGtid;

    bool operator==(const SyncerSettings&) const = default;
};

}  // namespace syncscope::config
