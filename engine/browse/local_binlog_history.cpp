#include "engine/browse/local_binlog_history.h"

#include <set>
#include <system_error>

#include "engine/binlog/event_decoder.h"
#include "engine/browse/local_header_stream.h"
#include "engine/source/binlog_file_source.h"

namespace syncscope::browse {

namespace {

class FileEventStream : public EventStream {
public:
    FileEventStream(std::vector<std::filesystem::path> paths, uint64_t startOffset)
        : firstFile_(paths.front().filename().string()),
          startOffset_(startOffset),
          source_(source::BinlogFileSource::ofFiles(std::move(paths), options(startOffset))) {
        decoder_.setRowTextStorage(binlog::TextStorage::Borrow);
    }

    bool next(std::vector<binlog::Event>& events) override {
        for (;;) {
            decoder_.recycle(events);
            auto raw = source_.next();
            if (!raw) {
                const auto& stop = source_.stop();
                if (stop.reason == source::BinlogFileSource::StopReason::Incomplete) {
                    throw BrowseError(stop.file + ":" + std::to_string(stop.pos) + ": " + stop.detail);
                }
                return false;
            }
            decoder_.decodeInto(*raw, events);
            // The FORMAT_DESCRIPTION before a later start is read for decoding, not shown.
            bool beforeStart = raw->pos < startOffset_ && raw->file == firstFile_;
            if (!beforeStart && !events.empty()) {
                return true;
            }
        }
    }

    BrowsePoint position() const override { return {source_.currentFile(), source_.currentPosition()}; }

private:
    static source::FileSourceOptions options(uint64_t startOffset) {
        source::FileSourceOptions options;
        options.startPosition = startOffset;
        return options;
    }

    std::string firstFile_;
    uint64_t startOffset_;
    source::BinlogFileSource source_;
    binlog::EventDecoder decoder_;
};

}  // namespace

LocalBinlogHistory::LocalBinlogHistory(std::vector<std::filesystem::path> files) : paths_(std::move(files)) {
    if (paths_.empty()) {
        throw BrowseError("no binlog file given");
    }
    std::set<std::string> names;
    for (const auto& path : paths_) {
        std::error_code error;
        uint64_t size = std::filesystem::file_size(path, error);
        if (error) {
            throw BrowseError("cannot read binlog file '" + path.string() + "': " + error.message());
        }
        std::string name = path.filename().string();
        if (!names.insert(name).second) {
            throw BrowseError("binlog file '" + name + "' is given twice");
        }
        sizes_.push_back({name, size});
    }
}

std::vector<std::filesystem::path> LocalBinlogHistory::filesFrom(const std::string& file) const {
    for (size_t i = 0; i < paths_.size(); ++i) {
        if (sizes_[i].file == file) {
            return {paths_.begin() + static_cast<std::ptrdiff_t>(i), paths_.end()};
        }
    }
    throw BrowseError("binlog file '" + file + "' is not among " + describe());
}

std::unique_ptr<EventStream> LocalBinlogHistory::openAt(const BrowsePoint& start) {
    return std::make_unique<FileEventStream>(filesFrom(start.file), start.offset);
}

std::unique_ptr<EventStream> LocalBinlogHistory::openHeadersAt(const BrowsePoint& start) {
    return std::make_unique<LocalHeaderStream>(filesFrom(start.file), start.offset);
}

std::string LocalBinlogHistory::describe() const {
    std::string text = "the given files (";
    for (size_t i = 0; i < sizes_.size(); ++i) {
        text += (i == 0 ? "" : ", ") + sizes_[i].file;
    }
    return text + ")";
}

}  // namespace syncscope::browse
