#include "engine/apply/key_folding.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>

#include "engine/apply/key_rounds.h"

namespace syncscope::apply {

namespace {

using schema::TableSchema;

// How a table's changes may fold (see key_folding.h): not at all, freely (its row key is its only unique
// index downstream), or key by key, where a key's changes share no causality key with the rest of the batch.
enum class TableFolding : uint8_t { None, Free, Isolated };

TableFolding tableFolding(const TableSchema& table) {
    const schema::CascadeFamily& family = table.cascadeFamily();
    if (table.rowKey().kind == schema::RowKeyKind::AllColumns || !table.referencingForeignKeys().empty() ||
        !family.name.empty() || family.cascadesToChildren || family.changedByParents) {
        return TableFolding::None;
    }
    if (table.rowKeyIsOnlyUniqueIndex()) {
        return TableFolding::Free;
    }
    if (!table.downstreamUniqueIndexes().empty() && !table.downstreamHasTriggers() &&
        !table.downstreamHasOwnColumns() && !table.causalityByWholeTable()) {
        return TableFolding::Isolated;
    }
    return TableFolding::None;
}

const std::vector<SqlValue>& keyImage(const RowChange& change) {
    return change.op == RowOp::Insert ? change.after : change.before;
}

bool changeFolds(const RowChange& change) {
    const TableSchema& table = *change.table;
    const size_t columns = table.columns().size();
    const TableFolding folding = tableFolding(table);
    return !change.safeMode && !change.recordApplied && folding != TableFolding::None &&
           (folding == TableFolding::Free || change.carriedKeys > 0) &&
           (change.op == RowOp::Delete || change.after.size() == columns) &&
           (change.op == RowOp::Insert || change.before.size() == columns) &&
           !(change.op == RowOp::Update && change.keyChanged()) && rowKeyComparesExactly(table, keyImage(change));
}

bool sameKey(const RowChange& a, const RowChange& b) {
    const auto& left = keyImage(a);
    const auto& right = keyImage(b);
    for (size_t column : a.table->rowKey().columns) {
        if (!(left[column] == right[column])) {
            return false;
        }
    }
    return true;
}

// Whether the changes of one key follow one another as the upstream made them: an INSERT of a row
// that is not there, an UPDATE or DELETE of the row the previous change left. Sets whether the row
// was there before the first change.
bool followsOn(std::span<const RowChange> changes, const std::vector<size_t>& chain, bool& existedBefore) {
    const RowChange& first = changes[chain.front()];
    existedBefore = first.op != RowOp::Insert;
    bool exists = existedBefore;
    const std::vector<SqlValue>* left = nullptr;  // the row as the previous change left it
    for (size_t position : chain) {
        const RowChange& change = changes[position];
        if (change.op == RowOp::Insert) {
            if (exists) {
                return false;
            }
        } else if (!exists || (left != nullptr && change.before != *left)) {
            return false;
        }
        exists = change.op != RowOp::Delete;
        left = exists ? &change.after : nullptr;
    }
    return true;
}

// The net effect of a chain, carried by its last change (see Fold).
Fold netOf(const RowChange& last, bool existedBefore) {
    switch (last.op) {
        case RowOp::Insert:
            if (!existedBefore) {
                return Fold::Keep;
            }
            return tableFolding(*last.table) == TableFolding::Free ? Fold::UpsertAfter : Fold::UpdateAfter;
        case RowOp::Update:
            return existedBefore ? Fold::Keep : Fold::InsertAfter;
        case RowOp::Delete:
            return existedBefore ? Fold::Keep : Fold::Drop;
    }
    return Fold::Keep;
}

// Tables whose changes may fold in this batch: each of their changes folds, and one structure serves
// them all (a table map can change without a DDL the task applies; two upstream tables routed into one
// may bring two structures). A batch touches few tables: a short list, looked up by structure first, so
// that a change costs a pointer comparison, not a name.
std::unordered_set<const TableSchema*> foldingTables(std::span<const RowChange> changes) {
    struct Seen {
        const TableSchema* structure;
        bool folds;
    };
    std::vector<Seen> seen;
    for (const RowChange& change : changes) {
        const TableSchema* structure = change.table.get();
        auto it = std::find_if(seen.begin(), seen.end(), [&](const Seen& s) { return s.structure == structure; });
        if (it == seen.end()) {
            bool folds = true;
            for (Seen& other : seen) {  // another structure of the same table: neither folds
                if (other.structure->name() == structure->name()) {
                    other.folds = folds = false;
                }
            }
            seen.push_back({structure, folds});
            it = seen.end() - 1;
        }
        it->folds = it->folds && changeFolds(change);
    }
    std::unordered_set<const TableSchema*> tables;
    for (const Seen& entry : seen) {
        if (entry.folds) {
            tables.insert(entry.structure);
        }
    }
    return tables;
}

// For each chain of two or more changes of a table that folds key by key, whether none of its causality
// keys is carried by a change outside it; the other chains' entries are false. Two values that hash
// alike only keep a chain from folding.
std::vector<bool> isolatedChains(std::span<const RowChange> changes, const std::vector<std::vector<size_t>>& chains) {
    std::vector<bool> isolated(chains.size(), false);
    auto keyByKey = [&](const std::vector<size_t>& chain) {
        return chain.size() >= 2 && tableFolding(*changes[chain.front()].table) == TableFolding::Isolated;
    };
    if (std::none_of(chains.begin(), chains.end(), keyByKey)) {
        return isolated;
    }
    // Who holds each key: a chain's index, a change outside every chain (chains.size() + its position), or
    // kShared when two of them do.
    constexpr size_t kShared = SIZE_MAX;
    std::vector<size_t> holder(changes.size());
    for (size_t i = 0; i < changes.size(); ++i) {
        holder[i] = chains.size() + i;
    }
    for (size_t c = 0; c < chains.size(); ++c) {
        for (size_t position : chains[c]) {
            holder[position] = c;
        }
    }
    std::unordered_map<uint64_t, size_t> holderOfKey;
    holderOfKey.reserve(changes.size() * 2);
    for (size_t i = 0; i < changes.size(); ++i) {
        for (size_t k = 0; k < changes[i].carriedKeys; ++k) {
            auto [it, inserted] = holderOfKey.emplace(changes[i].keys[k], holder[i]);
            if (!inserted && it->second != holder[i]) {
                it->second = kShared;
            }
        }
    }
    for (size_t c = 0; c < chains.size(); ++c) {
        if (!keyByKey(chains[c])) {
            continue;
        }
        isolated[c] = std::all_of(chains[c].begin(), chains[c].end(), [&](size_t position) {
            const RowChange& change = changes[position];
            return std::all_of(change.keys.begin(), change.keys.begin() + change.carriedKeys,
                               [&](uint64_t key) { return holderOfKey.at(key) == c; });
        });
    }
    return isolated;
}

}  // namespace

std::vector<Fold> foldByKey(std::span<const RowChange> changes) {
    if (changes.size() < 2) {
        return {};
    }
    const std::unordered_set<const TableSchema*> tables = foldingTables(changes);
    if (tables.empty()) {
        return {};
    }
    // The changes of each key value in binlog order; keys whose values hash alike are told apart here.
    std::vector<std::vector<size_t>> chains;
    std::unordered_multimap<uint64_t, size_t> chainOf;  // key hash -> index into chains
    for (size_t i = 0; i < changes.size(); ++i) {
        const RowChange& change = changes[i];
        if (!tables.contains(change.table.get())) {
            continue;
        }
        uint64_t hash = rowKeyHash(*change.table, keyImage(change)) ^ std::hash<const void*>{}(change.table.get());
        auto [begin, end] = chainOf.equal_range(hash);
        auto found = begin;
        while (found != end && !(changes[chains[found->second].front()].table == change.table &&
                                 sameKey(changes[chains[found->second].front()], change))) {
            ++found;
        }
        if (found == end) {
            chainOf.emplace(hash, chains.size());
            chains.push_back({i});
        } else {
            chains[found->second].push_back(i);
        }
    }
    const std::vector<bool> isolated = isolatedChains(changes, chains);
    std::vector<Fold> folds(changes.size(), Fold::Keep);
    bool folded = false;
    for (size_t c = 0; c < chains.size(); ++c) {
        const std::vector<size_t>& chain = chains[c];
        bool existedBefore = false;
        if (chain.size() < 2 || !followsOn(changes, chain, existedBefore) ||
            (tableFolding(*changes[chain.front()].table) == TableFolding::Isolated && !isolated[c])) {
            continue;
        }
        for (size_t i = 0; i + 1 < chain.size(); ++i) {
            folds[chain[i]] = Fold::Drop;
        }
        folds[chain.back()] = netOf(changes[chain.back()], existedBefore);
        folded = true;
    }
    if (!folded) {
        return {};
    }
    return folds;
}

}  // namespace syncscope::apply
