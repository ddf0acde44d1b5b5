#include "engine/binlog/compression.h"

#include <zlib.h>
#include <zstd.h>

#include <memory>

#include "engine/binlog/decode_error.h"

namespace syncscope::binlog {

namespace {

constexpr uint8_t kCompressedMarker = 0x80;
constexpr uint8_t kMarkerMask = 0xE0;  // marker bit and the high algorithm bit must read 100
constexpr uint8_t kAlgorithmMask = 0x70;
constexpr uint8_t kLengthBytesMask = 0x07;
constexpr unsigned kAlgorithmShift = 4;
constexpr uint8_t kAlgorithmZlib = 0;
constexpr size_t kMaxLengthBytes = 4;
constexpr size_t kFirstChunk = 4096;

[[noreturn]] void fail(const char* what, const std::string& problem) {
    throw TruncatedError(std::string(what) + ": " + problem);
}

// Size for the next growth of an output buffer that is full.
size_t grownSize(size_t current, uint64_t expected) {
    size_t next = current == 0 ? kFirstChunk : current * 2;
    if (expected > current && expected <= kMaxDecompressedSize && next > expected) {
        next = static_cast<size_t>(expected);
    }
    if (next > kMaxDecompressedSize) {
        next = static_cast<size_t>(kMaxDecompressedSize);
    }
    return next;
}

}  // namespace

void inflateMariaDbCompressed(std::string_view in, std::string& out, const char* what) {
    if (in.empty()) {
        fail(what, "compressed data is empty");
    }
    const auto header = static_cast<uint8_t>(in[0]);
    if ((header & kMarkerMask) != kCompressedMarker) {
        fail(what, "compressed data does not start with MariaDB's compression header byte");
    }
    if (((header & kAlgorithmMask) >> kAlgorithmShift) != kAlgorithmZlib) {
        fail(what, "unknown compression algorithm " + std::to_string((header & kAlgorithmMask) >> kAlgorithmShift));
    }
    const size_t lengthBytes = header & kLengthBytesMask;
    if (lengthBytes == 0 || lengthBytes > kMaxLengthBytes) {
        fail(what, "invalid length size " + std::to_string(lengthBytes) + " in the compression header");
    }
    if (in.size() < 1 + lengthBytes) {
        fail(what, "truncated compression header");
    }
    uint64_t expected = 0;
    for (size_t i = 0; i < lengthBytes; ++i) {
        expected = (expected << 8) | static_cast<uint8_t>(in[1 + i]);
    }
    const std::string_view stream = in.substr(1 + lengthBytes);

    z_stream zs{};
    if (inflateInit(&zs) != Z_OK) {
        fail(what, "zlib could not start");
    }
    std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&zs, inflateEnd);
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(stream.data()));
    zs.avail_in = static_cast<uInt>(stream.size());
    out.clear();
    size_t produced = 0;
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
        if (produced == out.size()) {
            if (out.size() >= kMaxDecompressedSize || produced > expected) {
                fail(what, "decompressed data is larger than the " + std::to_string(expected) + " bytes announced");
            }
            out.resize(grownSize(out.size(), expected + 1));
        }
        zs.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
        zs.avail_out = static_cast<uInt>(out.size() - produced);
        rc = inflate(&zs, Z_NO_FLUSH);
        produced = out.size() - zs.avail_out;
        if (rc == Z_BUF_ERROR && zs.avail_out > 0) {
            fail(what, "compressed data ends before the zlib stream does");
        }
        if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
            fail(what, std::string("zlib: ") + (zs.msg != nullptr ? zs.msg : "corrupt data"));
        }
    }
    out.resize(produced);
    if (produced != expected) {
        fail(what,
             "decompressed to " + std::to_string(produced) + " bytes, header announced " + std::to_string(expected));
    }
}

void decompressZstd(std::string_view in, uint64_t expectedSize, std::string& out, const char* what) {
    if (expectedSize > kMaxDecompressedSize) {
        fail(what, "uncompressed size " + std::to_string(expectedSize) + " is over the 1 GiB limit");
    }
    std::unique_ptr<ZSTD_DStream, size_t (*)(ZSTD_DStream*)> stream(ZSTD_createDStream(), ZSTD_freeDStream);
    if (!stream) {
        fail(what, "zstd could not start");
    }
    ZSTD_initDStream(stream.get());
    ZSTD_inBuffer input{in.data(), in.size(), 0};
    out.clear();
    size_t produced = 0;
    size_t rc = 1;
    while (rc != 0) {
        if (produced == out.size()) {
            if (produced > expectedSize || out.size() >= kMaxDecompressedSize) {
                fail(what, "decompressed data is larger than the " + std::to_string(expectedSize) + " bytes announced");
            }
            out.resize(grownSize(out.size(), expectedSize + 1));
        }
        ZSTD_outBuffer output{out.data(), out.size(), produced};
        const size_t before = input.pos;
        rc = ZSTD_decompressStream(stream.get(), &output, &input);
        if (ZSTD_isError(rc) != 0U) {
            fail(what, std::string("zstd: ") + ZSTD_getErrorName(rc));
        }
        const bool progressed = output.pos != produced || input.pos != before;
        produced = output.pos;
        if (rc != 0 && !progressed) {
            fail(what, "compressed data ends before the zstd frame does");
        }
    }
    out.resize(produced);
    if (input.pos != input.size) {
        fail(what, std::to_string(input.size - input.pos) + " bytes follow the zstd frame");
    }
    if (produced != expectedSize) {
        fail(what, "decompressed to " + std::to_string(produced) + " bytes, header announced " +
                       std::to_string(expectedSize));
    }
}

}  // namespace syncscope::binlog
