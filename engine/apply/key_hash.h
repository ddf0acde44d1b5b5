// The 64-bit hash a causality key is made of: a stream of bytes consumed eight at a time, the same however
// the stream is cut into pieces (a folded value handed over whole or one character's weight after another
// hashes alike). Two keys that hash alike only order their changes (docs/design.md), so the hash needs
// spread, not strength; it lives for one process and is never stored.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace syncscope::apply {

// Words are filled from bytes in memory order (memcpy) and by shifts: the same only on a little-endian host.
static_assert(std::endian::native == std::endian::little, "KeyHash assumes a little-endian host");

class KeyHash {
public:
    void byte(unsigned char value) { append(value, 1); }

    void bytes(std::string_view text) {
        size_t at = 0;
        while (at < text.size()) {
            size_t length = std::min<size_t>(sizeof(uint64_t), text.size() - at);
            uint64_t word = 0;
            std::memcpy(&word, text.data() + at, length);
            append(word, static_cast<unsigned>(length));
            at += length;
        }
    }

    // `length` (at most 8) bytes, little-endian in `word`, whose higher bytes are zero.
    void append(uint64_t word, unsigned length) {
        if (length == 0) {
            return;
        }
        pending_ |= word << (8 * pendingBytes_);
        unsigned total = pendingBytes_ + length;
        length_ += length;
        if (total < sizeof(uint64_t)) {
            pendingBytes_ = total;
            return;
        }
        mixInto(state_, pending_);
        unsigned used = sizeof(uint64_t) - pendingBytes_;  // bytes of `word` taken into that word, 1 to 8
        pending_ = used == sizeof(uint64_t) ? 0 : word >> (8 * used);
        pendingBytes_ = total - sizeof(uint64_t);
    }

    // The hash of every byte so far (the stream can go on after).
    uint64_t value() const {
        uint64_t state = state_;
        mixInto(state, pending_);
        mixInto(state, length_);
        // Finalizer of MurmurHash3: every input bit reaches every output bit.
        state ^= state >> 33;
        state *= 0xff51afd7ed558ccdULL;
        state ^= state >> 33;
        state *= 0xc4ceb9fe1a85ec53ULL;
        state ^= state >> 33;
        return state;
    }

private:
    // The block step of MurmurHash3 (x64): a word scrambled, then folded into the state.
    static constexpr uint64_t kSeed = 0x9e3779b97f4a7c15ULL;
    static constexpr uint64_t kWordMultiplier1 = 0x87c37b91114253d5ULL;
    static constexpr uint64_t kWordMultiplier2 = 0x4cf5ad432745937fULL;
    static constexpr int kWordRotation = 31;
    static constexpr int kStateRotation = 27;
    static constexpr uint64_t kStateMultiplier = 5;
    static constexpr uint64_t kStateAddend = 0x52dce729;

    static void mixInto(uint64_t& state, uint64_t word) {
        state ^= std::rotl(word * kWordMultiplier1, kWordRotation) * kWordMultiplier2;
        state = std::rotl(state, kStateRotation) * kStateMultiplier + kStateAddend;
    }

    uint64_t state_ = kSeed;
    uint64_t pending_ = 0;
    unsigned pendingBytes_ = 0;
    uint64_t length_ = 0;
};

}  // namespace syncscope::apply
