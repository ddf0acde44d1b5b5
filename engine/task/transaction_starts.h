// Where each transaction read since the last flush started, by the syncer's transaction number: what a
// worker error names as the failed transaction's start (the point a skip or a resume-from acts on).
// One entry per transaction on the reader's path, so an entry is a number, an offset and a file index
// (a file's name is kept once), not a map node with a copy of the name: the catch-up profile showed
// the map's allocations beside every transaction, and with a 30 s flush interval it held 30 s of them.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>

#include "engine/binlog/binlog_position.h"

namespace syncscope::task {

class TransactionStarts {
public:
    // Numbers come in increasing order; a number not above the last one replaces the entries from it on.
    void record(uint64_t transactionSeq, const binlog::BinlogPosition& start);
    std::optional<binlog::BinlogPosition> find(uint64_t transactionSeq) const;
    // Forgets the transactions numbered below `transactionSeq` (their changes have committed).
    void forgetBefore(uint64_t transactionSeq);
    size_t size() const { return entries_.size(); }

private:
    struct Entry {
        uint64_t seq = 0;
        uint64_t offset = 0;
        uint64_t file = 0;  // index into files_, counted from firstFile_
    };
    const std::string& fileOf(const Entry& entry) const { return files_[entry.file - firstFile_]; }

    std::deque<Entry> entries_;
    std::deque<std::string> files_;  // the names the entries use, in the order they were read
    uint64_t firstFile_ = 0;         // the index of files_.front()
};

}  // namespace syncscope::task
