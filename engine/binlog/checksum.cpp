#include "engine/binlog/checksum.h"

#include <zlib.h>

#include <array>
#include <charconv>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define SYNCSCOPE_CRC32_CLMUL 1
#endif

namespace syncscope::binlog {

namespace {

uint32_t zlibCrc32(uint32_t crc, const uint8_t* data, size_t size) {
    // zlib takes uInt lengths; feed in chunks so that any event size works.
    constexpr size_t kChunk = 1U << 30;
    uLong value = crc;
    while (size > 0) {
        const size_t n = size < kChunk ? size : kChunk;
        value = crc32(value, data, static_cast<uInt>(n));
        data += n;
        size -= n;
    }
    return static_cast<uint32_t>(value);
}

#ifdef SYNCSCOPE_CRC32_CLMUL

// CRC32 (the reflected polynomial 0x04C11DB7 of zlib and the binlog) by folding with carry-less
// multiplication, after Intel's "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ"
// (Gopal et al., 2009): four 128-bit lanes are folded 64 bytes at a time, then folded into one,
// reduced to 64 bits and Barrett-reduced to 32. The constants are x^n mod P, bit-reflected and
// shifted left by one, for n = 4*128+32 and 4*128-32 (k1, k2), 128+32 and 128-32 (k3, k4), 64 (k5);
// then P itself and floor(x^64 / P), bit-reflected.
constexpr size_t kClmulBlock = 64;
constexpr size_t kClmulLane = 16;

#define SYNCSCOPE_CLMUL_TARGET __attribute__((target("pclmul,sse4.1")))

SYNCSCOPE_CLMUL_TARGET inline __m128i load(const uint8_t* p) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}

// a * k's low half, xor a * k's high half: one 128-bit lane folded forward over the distance k encodes.
SYNCSCOPE_CLMUL_TARGET inline __m128i fold(__m128i a, __m128i k) {
    return _mm_xor_si128(_mm_clmulepi64_si128(a, k, 0x00), _mm_clmulepi64_si128(a, k, 0x11));
}

// `crc` and the result are the CRC register (zlib's value, complemented); size >= 16, a multiple of 16.
// From 64 bytes four lanes fold side by side; shorter inputs (a row binlog's GTID, XID and TABLE_MAP
// events, at least as many as its rows events) and what remains fold one lane at a time.
SYNCSCOPE_CLMUL_TARGET uint32_t clmulCrc32Register(uint32_t crc, const uint8_t* data, size_t size) {
    const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
    const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
    const __m128i k5 = _mm_set_epi64x(0, 0x0163cd6124);
    const __m128i polyMu = _mm_set_epi64x(0x01f7011641, 0x01db710641);
    const __m128i low32 = _mm_setr_epi32(~0, 0, ~0, 0);

    __m128i x1 = _mm_xor_si128(load(data), _mm_cvtsi32_si128(static_cast<int>(crc)));
    if (size >= kClmulBlock) {
        __m128i x2 = load(data + 16);
        __m128i x3 = load(data + 32);
        __m128i x4 = load(data + 48);
        data += kClmulBlock;
        size -= kClmulBlock;
        while (size >= kClmulBlock) {
            x1 = _mm_xor_si128(fold(x1, k1k2), load(data));
            x2 = _mm_xor_si128(fold(x2, k1k2), load(data + 16));
            x3 = _mm_xor_si128(fold(x3, k1k2), load(data + 32));
            x4 = _mm_xor_si128(fold(x4, k1k2), load(data + 48));
            data += kClmulBlock;
            size -= kClmulBlock;
        }
        x1 = _mm_xor_si128(fold(x1, k3k4), x2);
        x1 = _mm_xor_si128(fold(x1, k3k4), x3);
        x1 = _mm_xor_si128(fold(x1, k3k4), x4);
    } else {
        data += kClmulLane;
        size -= kClmulLane;
    }
    while (size >= kClmulLane) {
        x1 = _mm_xor_si128(fold(x1, k3k4), load(data));
        data += kClmulLane;
        size -= kClmulLane;
    }

    // 128 bits to 64.
    __m128i x = _mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x10), _mm_srli_si128(x1, 8));
    x = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x, low32), k5, 0x00), _mm_srli_si128(x, 4));
    // Barrett reduction to 32 bits.
    __m128i t = _mm_clmulepi64_si128(_mm_and_si128(x, low32), polyMu, 0x10);
    t = _mm_clmulepi64_si128(_mm_and_si128(t, low32), polyMu, 0x00);
    x = _mm_xor_si128(x, t);
    return static_cast<uint32_t>(_mm_extract_epi32(x, 1));
}

bool cpuHasClmul() {
    static const bool has = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
    return has;
}

#endif

}  // namespace

uint32_t binlogCrc32(std::string_view bytes) {
    const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
    size_t size = bytes.size();
    uint32_t crc = 0;
#ifdef SYNCSCOPE_CRC32_CLMUL
    if (size >= kClmulLane && cpuHasClmul()) {
        const size_t folded = size & ~(kClmulLane - 1);
        crc = ~clmulCrc32Register(~uint32_t{0}, data, folded);
        data += folded;
        size -= folded;
    }
#endif
    return zlibCrc32(crc, data, size);
}

bool serverWritesChecksumAlgorithm(std::string_view serverVersion) {
    // "5.6.1-...", "10.11.6-MariaDB-log": the leading major.minor.patch numbers.
    std::array<unsigned, 3> parts{0, 0, 0};
    const char* cur = serverVersion.data();
    const char* end = serverVersion.data() + serverVersion.size();
    for (size_t i = 0; i < parts.size() && cur < end; ++i) {
        auto [next, ec] = std::from_chars(cur, end, parts[i]);
        if (ec != std::errc()) {
            break;
        }
        cur = next;
        if (cur < end && *cur == '.') {
            ++cur;
        } else {
            break;
        }
    }
    const bool mariaDb = serverVersion.find("MariaDB") != std::string_view::npos;
    constexpr std::array<unsigned, 3> kMySqlFirst{5, 6, 1};
    constexpr std::array<unsigned, 3> kMariaDbFirst{5, 3, 0};
    return parts >= (mariaDb ? kMariaDbFirst : kMySqlFirst);
}

}  // namespace syncscope::binlog
