// The DBA's skip of one failed transaction (SkipRequest): the transaction that starts where the failed one
// started is read to its end, none of it is applied, and the request is spent there. Logged when it begins.
#pragma once

#include <optional>
#include <string>

#include "engine/binlog/binlog_position.h"
#include "engine/task/session_outcome.h"

namespace syncscope::task {

class TransactionSkip {
public:
    explicit TransactionSkip(std::string taskName) : taskName_(std::move(taskName)) {}

    // The session's skip, if the DBA asked for one.
    void ask(const std::optional<SkipRequest>& request) { request_ = request; }
    // A transaction opens at `start`: whether it is the one to skip is decided here.
    void transactionOpened(const binlog::BinlogPosition& start);
    // Whether the transaction being read is skipped.
    bool skipping() const { return skipping_; }
    // The transaction ended: a skip is spent.
    void transactionEnded();

private:
    std::string taskName_;
    std::optional<SkipRequest> request_;
    bool skipping_ = false;
};

}  // namespace syncscope::task
