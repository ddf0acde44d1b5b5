// A stream over local binlog files that looks at each event's common header and steps over its body,
// touching the body only for the events BoundaryEventDecoder decodes (a few dozen bytes each). The file is
// mapped, not read: finding a time or checking a boundary in a 50 MB file touches the pages holding headers
// instead of copying the whole file (and costs no system call per event).
#pragma once

#include <deque>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/browse/binlog_history.h"
#include "engine/browse/boundary_event_decoder.h"

namespace syncscope::browse {

class LocalHeaderStream : public EventStream {
public:
    // `files` in reading order; the first event handed out is the one at `startOffset` of the first file
    // (an event boundary; its FORMAT_DESCRIPTION is read first either way).
    LocalHeaderStream(std::vector<std::filesystem::path> files, uint64_t startOffset);
    ~LocalHeaderStream() override;
    LocalHeaderStream(const LocalHeaderStream&) = delete;
    LocalHeaderStream& operator=(const LocalHeaderStream&) = delete;

    bool next(std::vector<binlog::Event>& events) override;
    BrowsePoint position() const override;

private:
    bool openNextFile();  // false after the last file
    void closeFile();
    // `size` bytes at `offset` of the open file (fewer at its end), from its mapping.
    std::string_view readAt(uint64_t offset, size_t size) const;
    [[noreturn]] void fail(uint64_t offset, const std::string& what) const;

    std::vector<std::filesystem::path> files_;
    size_t nextFile_ = 0;
    uint64_t startOffset_;
    int fd_ = -1;
    uint64_t fileSize_ = 0;
    uint64_t pos_ = 0;
    std::deque<std::string> fileNames_;  // every name handed out, so that Event::file stays valid
    void* mapped_ = nullptr;             // the open file, mapped read-only
    BoundaryEventDecoder decoder_;
};

}  // namespace syncscope::browse
