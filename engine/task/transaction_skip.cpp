#include "engine/task/transaction_skip.h"

#include <spdlog/spdlog.h>

namespace syncscope::task {

void TransactionSkip::transactionOpened(const binlog::BinlogPosition& start) {
    skipping_ = request_ && request_->transactionStart == start;
    if (skipping_) {
        spdlog::warn("task {}: skipping the transaction at {} as the DBA asked", taskName_, start.toString());
    }
}

void TransactionSkip::transactionEnded() {
    if (skipping_) {
        request_.reset();
        skipping_ = false;
    }
}

}  // namespace syncscope::task
