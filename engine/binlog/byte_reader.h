// A bounds-checked little-endian reader over one event's bytes. Every read past the end throws
// TruncatedError naming what was being read, so malformed input can never read out of bounds.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "engine/binlog/decode_error.h"

namespace syncscope::binlog {

class ByteReader {
public:
    ByteReader() = default;
    ByteReader(const uint8_t* data, size_t size) : begin_(data), cur_(data), end_(data + size) {}
    explicit ByteReader(std::string_view bytes)
        : ByteReader(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()) {}

    size_t remaining() const { return static_cast<size_t>(end_ - cur_); }
    size_t offset() const { return static_cast<size_t>(cur_ - begin_); }
    bool atEnd() const { return cur_ == end_; }
    const uint8_t* current() const { return cur_; }

    void need(size_t n, const char* what) const {
        if (n > remaining()) [[unlikely]] {
            throwTruncated(n, what);
        }
    }

    uint8_t u8(const char* what = "byte") {
        need(1, what);
        return *cur_++;
    }
    uint16_t u16(const char* what = "2-byte integer") { return static_cast<uint16_t>(uintN(2, what)); }
    uint32_t u24(const char* what = "3-byte integer") { return static_cast<uint32_t>(uintN(3, what)); }
    uint32_t u32(const char* what = "4-byte integer") { return static_cast<uint32_t>(uintN(4, what)); }
    uint64_t u48(const char* what = "6-byte integer") { return uintN(6, what); }
    uint64_t u64(const char* what = "8-byte integer") { return uintN(8, what); }

    // Little-endian unsigned integer of n bytes (n <= 8).
    uint64_t uintN(size_t n, const char* what) {
        need(n, what);
        uint64_t value = 0;
        for (size_t i = 0; i < n; ++i) {
            value |= static_cast<uint64_t>(cur_[i]) << (8 * i);
        }
        cur_ += n;
        return value;
    }

    // Big-endian unsigned integer of n bytes (n <= 8), as DECIMAL and the temporal2 types store them.
    uint64_t uintBigEndian(size_t n, const char* what) {
        need(n, what);
        uint64_t value = 0;
        for (size_t i = 0; i < n; ++i) {
            value = (value << 8) | cur_[i];
        }
        cur_ += n;
        return value;
    }

    // MySQL's length-encoded integer (packed integer); 0xFB (NULL) is not valid in binlog events.
    uint64_t packedInt(const char* what = "length-encoded integer") {
        uint8_t first = u8(what);
        if (first < kPacked2) {
            return first;
        }
        if (first == kPacked2) {
            return uintN(2, what);
        }
        if (first == kPacked3) {
            return uintN(3, what);
        }
        if (first == kPacked8) {
            return uintN(8, what);
        }
        throw TruncatedError(std::string("invalid length-encoded integer prefix in ") + what);
    }

    std::string_view bytes(size_t n, const char* what) {
        need(n, what);
        std::string_view view(reinterpret_cast<const char*>(cur_), n);
        cur_ += n;
        return view;
    }

    std::string_view rest() { return bytes(remaining(), "rest"); }

    void skip(size_t n, const char* what) {
        need(n, what);
        cur_ += n;
    }

    // A sub-reader over the next n bytes; this reader moves past them.
    ByteReader sub(size_t n, const char* what) {
        need(n, what);
        ByteReader inner(cur_, n);
        cur_ += n;
        return inner;
    }

private:
    // Out of line, so that the checks on the hot path stay small.
    [[noreturn, gnu::cold, gnu::noinline]] void throwTruncated(size_t n, const char* what) const {
        throw TruncatedError(std::string("truncated ") + what + ": need " + std::to_string(n) + " bytes at +" +
                             std::to_string(offset()) + ", have " + std::to_string(remaining()));
    }

    static constexpr uint8_t kPacked2 = 0xFC;
    static constexpr uint8_t kPacked3 = 0xFD;
    static constexpr uint8_t kPacked8 = 0xFE;

    const uint8_t* begin_ = nullptr;
    const uint8_t* cur_ = nullptr;
    const uint8_t* end_ = nullptr;
};

}  // namespace syncscope::binlog
