#include "engine/task/transaction_starts.h"

#include <algorithm>

namespace syncscope::task {

namespace {

auto bySeq = [](const auto& entry, uint64_t seq) { return entry.seq < seq; };

}  // namespace

void TransactionStarts::record(uint64_t transactionSeq, const binlog::BinlogPosition& start) {
    if (!entries_.empty() && entries_.back().seq >= transactionSeq) {
        entries_.erase(std::lower_bound(entries_.begin(), entries_.end(), transactionSeq, bySeq), entries_.end());
    }
    if (files_.empty() || files_.back() != start.file()) {
        files_.push_back(start.file());
    }
    entries_.push_back(Entry{transactionSeq, start.offset(), firstFile_ + files_.size() - 1});
}

std::optional<binlog::BinlogPosition> TransactionStarts::find(uint64_t transactionSeq) const {
    auto at = std::lower_bound(entries_.begin(), entries_.end(), transactionSeq, bySeq);
    if (at == entries_.end() || at->seq != transactionSeq) {
        return std::nullopt;
    }
    const std::string& file = fileOf(*at);
    if (file.empty()) {
        return binlog::BinlogPosition();
    }
    return binlog::BinlogPosition(file, at->offset);
}

void TransactionStarts::forgetBefore(uint64_t transactionSeq) {
    entries_.erase(entries_.begin(), std::lower_bound(entries_.begin(), entries_.end(), transactionSeq, bySeq));
    // Drop the names no entry uses; keep the newest even with no entry (the next transaction is most likely there).
    while (files_.size() > 1 && (entries_.empty() || firstFile_ < entries_.front().file)) {
        files_.pop_front();
        ++firstFile_;
    }
}

}  // namespace syncscope::task
