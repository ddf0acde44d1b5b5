#include "engine/verify/row_diff.h"

#include <map>

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
