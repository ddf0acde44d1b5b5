// How a pause or stop ends the reading of one session. A request between transactions, a second request,
// or one while the stream is being reconnected cuts the stream at once; a first request while a
// transaction is being read lets the reader finish that transaction, within kFinishTransactionGrace, so
// that the persisted point covers it and the next start replays nothing (a replay may double the rows of
// a table without a key).
//
// request() runs on any thread; the rest on the reader's. The reader marks a transaction open before it
// checks for a request (mayOpenTransaction), and request() reads that mark after it records itself: with
// both sequentially consistent, a request is either seen by the reader or cuts the stream.
#pragma once

#include <atomic>
#include <chrono>
#include <optional>
#include <string>

#include "engine/binlog/binlog_position.h"

namespace syncscope::task {

class StreamReader;

class StopGrace {
public:
    StopGrace(std::string taskName, StreamReader& reader) : taskName_(std::move(taskName)), reader_(reader) {}

    // A pause or stop (the session's cancel()).
    void request();
    // Whether the reader goes on: always until a request; after one, only to the end of the transaction
    // being read (`transactionStart`), within the grace.
    bool keepsReading(const std::atomic<bool>& interrupt, bool inTransaction,
                      const binlog::BinlogPosition& transactionStart);
    // Before a transaction's first event: false when a request came (the transaction is not begun).
    bool mayOpenTransaction(const std::atomic<bool>& interrupt);
    // After each event: whether a transaction is still being read.
    void transactionOpen(bool open) { transactionOpen_ = open; }

private:
    std::string taskName_;
    StreamReader& reader_;
    std::atomic<bool> requested_{false};
    // The reader is inside a transaction (or about to open one): request() leaves the stream open for it.
    std::atomic<bool> transactionOpen_{false};
    std::optional<std::chrono::steady_clock::time_point> finishBy_;
};

}  // namespace syncscope::task
