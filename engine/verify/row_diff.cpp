#include "engine/verify/row_diff.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <string_view>
#include <unordered_map>

namespace syncscope::verify {

std::optional<RowDifference> diffRow(const ComparedTable& table, const RowValues& key,
                                     const std::optional<RowValues>& upstreamRow,
                                     const std::optional<RowValues>& downstreamRow) {
    if (!upstreamRow && !downstreamRow) {
        return std::nullopt;
    }
    RowDifference difference;
    difference.key = key;
    if (!downstreamRow) {
        difference.kind = DifferenceKind::Missing;
        difference.upstreamRow = *upstreamRow;
        return difference;
    }
    if (!upstreamRow) {
        difference.kind = DifferenceKind::Extra;
        difference.downstreamRow = *downstreamRow;
        return difference;
    }
    for (size_t i = 0; i < table.columns().size(); ++i) {
        if ((*upstreamRow)[i] != (*downstreamRow)[i]) {
            difference.differingColumns.push_back(table.columns()[i].name);
        }
    }
    if (difference.differingColumns.empty()) {
        return std::nullopt;
    }
    difference.kind = DifferenceKind::Different;
    difference.upstreamRow = *upstreamRow;
    difference.downstreamRow = *downstreamRow;
    return difference;
}

std::vector<RowDifference> diffRows(const ComparedTable& table, const std::vector<RowValues>& upstreamRows,
                                    const std::vector<RowValues>& downstreamRows) {
    std::map<RowValues, const RowValues*> downstreamByKey;
    for (const auto& row : downstreamRows) {
        downstreamByKey.emplace(table.keyOf(row), &row);
    }
    std::vector<RowDifference> differences;
    std::map<RowValues, bool> upstreamKeys;
    for (const auto& row : upstreamRows) {
        RowValues key = table.keyOf(row);
        auto match = downstreamByKey.find(key);
        std::optional<RowValues> downstreamRow;
        if (match != downstreamByKey.end()) {
            downstreamRow = *match->second;
        }
        if (auto difference = diffRow(table, key, row, downstreamRow)) {
            differences.push_back(std::move(*difference));
        }
        upstreamKeys.emplace(std::move(key), true);
    }
    for (const auto& row : downstreamRows) {
        RowValues key = table.keyOf(row);
        if (!upstreamKeys.contains(key)) {
            differences.push_back(*diffRow(table, key, std::nullopt, row));
        }
    }
    return differences;
}

namespace {

// Key values as one string, each prefixed by NULL-ness and length so that no two keys run together.
std::string encodedKey(const RowValues& row, size_t keyWidth) {
    std::string encoded;
    for (size_t i = 0; i < keyWidth; ++i) {
        if (!row[i]) {
            encoded += 'N';
            continue;
        }
        encoded += std::to_string(row[i]->size()) + ':';
        encoded += *row[i];
    }
    return encoded;
}

RowDifference suspectRow(DifferenceKind kind, const RowValues& row, size_t keyWidth) {
    RowDifference suspect;
    suspect.kind = kind;
    suspect.key.assign(row.begin(), row.begin() + static_cast<std::ptrdiff_t>(keyWidth));
    return suspect;
}

}  // namespace

namespace {

// A server's text of an integer: digits with an optional '-', no leading zero, no "-0".
bool isCanonicalInteger(const std::optional<std::string>& value) {
    if (!value || value->empty()) {
        return false;
    }
    std::string_view digits(*value);
    if (digits.front() == '-') {
        digits.remove_prefix(1);
        if (digits == "0") {
            return false;
        }
    }
    if (digits.empty() || (digits.size() > 1 && digits.front() == '0')) {
        return false;
    }
    return std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Orders two canonical integer texts as numbers, without parsing (any width): equal only when the
// bytes are equal.
int compareIntegerTexts(const std::string& a, const std::string& b) {
    const bool aNegative = a.front() == '-';
    const bool bNegative = b.front() == '-';
    if (aNegative != bNegative) {
        return aNegative ? -1 : 1;
    }
    int magnitude = a.size() != b.size() ? (a.size() < b.size() ? -1 : 1) : a.compare(b) < 0 ? -1 : (a == b ? 0 : 1);
    return aNegative ? -magnitude : magnitude;
}

int compareIntegerKeys(const RowValues& a, const RowValues& b, size_t keyWidth) {
    for (size_t i = 0; i < keyWidth; ++i) {
        if (int order = compareIntegerTexts(*a[i], *b[i]); order != 0) {
            return order;
        }
    }
    return 0;
}

bool allKeysAreIntegers(const std::vector<RowValues>& rows, size_t from, size_t keyWidth) {
    for (size_t i = from; i < rows.size(); ++i) {
        for (size_t k = 0; k < keyWidth; ++k) {
            if (!isCanonicalInteger(rows[i][k])) {
                return false;
            }
        }
    }
    return true;
}

}  // namespace

std::vector<RowDifference> diffRowHashes(const std::vector<RowValues>& upstreamHashes,
                                         const std::vector<RowValues>& downstreamHashes) {
    std::vector<RowDifference> suspects;
    // Both sides list the same keys in the same order where they agree: walk them side by side and
    // match by key only from the first place they part.
    size_t same = 0;
    while (same < upstreamHashes.size() && same < downstreamHashes.size() &&
           upstreamHashes[same] == downstreamHashes[same]) {
        ++same;
    }
    if (same == upstreamHashes.size() && same == downstreamHashes.size()) {
        return suspects;
    }
    const RowValues& anyRow = same < upstreamHashes.size() ? upstreamHashes[same] : downstreamHashes[same];
    const size_t keyWidth = anyRow.size() - 1;  // the hash is last
    std::vector<RowDifference> extra;
    if (allKeysAreIntegers(upstreamHashes, same, keyWidth) && allKeysAreIntegers(downstreamHashes, same, keyWidth)) {
        // Integer keys: both servers list them in numeric order, which the texts tell exactly, so the
        // lists are merged in one walk (a hash table of a whole chunk cost more than reading it).
        size_t up = same;
        size_t down = same;
        while (up < upstreamHashes.size() || down < downstreamHashes.size()) {
            int order = up == upstreamHashes.size() ? 1
                        : down == downstreamHashes.size()
                            ? -1
                            : compareIntegerKeys(upstreamHashes[up], downstreamHashes[down], keyWidth);
            if (order < 0) {
                suspects.push_back(suspectRow(DifferenceKind::Missing, upstreamHashes[up++], keyWidth));
            } else if (order > 0) {
                extra.push_back(suspectRow(DifferenceKind::Extra, downstreamHashes[down++], keyWidth));
            } else {
                if (upstreamHashes[up].back() != downstreamHashes[down].back()) {
                    suspects.push_back(suspectRow(DifferenceKind::Different, upstreamHashes[up], keyWidth));
                }
                ++up;
                ++down;
            }
        }
        suspects.insert(suspects.end(), std::make_move_iterator(extra.begin()), std::make_move_iterator(extra.end()));
        return suspects;
    }
    std::unordered_map<std::string, const RowValues*> downstreamByKey;
    downstreamByKey.reserve(downstreamHashes.size() - same);
    for (size_t i = same; i < downstreamHashes.size(); ++i) {
        downstreamByKey.emplace(encodedKey(downstreamHashes[i], keyWidth), &downstreamHashes[i]);
    }
    for (size_t i = same; i < upstreamHashes.size(); ++i) {
        auto match = downstreamByKey.find(encodedKey(upstreamHashes[i], keyWidth));
        if (match == downstreamByKey.end()) {
            suspects.push_back(suspectRow(DifferenceKind::Missing, upstreamHashes[i], keyWidth));
            continue;
        }
        if (match->second->back() != upstreamHashes[i].back()) {
            suspects.push_back(suspectRow(DifferenceKind::Different, upstreamHashes[i], keyWidth));
        }
        match->second = nullptr;  // seen upstream
    }
    for (size_t i = same; i < downstreamHashes.size(); ++i) {
        auto match = downstreamByKey.find(encodedKey(downstreamHashes[i], keyWidth));
        if (match->second != nullptr) {
            suspects.push_back(suspectRow(DifferenceKind::Extra, downstreamHashes[i], keyWidth));
            match->second = nullptr;
        }
    }
    return suspects;
}

std::vector<RowDifference> diffRowCounts(const ComparedTable& table, const std::vector<RowValues>& upstreamCounts,
                                         const std::vector<RowValues>& downstreamCounts) {
    const size_t width = table.columns().size();
    auto countsOf = [width](const std::vector<RowValues>& rows) {
        std::map<RowValues, uint64_t> counts;
        for (const auto& row : rows) {
            RowValues values(row.begin(), row.begin() + static_cast<std::ptrdiff_t>(width));
            counts[values] += std::stoull(row.at(width).value_or("0"));
        }
        return counts;
    };
    auto upstream = countsOf(upstreamCounts);
    auto downstream = countsOf(downstreamCounts);
    std::vector<RowDifference> differences;
    for (const auto& [row, count] : upstream) {
        auto it = downstream.find(row);
        uint64_t there = it == downstream.end() ? 0 : it->second;
        if (count > there) {
            RowDifference difference;
            difference.kind = DifferenceKind::Missing;
            difference.upstreamRow = row;
            difference.count = count - there;
            differences.push_back(std::move(difference));
        }
    }
    for (const auto& [row, count] : downstream) {
        auto it = upstream.find(row);
        uint64_t there = it == upstream.end() ? 0 : it->second;
        if (count > there) {
            RowDifference difference;
            difference.kind = DifferenceKind::Extra;
            difference.downstreamRow = row;
            difference.count = count - there;
            differences.push_back(std::move(difference));
        }
    }
    return differences;
}

}  // namespace syncscope::verify
