// The differential test's only source of randomness: a seeded generator whose draws are defined here
// (not by the standard library's distributions), so that a seed replays the same case on any build.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace syncscope::differential {

class FuzzRandom {
public:
    explicit FuzzRandom(uint64_t seed) : state_(seed) {}

    // splitmix64: small, fast and fully specified.
    uint64_t next() {
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    // A number in [low, high].
    int range(int low, int high) { return low + static_cast<int>(next() % static_cast<uint64_t>(high - low + 1)); }
    // True with probability percent/100.
    bool chance(int percent) { return range(1, 100) <= percent; }
    template <typename T>
    const T& pick(const std::vector<T>& items) {
        return items[static_cast<size_t>(range(0, static_cast<int>(items.size()) - 1))];
    }

private:
    uint64_t state_;
};

}  // namespace syncscope::differential
