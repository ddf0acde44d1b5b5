#include "engine/apply/key_folding.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>

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
bool followsOn(std::span<const RowChange> changes, std::span<const size_t> chain, bool& existedBefore) {
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
Fold netOf(const RowChange& last, bool existedBefore, TableFolding folding) {
    switch (last.op) {
        case RowOp::Insert:
            if (!existedBefore) {
                return Fold::Keep;
            }
            return folding == TableFolding::Free ? Fold::UpsertAfter : Fold::UpdateAfter;
        case RowOp::Update:
            return existedBefore ? Fold::Keep : Fold::InsertAfter;
        case RowOp::Delete:
            return existedBefore ? Fold::Keep : Fold::Drop;
    }
    return Fold::Keep;
}

// The structures of a batch and how each folds in it: a change folds only where every change of its
// structure does, and one structure serves the table (a table map can change without a DDL the task
// applies; two upstream tables routed into one may bring two structures). A batch touches few tables: a
// short list, looked up by structure, so that a change costs a pointer comparison, not a name, and a
// table's folding is decided once per batch.
class FoldingTables {
public:
    explicit FoldingTables(std::span<const RowChange> changes) {
        for (const RowChange& change : changes) {
            const TableSchema* structure = change.table.get();
            size_t index = indexOf(structure);
            if (index == seen_.size()) {
                TableFolding folding = tableFolding(*structure);
                for (Seen& other : seen_) {  // another structure of the same table: neither folds
                    if (other.structure->name() == structure->name()) {
                        other.folding = folding = TableFolding::None;
                    }
                }
                seen_.push_back({structure, folding});
            }
            Seen& entry = seen_[index];
            if (entry.folding != TableFolding::None && !changeFolds(change, entry.folding)) {
                entry.folding = TableFolding::None;
            }
        }
    }

    bool any() const {
        return std::any_of(seen_.begin(), seen_.end(), [](const Seen& s) { return s.folding != TableFolding::None; });
    }

    // How the change's table folds in this batch (None: it does not).
    TableFolding of(const RowChange& change) const {
        size_t index = indexOf(change.table.get());
        return index < seen_.size() ? seen_[index].folding : TableFolding::None;
    }

private:
    struct Seen {
        const TableSchema* structure;
        TableFolding folding;
    };

    static bool changeFolds(const RowChange& change, TableFolding folding) {
        const size_t columns = change.table->columns().size();
        return !change.safeMode && !change.recordApplied && (folding == TableFolding::Free || change.carriedKeys > 0) &&
               (change.op == RowOp::Delete || change.after.size() == columns) &&
               (change.op == RowOp::Insert || change.before.size() == columns) &&
               !(change.op == RowOp::Update && change.keyChanged()) &&
               rowKeyComparesExactly(*change.table, keyImage(change));
    }

    // The structure's index in seen_, or seen_.size() when the batch has not shown it yet.
    size_t indexOf(const TableSchema* structure) const {
        size_t i = 0;
        while (i < seen_.size() && seen_[i].structure != structure) {
            ++i;
        }
        return i;
    }

    std::vector<Seen> seen_;
};

// The chains of two or more changes of one key value, each in binlog order, stored one after another.
struct Chains {
    std::vector<size_t> members;  // positions in the batch
    std::vector<size_t> ends;     // where each chain ends in members; the next one begins there

    std::span<const size_t> chain(size_t c) const {
        size_t begin = c == 0 ? 0 : ends[c - 1];
        return std::span<const size_t>(members).subspan(begin, ends[c] - begin);
    }
    size_t size() const { return ends.size(); }
};

// Groups the folding changes by key value: sorted by the key's hash and then by position, so that each
// hash's changes lie together in binlog order; values that hash alike are told apart there.
Chains chainsOf(std::span<const RowChange> changes, const FoldingTables& tables) {
    struct Entry {
        uint64_t hash;
        size_t position;
    };
    std::vector<Entry> entries;
    entries.reserve(changes.size());
    for (size_t i = 0; i < changes.size(); ++i) {
        const RowChange& change = changes[i];
        if (tables.of(change) != TableFolding::None) {
            entries.push_back(
                {rowKeyHash(*change.table, keyImage(change)) ^ std::hash<const void*>{}(change.table.get()), i});
        }
    }
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
        return a.hash != b.hash ? a.hash < b.hash : a.position < b.position;
    });
    Chains chains;
    std::vector<size_t> pending;  // a hash group's positions not yet in a chain
    std::vector<size_t> rest;
    for (size_t begin = 0; begin < entries.size();) {
        size_t end = begin + 1;
        while (end < entries.size() && entries[end].hash == entries[begin].hash) {
            ++end;
        }
        pending.clear();
        for (size_t e = begin; e < end; ++e) {
            pending.push_back(entries[e].position);
        }
        while (pending.size() >= 2) {  // one chain per key value of the group, the first change's first
            const RowChange& head = changes[pending.front()];
            size_t first = chains.members.size();
            rest.clear();
            for (size_t position : pending) {
                if (changes[position].table == head.table && sameKey(head, changes[position])) {
                    chains.members.push_back(position);
                } else {
                    rest.push_back(position);
                }
            }
            if (chains.members.size() - first >= 2) {
                chains.ends.push_back(chains.members.size());
            } else {
                chains.members.resize(first);
            }
            pending.swap(rest);
        }
        begin = end;
    }
    return chains;
}

// For each chain of a table that folds key by key, whether none of its causality keys is carried by a
// change outside it; the other chains' entries are false. Two values that hash alike only keep a chain
// from folding.
std::vector<bool> isolatedChains(std::span<const RowChange> changes, const Chains& chains,
                                 const FoldingTables& tables) {
    std::vector<bool> isolated(chains.size(), false);
    auto keyByKey = [&](size_t c) { return tables.of(changes[chains.chain(c).front()]) == TableFolding::Isolated; };
    bool anyKeyByKey = false;
    for (size_t c = 0; c < chains.size() && !anyKeyByKey; ++c) {
        anyKeyByKey = keyByKey(c);
    }
    if (!anyKeyByKey) {
        return isolated;
    }
    // Who holds each key: a chain's index, or a change outside every chain (chains.size() + its position).
    std::vector<size_t> holder(changes.size());
    for (size_t i = 0; i < changes.size(); ++i) {
        holder[i] = chains.size() + i;
    }
    for (size_t c = 0; c < chains.size(); ++c) {
        for (size_t position : chains.chain(c)) {
            holder[position] = c;
        }
    }
    std::vector<std::pair<uint64_t, size_t>> held;  // (key, holder), sorted so that a key's holders lie together
    for (size_t i = 0; i < changes.size(); ++i) {
        for (size_t k = 0; k < changes[i].carriedKeys; ++k) {
            held.emplace_back(changes[i].keys[k], holder[i]);
        }
    }
    std::sort(held.begin(), held.end());
    std::vector<bool> shares(chains.size(), false);  // a key of the chain is held by someone else too
    for (size_t begin = 0; begin < held.size();) {
        size_t end = begin + 1;
        while (end < held.size() && held[end].first == held[begin].first) {
            ++end;
        }
        if (held[begin].second != held[end - 1].second) {  // sorted: the first and last holders differ
            for (size_t h = begin; h < end; ++h) {
                if (held[h].second < chains.size()) {
                    shares[held[h].second] = true;
                }
            }
        }
        begin = end;
    }
    for (size_t c = 0; c < chains.size(); ++c) {
        isolated[c] = keyByKey(c) && !shares[c];
    }
    return isolated;
}

}  // namespace

std::vector<Fold> foldByKey(std::span<const RowChange> changes) {
    if (changes.size() < 2) {
        return {};
    }
    const FoldingTables tables(changes);
    if (!tables.any()) {
        return {};
    }
    const Chains chains = chainsOf(changes, tables);
    const std::vector<bool> isolated = isolatedChains(changes, chains, tables);
    std::vector<Fold> folds(changes.size(), Fold::Keep);
    bool folded = false;
    for (size_t c = 0; c < chains.size(); ++c) {
        std::span<const size_t> chain = chains.chain(c);
        const TableFolding folding = tables.of(changes[chain.front()]);
        bool existedBefore = false;
        if (!followsOn(changes, chain, existedBefore) || (folding == TableFolding::Isolated && !isolated[c])) {
            continue;
        }
        for (size_t i = 0; i + 1 < chain.size(); ++i) {
            folds[chain[i]] = Fold::Drop;
        }
        folds[chain.back()] = netOf(changes[chain.back()], existedBefore, folding);
        folded = true;
    }
    if (!folded) {
        return {};
    }
    return folds;
}

}  // namespace syncscope::apply
