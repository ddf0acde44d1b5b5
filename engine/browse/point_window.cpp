#include "engine/browse/point_window.h"

#include "engine/binlog/binlog_position.h"

namespace syncscope::browse {

int comparePoints(const BrowsePoint& a, const BrowsePoint& b, const std::vector<binlog::BinlogFileSize>& files) {
    auto indexOf = [&](const std::string& file) {
        for (size_t i = 0; i < files.size(); ++i) {
            if (files[i].file == file) {
                return i;
            }
        }
        return files.size();
    };
    size_t fileA = indexOf(a.file);
    size_t fileB = indexOf(b.file);
    if ((fileA == files.size() || fileB == files.size()) && a.file != b.file &&
        binlog::BinlogPosition::isBinlogFileName(a.file) && binlog::BinlogPosition::isBinlogFileName(b.file)) {
        auto order = binlog::BinlogPosition(a.file, a.offset) <=> binlog::BinlogPosition(b.file, b.offset);
        return order < 0 ? -1 : (order > 0 ? 1 : 0);
    }
    if (fileA != fileB) {
        return fileA < fileB ? -1 : 1;
    }
    return a.offset < b.offset ? -1 : (a.offset > b.offset ? 1 : 0);
}

PointWindowCollector::PointWindowCollector(BrowsePoint target, std::vector<binlog::BinlogFileSize> files, size_t before,
                                           size_t after, size_t maxEventsPerTransaction)
    : target_(std::move(target)),
      files_(std::move(files)),
      before_(before),
      after_(after),
      maxEvents_(maxEventsPerTransaction) {}

void PointWindowCollector::transactionStarts(const BrowsedTransaction& trx) {
    current_ = trx;
}

void PointWindowCollector::event(const BrowsedTransaction&, BrowsedEvent&& event) {
    if (current_->events.size() >= maxEvents_) {
        current_->eventsCapped = true;
        return;
    }
    current_->events.push_back(std::move(event));
}

bool PointWindowCollector::transactionEnds(const BrowsedTransaction& trx) {
    BrowsedTransaction done = trx;
    done.events = std::move(current_->events);
    done.eventsCapped = current_->eventsCapped;
    current_.reset();
    if (!targetIndex_) {
        // A transaction ending at the target is the one the target names (points are event ends).
        if (comparePoints({done.endFile, done.endPos}, target_, files_) < 0) {
            window_.push_back(std::move(done));
            if (window_.size() > before_) {
                window_.pop_front();
            }
            return true;
        }
        targetIndex_ = window_.size();
        window_.push_back(std::move(done));
        return after_ > 0;
    }
    window_.push_back(std::move(done));
    return window_.size() - *targetIndex_ <= after_;
}

std::vector<BrowsedTransaction> PointWindowCollector::take() {
    std::vector<BrowsedTransaction> out(std::make_move_iterator(window_.begin()),
                                        std::make_move_iterator(window_.end()));
    window_.clear();
    return out;
}

std::optional<size_t> PointWindowCollector::targetIndex() const {
    return targetIndex_;
}

}  // namespace syncscope::browse
