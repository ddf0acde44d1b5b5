// Turns a text key value into what its column's collation compares (docs/design.md invariant 8): 'e1' and
// 'é1' under utf8mb4_general_ci, 'ABC' and 'abc' in latin1_swedish_ci fold to one string, so their
// changes share a causality key. Folding is exact or not done at all: the fold is the concatenation of
// each character's weight as the downstream server gives it (WEIGHT_STRING, asked once per character
// and cached), trailing characters that weigh as a space dropped for PAD SPACE collations. That is exact
// for one-level collations without contractions (each character weighs the same wherever it stands;
// expansions such as 'ß' = 'ss' concatenate), so only those are folded: *_general_ci, *_unicode_ci,
// *_unicode_520_ci (and their nopad forms), MySQL's *_0900_ai_ci, the 8-bit latin1 and ascii ones. For
// any other collation, a charset other than utf8mb4/utf8mb3/latin1/ascii, bytes that are no valid
// character, or a server that cannot be asked, fold() says so and the caller makes the whole column one
// key (its changes keep their order on one worker): slower, never wrong.
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/apply/key_hash.h"

namespace syncscope::apply {

class CollationFolder {
public:
    // The weight (any byte string) of each character (its bytes in the column's charset) under
    // `collation` of `charset`, in order; throws when the server cannot tell.
    using WeightQuery = std::function<std::vector<std::string>(const std::string& charset, const std::string& collation,
                                                               const std::vector<std::string>& characters)>;

    // A folder that asks the server behind `query` (nullptr: only the server-free collations fold).
    explicit CollationFolder(WeightQuery query = nullptr) : query_(std::move(query)) {}

    enum class Outcome { Exact, NotExact };

    // What `value` compares as under `collation` (a downstream COLLATION_NAME; "binary" for binary
    // strings and non-text columns, empty when unknown), written into `folded`.
    Outcome fold(const std::string& collation, std::string_view value, std::string& folded);

    // The same bytes as fold() writes, mixed into `hash`: what the dispatcher hashes its keys from. A value of
    // ASCII characters whose weights are known builds no string (the profile of a catch-up put folding
    // first among the engine's own functions).
    Outcome foldInto(const std::string& collation, std::string_view value, KeyHash& hash);

    // Goes up whenever a collation that folded stops folding (its server could not be asked): keys
    // made before and after differ for one value, so the caller drains its workers first.
    uint64_t foldingStopped() const { return foldingStopped_; }

private:
    enum class Rule { Bytes, BytesPadSpace, Weights, NotExact };
    static constexpr size_t kAsciiCharacters = 128;

    struct Collation {
        Rule rule = Rule::NotExact;
        bool padSpace = true;
        bool utf8 = false;  // characters are UTF-8 sequences, else one byte each
        std::string charset;
        std::unordered_map<std::string, std::string> weights;  // character bytes -> weight
        std::string spaceWeight;
        // The weights of the ASCII characters learnt so far, by byte, as words for KeyHash::append (those of
        // at most eight bytes): most key text is ASCII, and a lookup here costs no hashing of the character.
        std::array<std::string, kAsciiCharacters> asciiWeights;
        std::array<uint64_t, kAsciiCharacters> asciiWords{};
        std::array<uint8_t, kAsciiCharacters> asciiWordBytes{};
        std::bitset<kAsciiCharacters> asciiInWords;
    };

    // Folds `value` into `hash` when every byte is an ASCII character whose weight is known and fits a word;
    // false (and `hash` untouched) otherwise.
    static bool foldAsciiInto(const Collation& collation, std::string_view value, KeyHash& hash);

    Collation& collationFor(const std::string& name);
    bool learn(Collation& collation, const std::string& name, const std::vector<std::string>& characters);

    WeightQuery query_;
    std::mutex mutex_;
    std::unordered_map<std::string, Collation> collations_;
    // The collation of the last fold: a table's keys fold under one collation, row after row.
    std::string lastName_;
    Collation* last_ = nullptr;
    uint64_t foldingStopped_ = 0;
};

}  // namespace syncscope::apply
