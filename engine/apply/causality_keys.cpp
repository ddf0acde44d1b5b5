#include "engine/apply/causality_keys.h"

#include <algorithm>
#include <string_view>

namespace syncscope::apply {

namespace {

constexpr uint64_t kFnvOffset = 14695981039346656037ULL;
constexpr uint64_t kFnvPrime = 1099511628211ULL;

void mix(uint64_t& hash, std::string_view bytes) {
    for (unsigned char c : bytes) {
        hash = (hash ^ c) * kFnvPrime;
    }
}

void mixByte(uint64_t& hash, unsigned char c) {
    hash = (hash ^ c) * kFnvPrime;
}

// Folds only what needs no server (binary strings and _bin collations); the rest is one key per column.
CollationFolder& serverlessFolder() {
    static CollationFolder folder;
    return folder;
}

constexpr unsigned char kWholeColumn = 0xfe;  // stands for every value of a column that cannot be folded

void mixValue(uint64_t& hash, const SqlValue& value, const schema::SchemaColumn& column, CollationFolder& folder) {
    mixByte(hash, static_cast<unsigned char>(value.kind()));
    switch (value.kind()) {
        case SqlValueKind::Null:
            break;
        case SqlValueKind::Signed:
        case SqlValueKind::Unsigned: {
            uint64_t bits = value.asUnsigned();
            mix(hash, std::string_view(reinterpret_cast<const char*>(&bits), sizeof bits));
            break;
        }
        case SqlValueKind::Double: {
            double real = value.asDouble();
            real = real == 0.0 ? 0.0 : real;  // -0 equals 0 downstream: one key
            mix(hash, std::string_view(reinterpret_cast<const char*>(&real), sizeof real));
            break;
        }
        case SqlValueKind::Text:
        case SqlValueKind::Bytes: {
            // As the downstream compares them: 'e1' and 'é1' under utf8mb4_general_ci are one key.
            thread_local std::string folded;
            if (folder.fold(column.collation, value.asString(), folded) == CollationFolder::Outcome::Exact) {
                mix(hash, folded);
            } else {
                mixByte(hash, kWholeColumn);
            }
            break;
        }
    }
    mixByte(hash, 0xff);  // value separator: ("ab","c") differs from ("a","bc")
}

uint64_t tableHash(const schema::TableSchema& table) {
    uint64_t hash = kFnvOffset;
    mix(hash, table.name().schema);
    mixByte(hash, 0);
    mix(hash, table.name().table);
    mixByte(hash, 0);
    return hash;
}

// One key for every table tied by cascading foreign keys: a parent's DELETE cascades to child rows the
// binlog never names, so the family's changes keep their binlog order on one worker.
uint64_t familyHash(const std::string& family) {
    uint64_t hash = kFnvOffset;
    mix(hash, "cascade family");
    mixByte(hash, 0);
    mix(hash, family);
    return hash;
}

void addKeys(const RowChange& change, const std::vector<SqlValue>& image, CollationFolder& folder,
             std::vector<uint64_t>& keys) {
    const auto& table = *change.table;
    const auto& identifying = table.identifyingKeys();
    const uint64_t tableKey = tableHash(table);
    for (size_t k = 0; k < identifying.size(); ++k) {
        const auto& columns = identifying[k];
        bool hasNull = std::any_of(columns.begin(), columns.end(),
                                   [&](size_t column) { return column < image.size() && image[column].isNull(); });
        if (hasNull) {
            continue;
        }
        uint64_t hash = tableKey;
        mixByte(hash, static_cast<unsigned char>(k));
        for (size_t column : columns) {
            if (column < image.size()) {
                mixValue(hash, image[column], table.columns()[column], folder);
            }
        }
        if (std::find(keys.begin(), keys.end(), hash) == keys.end()) {
            keys.push_back(hash);
        }
    }
}

}  // namespace

std::vector<uint64_t> causalityKeys(const RowChange& change, CollationFolder* folder) {
    std::vector<uint64_t> keys;
    causalityKeysInto(change, folder, keys);
    return keys;
}

void causalityKeysInto(const RowChange& change, CollationFolder* folder, std::vector<uint64_t>& keys) {
    CollationFolder& collations = folder ? *folder : serverlessFolder();
    keys.clear();
    if (!change.table->cascadeFamily().name.empty()) {
        keys.push_back(familyHash(change.table->cascadeFamily().name));
        return;
    }
    // Without a key every UPDATE and DELETE scans the table and locks what it reads: two workers on
    // one such table would deadlock each other, so the whole table is one key (one worker).
    // A unique index that cannot be hashed from the values (prefix, expression) does the same.
    if (change.table->rowKey().kind == schema::RowKeyKind::AllColumns || change.table->causalityByWholeTable()) {
        keys.push_back(tableHash(*change.table));
        return;
    }
    switch (change.op) {
        case RowOp::Insert:
            addKeys(change, change.after, collations, keys);
            break;
        case RowOp::Delete:
            addKeys(change, change.before, collations, keys);
            break;
        case RowOp::Update:
            addKeys(change, change.after, collations, keys);
            addKeys(change, change.before, collations, keys);
            break;
    }
}

void carryKeys(RowChange& change, std::span<const uint64_t> keys) {
    if (keys.size() > change.keys.size()) {
        change.carriedKeys = 0;
        return;
    }
    std::copy(keys.begin(), keys.end(), change.keys.begin());
    change.carriedKeys = static_cast<uint8_t>(keys.size());
}

}  // namespace syncscope::apply
