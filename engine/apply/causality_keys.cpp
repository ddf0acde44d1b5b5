#include "engine/apply/causality_keys.h"

#include <algorithm>
#include <cctype>
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

void mixValue(uint64_t& hash, const SqlValue& value) {
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
            mix(hash, std::string_view(reinterpret_cast<const char*>(&real), sizeof real));
            break;
        }
        case SqlValueKind::Text: {
            // Case-insensitive, PAD SPACE collations make 'a', 'A' and 'a ' the same key downstream:
            // hash them alike (an extra shared key only costs parallelism, never order).
            std::string_view text = value.asString();
            while (!text.empty() && text.back() == ' ') {
                text.remove_suffix(1);
            }
            for (unsigned char c : text) {
                mixByte(hash, static_cast<unsigned char>(std::tolower(c)));
            }
            break;
        }
        case SqlValueKind::Bytes:
            mix(hash, value.asString());
            break;
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

void addKeys(const RowChange& change, const std::vector<SqlValue>& image, std::vector<uint64_t>& keys) {
    const auto& table = *change.table;
    const auto& identifying = table.identifyingKeys();
    for (size_t k = 0; k < identifying.size(); ++k) {
        const auto& columns = identifying[k];
        bool hasNull = std::any_of(columns.begin(), columns.end(),
                                   [&](size_t column) { return column < image.size() && image[column].isNull(); });
        if (hasNull) {
            continue;
        }
        uint64_t hash = tableHash(table);
        mixByte(hash, static_cast<unsigned char>(k));
        for (size_t column : columns) {
            if (column < image.size()) {
                mixValue(hash, image[column]);
            }
        }
        if (std::find(keys.begin(), keys.end(), hash) == keys.end()) {
            keys.push_back(hash);
        }
    }
}

}  // namespace

std::vector<uint64_t> causalityKeys(const RowChange& change) {
    std::vector<uint64_t> keys;
    // Without a key every UPDATE and DELETE scans the table and locks what it reads: two workers on
    // one such table would deadlock each other, so the whole table is one key (one worker).
    if (change.table->rowKey().kind == schema::RowKeyKind::AllColumns) {
        keys.push_back(tableHash(*change.table));
        return keys;
    }
    switch (change.op) {
        case RowOp::Insert:
            addKeys(change, change.after, keys);
            break;
        case RowOp::Delete:
            addKeys(change, change.before, keys);
            break;
        case RowOp::Update:
            addKeys(change, change.after, keys);
            addKeys(change, change.before, keys);
            break;
    }
    return keys;
}

}  // namespace syncscope::apply
