#include "engine/browse/local_header_stream.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "engine/binlog/raw_event.h"

namespace syncscope::browse {

namespace {

constexpr std::string_view kBinlogMagic(
    "\xfe"
    "bin",
    4);
constexpr uint64_t kFirstEventOffset = 4;  // after the magic
// Looked at with each header: a GTID, BEGIN, COMMIT or XID event fits.
constexpr size_t kHeaderReadSize = 256;

}  // namespace

LocalHeaderStream::LocalHeaderStream(std::vector<std::filesystem::path> files, uint64_t startOffset)
    : files_(std::move(files)), startOffset_(startOffset) {}

LocalHeaderStream::~LocalHeaderStream() {
    closeFile();
}

void LocalHeaderStream::closeFile() {
    if (mapped_ != nullptr) {
        ::munmap(mapped_, fileSize_);
        mapped_ = nullptr;
    }
    if (fd_ >= 0) {
        ::close(fd_);
        fd_ = -1;
    }
}

void LocalHeaderStream::fail(uint64_t offset, const std::string& what) const {
    throw BrowseError(fileNames_.back() + ":" + std::to_string(offset) + ": " + what);
}

std::string_view LocalHeaderStream::readAt(uint64_t offset, size_t size) const {
    if (offset >= fileSize_) {
        return {};
    }
    return std::string_view(static_cast<const char*>(mapped_) + offset,
                            static_cast<size_t>(std::min<uint64_t>(size, fileSize_ - offset)));
}

bool LocalHeaderStream::openNextFile() {
    closeFile();
    if (nextFile_ >= files_.size()) {
        return false;
    }
    const auto& path = files_[nextFile_];
    fileNames_.push_back(path.filename().string());
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
        throw BrowseError("cannot open binlog file '" + path.string() + "': " + std::strerror(errno));
    }
    struct stat status {};
    if (::fstat(fd_, &status) != 0) {
        throw BrowseError("cannot read binlog file '" + path.string() + "': " + std::strerror(errno));
    }
    fileSize_ = static_cast<uint64_t>(status.st_size);
    if (fileSize_ > 0) {
        // Mapped, not read: only the pages holding headers (and the few bodies decoded) are touched.
        mapped_ = ::mmap(nullptr, fileSize_, PROT_READ, MAP_PRIVATE, fd_, 0);
        if (mapped_ == MAP_FAILED) {
            mapped_ = nullptr;
            fileSize_ = 0;
            throw BrowseError("cannot map binlog file '" + path.string() + "': " + std::strerror(errno));
        }
    }
    if (readAt(0, kBinlogMagic.size()) != kBinlogMagic) {
        fail(0, "not a binlog file (it does not begin with the binlog magic bytes)");
    }
    pos_ = kFirstEventOffset;
    ++nextFile_;
    return true;
}

bool LocalHeaderStream::next(std::vector<binlog::Event>& events) {
    events.clear();
    while (events.empty()) {
        if (fd_ < 0 || pos_ >= fileSize_) {
            if (!openNextFile()) {
                return false;
            }
        }
        const std::string_view file = fileNames_.back();
        std::string_view bytes = readAt(pos_, kHeaderReadSize);
        if (bytes.size() < binlog::kEventHeaderSize) {
            fail(pos_, "the file ends inside an event's header (being written, or truncated)");
        }
        const uint32_t size = BoundaryEventDecoder::eventSizeOf(bytes);
        if (size < binlog::kEventHeaderSize) {
            fail(pos_, "an event size of " + std::to_string(size) + " bytes cannot be (not an event boundary?)");
        }
        if (pos_ + size > fileSize_) {
            fail(pos_,
                 "the file ends inside an event of " + std::to_string(size) + " bytes (being written, or truncated)");
        }
        const uint64_t eventPos = pos_;
        pos_ += size;
        const bool firstFile = nextFile_ == 1;
        const bool beforeStart = firstFile && eventPos < startOffset_;
        const auto typeCode = static_cast<uint8_t>(bytes[4]);
        if (BoundaryEventDecoder::needsBody(typeCode)) {
            if (size > bytes.size()) {
                bytes = readAt(eventPos, size);
            }
            decoder_.decoder().decodeInto({bytes.substr(0, size), file, eventPos}, events);
        } else if (!beforeStart) {
            BoundaryEventDecoder::appendHeaderOnly(bytes, file, eventPos, events);
        }
        if (beforeStart) {
            // Only the FORMAT_DESCRIPTION is needed before a later start: decoding depends on it.
            events.clear();
            if (eventPos == kFirstEventOffset && startOffset_ > pos_) {
                pos_ = startOffset_;
            }
        }
    }
    return true;
}

BrowsePoint LocalHeaderStream::position() const {
    if (fileNames_.empty()) {
        return {files_.empty() ? std::string() : files_.front().filename().string(), startOffset_};
    }
    return {fileNames_.back(), pos_};
}

}  // namespace syncscope::browse
