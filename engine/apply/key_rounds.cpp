#include "engine/apply/key_rounds.h"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "engine/apply/key_hash.h"

namespace syncscope::apply {

namespace {

// Key values that equal exactly when the downstream thinks them equal: numbers, temporals, decimals,
// ENUM and SET (bound as their index). Text compared by a collation ('a' = 'A' = 'a ') and floats
// (-0 = 0) are not, so a table keyed by them keeps its order.
bool exactKeyType(binlog::ColumnType type) {
    using binlog::ColumnType;
    switch (type) {
        case ColumnType::Tiny:
        case ColumnType::Short:
        case ColumnType::Int24:
        case ColumnType::Long:
        case ColumnType::LongLong:
        case ColumnType::Year:
        case ColumnType::Bit:
        case ColumnType::Decimal:
        case ColumnType::NewDecimal:
        case ColumnType::Date:
        case ColumnType::NewDate:
        case ColumnType::Time:
        case ColumnType::Time2:
        case ColumnType::DateTime:
        case ColumnType::DateTime2:
        case ColumnType::Timestamp:
        case ColumnType::Timestamp2:
        case ColumnType::Enum:
        case ColumnType::Set:
            return true;
        default:
            return false;
    }
}

bool reorderable(const KeyedStep& step) {
    const schema::TableSchema& table = *step.change->table;
    return table.rowKeyIsOnlyUniqueIndex() && table.rowKey().kind != schema::RowKeyKind::AllColumns &&
           !(step.change->op == RowOp::Update && step.change->keyChanged()) &&
           rowKeyComparesExactly(table, *step.image);
}

}  // namespace

bool rowKeyComparesExactly(const schema::TableSchema& table, const std::vector<SqlValue>& image) {
    for (size_t column : table.rowKey().columns) {
        if (column >= image.size() || !exactKeyType(table.columns()[column].type) || image[column].isNull()) {
            return false;
        }
    }
    return true;
}

// A collision only puts two keys in different rounds (more order, never less), or makes the caller
// compare the values themselves.
uint64_t rowKeyHash(const schema::TableSchema& table, const std::vector<SqlValue>& image) {
    KeyHash hash;
    for (size_t column : table.rowKey().columns) {
        const SqlValue& value = image[column];
        if (value.kind() == SqlValueKind::Text || value.kind() == SqlValueKind::Bytes) {
            hash.bytes(value.asString());
        } else {
            hash.append(value.asUnsigned(), sizeof(uint64_t));
        }
        hash.byte(0xff);  // value separator
    }
    return hash.value();
}

std::optional<std::vector<size_t>> keyRoundOrder(std::span<const KeyedStep> steps) {
    constexpr size_t kFewestWorthSorting = 3;
    if (steps.size() < kFewestWorthSorting || !std::all_of(steps.begin(), steps.end(), reorderable)) {
        return std::nullopt;
    }
    std::unordered_map<uint64_t, uint32_t> seen;
    seen.reserve(steps.size());
    std::vector<std::pair<uint64_t, size_t>> order;  // (round << 2 | kind rank, original position)
    order.reserve(steps.size());
    for (size_t i = 0; i < steps.size(); ++i) {
        uint32_t round = seen[rowKeyHash(*steps[i].change->table, *steps[i].image)]++;
        order.emplace_back((uint64_t{round} << 2) | static_cast<uint64_t>(steps[i].kindRank & 3), i);
    }
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<size_t> positions;
    positions.reserve(order.size());
    for (const auto& entry : order) {
        positions.push_back(entry.second);
    }
    return positions;
}

std::optional<std::vector<uint32_t>> conflictRounds(std::span<const RowChange* const> changes) {
    if (std::any_of(changes.begin(), changes.end(), [](const RowChange* change) { return change->carriedKeys == 0; })) {
        return std::nullopt;
    }
    // Each key's last round, in an open-addressing table reused from batch to batch (no allocation per
    // key: this runs for every batch of every worker).
    struct Slot {
        uint64_t key = 0;
        uint32_t round = 0;  // 0: empty
    };
    thread_local std::vector<Slot> slots;
    size_t capacity = 16;
    while (capacity < changes.size() * kCarriedKeys * 2) {
        capacity *= 2;
    }
    slots.assign(capacity, Slot{});
    const size_t mask = capacity - 1;
    auto slotOf = [&](uint64_t key) -> Slot& {
        size_t i = static_cast<size_t>(key ^ (key >> 29)) & mask;
        while (slots[i].round != 0 && slots[i].key != key) {
            i = (i + 1) & mask;
        }
        return slots[i];
    };
    std::vector<uint32_t> rounds;
    rounds.reserve(changes.size());
    for (const RowChange* change : changes) {
        uint32_t round = 1;
        for (size_t k = 0; k < change->carriedKeys; ++k) {
            round = std::max(round, slotOf(change->keys[k]).round + 1);
        }
        for (size_t k = 0; k < change->carriedKeys; ++k) {
            Slot& slot = slotOf(change->keys[k]);
            slot.key = change->keys[k];
            slot.round = round;
        }
        rounds.push_back(round);
    }
    return rounds;
}

}  // namespace syncscope::apply
