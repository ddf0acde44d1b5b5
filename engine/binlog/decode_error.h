// The error for bytes that cannot be decoded: it names the file, the event's offset and what was wrong.
#pragma once

#include <cstdint>
#include <string>

#include "engine/common/error.h"

namespace syncscope::binlog {

class DecodeError : public Error {
public:
    // Rendered as "FILE:OFFSET: what" (the form syncscope-cli prints on stderr).
    DecodeError(std::string file, uint64_t offset, std::string what)
        : Error(file + ":" + std::to_string(offset) + ": " + what),
          file_(std::move(file)),
          offset_(offset),
          what_(std::move(what)) {}

    const std::string& file() const { return file_; }
    uint64_t offset() const { return offset_; }
    const std::string& problem() const { return what_; }

private:
    std::string file_;
    uint64_t offset_;
    std::string what_;
};

// Thrown by ByteReader deep inside a decoder that does not know the file or the event's offset; the
// event decoder catches it and rethrows a DecodeError with both.
class TruncatedError : public Error {
public:
    explicit TruncatedError(const std::string& what) : Error(what) {}
};

}  // namespace syncscope::binlog
