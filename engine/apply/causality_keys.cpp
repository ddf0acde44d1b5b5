#include "engine/apply/causality_keys.h"

#include <algorithm>
#include <bit>
#include <string_view>

#include "engine/apply/key_hash.h"

namespace syncscope::apply {

namespace {

// Folds only what needs no server (binary strings and _bin collations); the rest is one key per column.
CollationFolder& serverlessFolder() {
    static CollationFolder folder;
    return folder;
}

constexpr unsigned char kWholeColumn = 0xfe;  // stands for every value of a column that cannot be folded

void mixValue(KeyHash& hash, const SqlValue& value, const schema::SchemaColumn& column, CollationFolder& folder) {
    hash.byte(static_cast<unsigned char>(value.kind()));
    switch (value.kind()) {
        case SqlValueKind::Null:
            break;
        case SqlValueKind::Signed:
        case SqlValueKind::Unsigned:
            hash.append(value.asUnsigned(), sizeof(uint64_t));
            break;
        case SqlValueKind::Double: {
            double real = value.asDouble();
            real = real == 0.0 ? 0.0 : real;  // -0 equals 0 downstream: one key
            hash.append(std::bit_cast<uint64_t>(real), sizeof(uint64_t));
            break;
        }
        case SqlValueKind::Text:
        case SqlValueKind::Bytes:
            // As the downstream compares them: 'e1' and 'é1' under utf8mb4_general_ci are one key.
            if (folder.foldInto(column.collation, value.asString(), hash) != CollationFolder::Outcome::Exact) {
                hash.byte(kWholeColumn);
            }
            break;
    }
    hash.byte(0xff);  // value separator: ("ab","c") differs from ("a","bc")
}

// The hash of a table's name, which its keys go on from.
KeyHash tableHash(const schema::TableSchema& table) {
    KeyHash hash;
    hash.bytes(table.name().schema);
    hash.byte(0);
    hash.bytes(table.name().table);
    hash.byte(0);
    return hash;
}

// One key for every table tied by cascading foreign keys: a parent's DELETE cascades to child rows the
// binlog never names, so the family's changes keep their binlog order on one worker.
uint64_t familyHash(const std::string& family) {
    KeyHash hash;
    hash.bytes("cascade family");
    hash.byte(0);
    hash.bytes(family);
    return hash.value();
}

void addKeys(const RowChange& change, const std::vector<SqlValue>& image, CollationFolder& folder,
             std::vector<uint64_t>& keys) {
    const auto& table = *change.table;
    const auto& identifying = table.identifyingKeys();
    const KeyHash tableKey = tableHash(table);
    for (size_t k = 0; k < identifying.size(); ++k) {
        const auto& columns = identifying[k];
        bool hasNull = std::any_of(columns.begin(), columns.end(),
                                   [&](size_t column) { return column < image.size() && image[column].isNull(); });
        if (hasNull) {
            continue;
        }
        KeyHash hash = tableKey;
        hash.byte(static_cast<unsigned char>(k));
        for (size_t column : columns) {
            if (column < image.size()) {
                mixValue(hash, image[column], table.columns()[column], folder);
            }
        }
        uint64_t key = hash.value();
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
            keys.push_back(key);
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
        keys.push_back(tableHash(*change.table).value());
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
