#include "engine/source/binlog_file_source.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>
#include <utility>

#include "engine/binlog/decode_error.h"
#include "engine/source/raw_event_fields.h"

namespace syncscope::source {

namespace {

constexpr std::string_view kBinlogMagic("\xfe\x62\x69\x6e", 4);
constexpr uint64_t kFirstEventPosition = 4;  // right after the magic
// No server writes an event larger than max_allowed_packet, which is at most 1 GiB.
constexpr uint64_t kMaxEventSize = uint64_t{1} << 30;

std::string hexBytes(std::string_view bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string text;
    for (unsigned char c : bytes) {
        if (!text.empty()) {
            text += ' ';
        }
        text += kDigits[c >> 4];
        text += kDigits[c & 0xF];
    }
    return text;
}

}  // namespace

BinlogFileSource BinlogFileSource::following(const std::filesystem::path& firstFile, FileSourceOptions options) {
    return BinlogFileSource({firstFile}, true, std::move(options));
}

BinlogFileSource BinlogFileSource::ofFiles(std::vector<std::filesystem::path> files, FileSourceOptions options) {
    return BinlogFileSource(std::move(files), false, std::move(options));
}

BinlogFileSource::BinlogFileSource(std::vector<std::filesystem::path> files, bool follow, FileSourceOptions options)
    : options_(std::move(options)), files_(std::move(files)), follow_(follow) {
    options_.readBufferSize = std::max<size_t>(options_.readBufferSize, binlog::kEventHeaderSize);
    if (!files_.empty()) {
        directory_ = files_.front().parent_path();
    }
}

BinlogFileSource::~BinlogFileSource() {
    closeFile();
}

BinlogFileSource::BinlogFileSource(BinlogFileSource&& other) noexcept {
    *this = std::move(other);
}

BinlogFileSource& BinlogFileSource::operator=(BinlogFileSource&& other) noexcept {
    if (this != &other) {
        closeFile();
        options_ = std::move(other.options_);
        files_ = std::move(other.files_);
        follow_ = other.follow_;
        fileIndex_ = other.fileIndex_;
        directory_ = std::move(other.directory_);
        path_ = std::move(other.path_);
        fileNames_ = std::move(other.fileNames_);
        fd_ = std::exchange(other.fd_, -1);
        buffer_ = std::move(other.buffer_);
        bufferOffset_ = other.bufferOffset_;
        begin_ = other.begin_;
        end_ = other.end_;
        nextPos_ = other.nextPos_;
        magicChecked_ = other.magicChecked_;
        hasChecksum_ = other.hasChecksum_;
        firstFile_ = other.firstFile_;
        startApplied_ = other.startApplied_;
        checkBoundary_ = other.checkBoundary_;
        pendingRotate_ = std::move(other.pendingRotate_);
        stop_ = std::move(other.stop_);
    }
    return *this;
}

std::string BinlogFileSource::currentFile() const {
    return fileNames_.empty() ? std::string() : fileNames_.back();
}

void BinlogFileSource::fail(uint64_t offset, const std::string& what) const {
    throw binlog::DecodeError(path_.string(), offset, what);
}

bool BinlogFileSource::openFile(const std::filesystem::path& path) {
    closeFile();
    path_ = path;
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return false;
    }
    fd_ = fd;
    fileNames_.push_back(path.filename().string());
    bufferOffset_ = 0;
    begin_ = 0;
    end_ = 0;
    nextPos_ = 0;
    magicChecked_ = false;
    hasChecksum_ = false;
    return true;
}

void BinlogFileSource::closeFile() {
    if (fd_ >= 0) {
        ::close(fd_);
        fd_ = -1;
    }
}

bool BinlogFileSource::fill(size_t needed) {
    if (end_ - begin_ >= needed) {
        return true;
    }
    if (begin_ > 0) {
        std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
        bufferOffset_ += begin_;
        end_ -= begin_;
        begin_ = 0;
    }
    if (buffer_.size() < needed) {
        buffer_.resize(std::max(needed, options_.readBufferSize));
    } else if (buffer_.size() > options_.readBufferSize && std::max(needed, end_) <= options_.readBufferSize) {
        // A huge event is behind us: give its memory back so that memory does not grow with the file.
        buffer_.resize(options_.readBufferSize);
        buffer_.shrink_to_fit();
    }
    while (end_ < needed) {
        ssize_t got =
            ::pread(fd_, buffer_.data() + end_, buffer_.size() - end_, static_cast<off_t>(bufferOffset_ + end_));
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            fail(bufferOffset_ + end_, std::string("read failed: ") + std::strerror(errno));
        }
        if (got == 0) {
            break;
        }
        end_ += static_cast<size_t>(got);
    }
    return end_ - begin_ >= needed;
}

std::optional<binlog::RawEvent> BinlogFileSource::halt(StopReason reason, std::string detail) {
    stop_ = {reason, currentFile(), nextPos_, std::move(detail)};
    return std::nullopt;
}

bool BinlogFileSource::stopsHere() const {
    if (!options_.stopPosition || nextPos_ < *options_.stopPosition) {
        return false;
    }
    if (follow_) {
        std::string stopFile = options_.stopFile.empty() ? files_.front().filename().string() : options_.stopFile;
        return currentFile() == stopFile;
    }
    return fileIndex_ + 1 == files_.size();
}

std::optional<std::filesystem::path> BinlogFileSource::resolve(const std::string& fileName) const {
    std::error_code ec;
    std::filesystem::path direct = directory_ / fileName;
    if (std::filesystem::is_regular_file(direct, ec)) {
        return direct;
    }
    // The index lists every file with the path the server was given, relative to its data directory.
    for (const auto& entry : std::filesystem::directory_iterator(directory_.empty() ? "." : directory_, ec)) {
        if (entry.path().extension() != ".index") {
            continue;
        }
        std::ifstream index(entry.path());
        std::string line;
        while (std::getline(index, line)) {
            std::filesystem::path listed(line);
            if (listed.filename() != fileName) {
                continue;
            }
            if (listed.is_absolute() && std::filesystem::is_regular_file(listed, ec)) {
                return listed;
            }
        }
    }
    return std::nullopt;
}

std::optional<std::filesystem::path> BinlogFileSource::nextNumberedFile() const {
    std::string name = currentFile();
    size_t dot = name.rfind('.');
    if (dot == std::string::npos || dot + 1 == name.size()) {
        return std::nullopt;
    }
    std::string digits = name.substr(dot + 1);
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return std::nullopt;
    }
    std::string next = std::to_string(std::stoull(digits) + 1);
    if (next.size() < digits.size()) {
        next.insert(0, digits.size() - next.size(), '0');
    }
    return resolve(name.substr(0, dot + 1) + next);
}

bool BinlogFileSource::moveToNextFile() {
    if (follow_) {
        // A server that crashed or was restarted starts a new file without a ROTATE in the old one.
        auto next = nextNumberedFile();
        return next && openFile(*next);
    }
    if (fileIndex_ + 1 >= files_.size()) {
        return false;
    }
    ++fileIndex_;
    if (!openFile(files_[fileIndex_])) {
        fail(0, std::string("cannot open: ") + std::strerror(errno));
    }
    return true;
}

std::optional<binlog::RawEvent> BinlogFileSource::next() {
    if (stop_.reason == StopReason::Finished || stop_.reason == StopReason::StopPosition) {
        return std::nullopt;
    }
    stop_ = {};
    if (pendingRotate_) {
        auto target = resolve(*pendingRotate_);
        if (!target) {
            return halt(StopReason::CaughtUp,
                        "rotated to " + *pendingRotate_ + ", which is not in " + directory_.string() + " (yet)");
        }
        if (!openFile(*target)) {
            fail(0, std::string("cannot open: ") + std::strerror(errno));
        }
        pendingRotate_.reset();
    }
    if (fd_ < 0) {
        if (files_.empty()) {
            return halt(StopReason::Finished, "no files to read");
        }
        if (!openFile(files_[fileIndex_])) {
            fail(0, std::string("cannot open: ") + std::strerror(errno));
        }
    }
    if (!magicChecked_) {
        if (!fill(kBinlogMagic.size())) {
            return halt(StopReason::Incomplete, "the file has " + std::to_string(end_ - begin_) +
                                                    " bytes, fewer than the 4-byte binlog header");
        }
        std::string_view magic(buffer_.data() + begin_, kBinlogMagic.size());
        if (magic != kBinlogMagic) {
            fail(0, "not a binlog file: it starts with " + hexBytes(magic) + ", a binlog starts with " +
                        hexBytes(kBinlogMagic));
        }
        begin_ += kBinlogMagic.size();
        nextPos_ = kFirstEventPosition;
        magicChecked_ = true;
    }
    for (;;) {
        if (stopsHere()) {
            return halt(StopReason::StopPosition,
                        "reached the stop position " + std::to_string(*options_.stopPosition));
        }
        if (!fill(binlog::kEventHeaderSize)) {
            size_t have = end_ - begin_;
            if (have != 0) {
                return halt(StopReason::Incomplete, "the file ends inside an event header (" + std::to_string(have) +
                                                        " of " + std::to_string(binlog::kEventHeaderSize) +
                                                        " bytes present)");
            }
            if (moveToNextFile()) {
                return next();
            }
            if (!follow_) {
                return halt(StopReason::Finished, "end of the last file");
            }
            return halt(StopReason::CaughtUp, "end of a file that has no ROTATE yet (still being written)");
        }
        RawEventHeader header = readRawEventHeader(std::string_view(buffer_.data() + begin_, binlog::kEventHeaderSize));
        if (header.eventSize < binlog::kEventHeaderSize) {
            fail(nextPos_, "event size " + std::to_string(header.eventSize) +
                               " is smaller than the 19-byte event header: the file is corrupt here");
        }
        if (header.eventSize > kMaxEventSize) {
            fail(nextPos_, "event size " + std::to_string(header.eventSize) +
                               " is larger than any server writes (1 GiB): the file is corrupt here");
        }
        if (checkBoundary_ && header.logPos != 0 && header.logPos != nextPos_ + header.eventSize) {
            fail(nextPos_, "no event starts at this offset (the bytes there claim a size of " +
                               std::to_string(header.eventSize) + " and an end at " + std::to_string(header.logPos) +
                               "); use the start position of an event, as mariadb-binlog prints it");
        }
        if (!fill(header.eventSize)) {
            return halt(StopReason::Incomplete, "the file ends inside an event (" + std::to_string(end_ - begin_) +
                                                    " of its " + std::to_string(header.eventSize) +
                                                    " bytes present): still being written, or truncated");
        }
        checkBoundary_ = false;
        binlog::RawEvent event{std::string_view(buffer_.data() + begin_, header.eventSize), fileNames_.back(),
                               nextPos_};
        begin_ += header.eventSize;
        nextPos_ += header.eventSize;
        try {
            if (header.type == kFormatDescriptionEventType) {
                hasChecksum_ = formatDescriptionHasChecksum(event.bytes);
            } else if (header.type == kRotateEventType && follow_ && (header.flags & kArtificialEventFlag) == 0) {
                pendingRotate_ = readRotateTarget(event.bytes, hasChecksum_).file;
            }
        } catch (const binlog::TruncatedError& e) {
            fail(event.pos, e.what());
        }
        if (firstFile_ && !startApplied_) {
            startApplied_ = true;
            firstFile_ = false;
            uint64_t start = options_.startPosition;
            if (start > kFirstEventPosition && start != nextPos_) {
                if (start < nextPos_) {
                    fail(start, "the start position is inside the first event (" + std::to_string(event.pos) + " to " +
                                    std::to_string(nextPos_) + ")");
                }
                // Jump: the buffered bytes before `start` are simply skipped or dropped.
                if (start - nextPos_ <= end_ - begin_) {
                    begin_ += static_cast<size_t>(start - nextPos_);
                } else {
                    bufferOffset_ = start;
                    begin_ = 0;
                    end_ = 0;
                }
                nextPos_ = start;
                checkBoundary_ = true;
            }
        }
        return event;
    }
}

}  // namespace syncscope::source
