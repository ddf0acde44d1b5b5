#include "engine/apply/collation_folder.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace syncscope::apply {

namespace {

constexpr char kSpace = ' ';

bool endsWith(const std::string& text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Collations whose per-character weights concatenate to the weight of a string (see the header).
bool foldsByCharacterWeights(const std::string& name) {
    static const std::array<std::string_view, 8> kSuffixes = {
        "_general_ci",       "_general_nopad_ci", "_general_mysql500_ci",  "_unicode_ci",
        "_unicode_nopad_ci", "_unicode_520_ci",   "_unicode_520_nopad_ci", "_0900_ai_ci"};
    static const std::array<std::string_view, 6> kEightBit = {"latin1_swedish_ci", "latin1_general_ci",
                                                              "latin1_german1_ci", "latin1_german2_ci",
                                                              "latin1_danish_ci",  "latin1_spanish_ci"};
    if (std::find(kEightBit.begin(), kEightBit.end(), name) != kEightBit.end() || name == "latin1_swedish_nopad_ci" ||
        name == "ascii_general_ci" || name == "ascii_general_nopad_ci") {
        return true;
    }
    if (name.rfind("latin1_", 0) == 0 || name.rfind("ascii_", 0) == 0) {
        return false;  // other 8-bit collations of these charsets are not listed: not exact
    }
    return std::any_of(kSuffixes.begin(), kSuffixes.end(),
                       [&](std::string_view suffix) { return endsWith(name, suffix); });
}

// The charset a collation belongs to, for the ones whose characters can be told apart here.
std::string charsetOf(const std::string& name) {
    for (std::string_view charset : {"utf8mb4", "utf8mb3", "utf8", "latin1", "ascii"}) {
        if (name.size() > charset.size() && name.compare(0, charset.size(), charset) == 0 &&
            name[charset.size()] == '_') {
            return std::string(charset);
        }
    }
    return {};
}

// What a binary collation compares: the bytes, less trailing spaces where it pads with spaces.
std::string_view comparedBytes(bool padSpace, std::string_view value) {
    while (padSpace && !value.empty() && value.back() == kSpace) {
        value.remove_suffix(1);
    }
    return value;
}

// The length of the UTF-8 sequence starting at `text[at]`, 0 when it is not a valid one.
size_t utf8Length(std::string_view text, size_t at) {
    const auto lead = static_cast<unsigned char>(text[at]);
    size_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xe ? 3 : (lead >> 3) == 0x1e ? 4 : 0;
    if (length == 0 || at + length > text.size()) {
        return 0;
    }
    for (size_t i = 1; i < length; ++i) {
        if ((static_cast<unsigned char>(text[at + i]) >> 6) != 0x2) {
            return 0;
        }
    }
    return length;
}

}  // namespace

CollationFolder::Collation& CollationFolder::collationFor(const std::string& name) {
    if (last_ != nullptr && name == lastName_) {
        return *last_;
    }
    auto it = collations_.find(name);
    if (it != collations_.end()) {
        lastName_ = name;
        last_ = &it->second;
        return it->second;
    }
    Collation collation;
    collation.padSpace = name.find("_nopad_") == std::string::npos && name.find("_0900_") == std::string::npos;
    collation.charset = charsetOf(name);
    collation.utf8 = collation.charset.rfind("utf8", 0) == 0;
    if (name == "binary") {
        collation.rule = Rule::Bytes;
    } else if (endsWith(name, "_bin") && !collation.charset.empty()) {
        // Binary collations compare code points (bytes, for these charsets), padded with spaces unless nopad.
        collation.rule = collation.padSpace ? Rule::BytesPadSpace : Rule::Bytes;
    } else if (!collation.charset.empty() && foldsByCharacterWeights(name) && query_) {
        collation.rule = Rule::Weights;
        if (!learn(collation, name, {std::string(1, kSpace)})) {
            collation.rule = Rule::NotExact;
        } else {
            collation.spaceWeight = collation.weights[std::string(1, kSpace)];
        }
    }
    return collations_.emplace(name, std::move(collation)).first->second;
}

bool CollationFolder::learn(Collation& collation, const std::string& name, const std::vector<std::string>& characters) {
    try {
        std::vector<std::string> weights = query_(collation.charset, name, characters);
        if (weights.size() != characters.size()) {
            return false;
        }
        for (size_t i = 0; i < characters.size(); ++i) {
            const std::string& character = characters[i];
            if (character.size() == 1 && static_cast<unsigned char>(character[0]) < kAsciiCharacters) {
                auto byte = static_cast<unsigned char>(character[0]);
                collation.asciiWeights[byte] = weights[i];
                if (weights[i].size() <= sizeof(uint64_t)) {
                    uint64_t word = 0;
                    std::memcpy(&word, weights[i].data(), weights[i].size());
                    collation.asciiWords[byte] = word;
                    collation.asciiWordBytes[byte] = static_cast<uint8_t>(weights[i].size());
                    collation.asciiInWords.set(byte);
                }
            }
            collation.weights[character] = std::move(weights[i]);
        }
        return true;
    } catch (const std::exception&) {
        return false;  // the server could not say: this collation is not folded (one key per column)
    }
}

bool CollationFolder::foldAsciiInto(const Collation& collation, std::string_view value, KeyHash& hash) {
    auto inWords = [&](unsigned char byte) { return byte < kAsciiCharacters && collation.asciiInWords.test(byte); };
    // The rules of fold()'s general path: PAD SPACE drops trailing characters that weigh as a space or
    // nothing; the rest concatenate.
    size_t end = value.size();
    while (collation.padSpace && end > 0) {
        auto byte = static_cast<unsigned char>(value[end - 1]);
        if (!inWords(byte)) {
            return false;
        }
        const std::string& weight = collation.asciiWeights[byte];
        if (weight != collation.spaceWeight && !weight.empty()) {
            break;
        }
        --end;
    }
    KeyHash folded = hash;  // `hash` stays as it was when a character is not known
    for (size_t i = 0; i < end; ++i) {
        auto byte = static_cast<unsigned char>(value[i]);
        if (!inWords(byte)) {
            return false;
        }
        folded.append(collation.asciiWords[byte], collation.asciiWordBytes[byte]);
    }
    hash = folded;
    return true;
}

CollationFolder::Outcome CollationFolder::foldInto(const std::string& collationName, std::string_view value,
                                                   KeyHash& hash) {
    if (!collationName.empty()) {
        std::lock_guard lock(mutex_);
        const Collation& collation = collationFor(collationName);
        switch (collation.rule) {
            case Rule::Bytes:
            case Rule::BytesPadSpace:
                hash.bytes(comparedBytes(collation.rule == Rule::BytesPadSpace, value));
                return Outcome::Exact;
            case Rule::NotExact:
                return Outcome::NotExact;
            case Rule::Weights:
                if (foldAsciiInto(collation, value, hash)) {
                    return Outcome::Exact;
                }
                break;
        }
    }
    // A character not known as a word (or no collation): the general path's string.
    thread_local std::string folded;
    Outcome outcome = fold(collationName, value, folded);
    if (outcome == Outcome::Exact) {
        hash.bytes(folded);
    }
    return outcome;
}

CollationFolder::Outcome CollationFolder::fold(const std::string& collationName, std::string_view value,
                                               std::string& folded) {
    folded.clear();
    if (collationName.empty()) {
        return Outcome::NotExact;  // unknown: no downstream structure was read
    }
    std::lock_guard lock(mutex_);
    Collation& collation = collationFor(collationName);
    switch (collation.rule) {
        case Rule::Bytes:
        case Rule::BytesPadSpace:
            folded.assign(comparedBytes(collation.rule == Rule::BytesPadSpace, value));
            return Outcome::Exact;
        case Rule::NotExact:
            return Outcome::NotExact;
        case Rule::Weights:
            break;
    }
    // Split into characters; ask once for every character not seen before.
    std::vector<std::string_view> characters;
    std::vector<std::string> unknown;
    for (size_t at = 0; at < value.size();) {
        size_t length = collation.utf8 ? utf8Length(value, at) : 1;
        if (length == 0) {
            return Outcome::NotExact;  // not a character of the charset: the server would not store it so
        }
        std::string_view character = value.substr(at, length);
        characters.push_back(character);
        if (!collation.weights.count(std::string(character)) &&
            std::find(unknown.begin(), unknown.end(), character) == unknown.end()) {
            unknown.emplace_back(character);
        }
        at += length;
    }
    if (!unknown.empty() && !learn(collation, collationName, unknown)) {
        collation.rule = Rule::NotExact;  // from now on, for every value: one key per column, consistently
        ++foldingStopped_;
        return Outcome::NotExact;
    }
    // PAD SPACE: trailing characters that weigh as a space (or nothing) do not count.
    size_t end = characters.size();
    while (collation.padSpace && end > 0) {
        const std::string& weight = collation.weights.at(std::string(characters[end - 1]));
        if (weight != collation.spaceWeight && !weight.empty()) {
            break;
        }
        --end;
    }
    // Concatenated as WEIGHT_STRING concatenates them (fixed-size units), so an expansion ('ß' weighs as
    // 'ss') equals the characters it expands to.
    for (size_t i = 0; i < end; ++i) {
        folded += collation.weights.at(std::string(characters[i]));
    }
    return Outcome::Exact;
}

}  // namespace syncscope::apply
