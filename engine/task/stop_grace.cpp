#include "engine/task/stop_grace.h"

#include <spdlog/spdlog.h>

#include "engine/task/session_outcome.h"
#include "engine/task/stream_reader.h"

namespace syncscope::task {

void StopGrace::request() {
    bool again = requested_.exchange(true);
    if (transactionOpen_ && !again && !reader_.reconnecting()) {
        return;  // the reader finishes the transaction (keepsReading)
    }
    // Nothing can be read to finish a transaction while the stream is being reconnected.
    reader_.cut();
}

bool StopGrace::mayOpenTransaction(const std::atomic<bool>& interrupt) {
    transactionOpen_ = true;
    if (interrupt || requested_) {
        transactionOpen_ = false;
        return false;
    }
    return true;
}

bool StopGrace::keepsReading(const std::atomic<bool>& interrupt, bool inTransaction,
                             const binlog::BinlogPosition& transactionStart) {
    if (!interrupt && !requested_) {
        return true;
    }
    if (!inTransaction || reader_.wasCut()) {
        return false;
    }
    auto now = std::chrono::steady_clock::now();
    if (!finishBy_) {
        finishBy_ = now + kFinishTransactionGrace;
        spdlog::info(
            "task {}: stopping after the transaction being read ends (from {}), so that the persisted "
            "point covers it",
            taskName_, transactionStart.toString());
        return true;
    }
    if (now < *finishBy_) {
        return true;
    }
    spdlog::warn(
        "task {}: the transaction from {} did not end within {} s of the stop; stopping inside it: the next "
        "start reads it again from the persisted global point, in safe mode",
        taskName_, transactionStart.toString(),
        std::chrono::duration_cast<std::chrono::seconds>(kFinishTransactionGrace).count());
    return false;
}

}  // namespace syncscope::task
