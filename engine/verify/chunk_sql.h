// The SQL the verifier runs on either server for one table: a chunk's keys and row hashes (whose
// last row ends the upstream's chunk), its checksum computed by the server, and single rows by key
// (locking upstream). Every value is a ? parameter; every name is quoted. The same text runs on both
// sides with the side's table name, so that both servers hash the same expression.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/apply/sql_value.h"
#include "engine/verify/compared_table.h"

namespace syncscope::verify {

// A key range (lower, upper]: no lower bound before the first chunk, no upper bound after the last.
struct KeyRange {
    std::optional<RowValues> lower;  // exclusive
    std::optional<RowValues> upper;  // inclusive
    std::string describe(const ComparedTable& table) const;
};

struct BoundQuery {
    std::string sql;
    std::vector<apply::SqlValue> params;
};

class ChunkSql {
public:
    // The row hash both servers compute, named in reports.
    static constexpr const char* kRowHash =
        "CRC32 of the row's values (and NULL flags of nullable columns), multiplied by 2654435761 and combined by "
        "BIT_XOR, with COUNT(*); per row where a chunk differs";
    // Each row's CRC32 is multiplied by this (odd, below 2^32: the product fits 64 bits) before the BIT_XOR of
    // a chunk or part. CRC32 is affine over GF(2): under a plain BIT_XOR of CRC32s, values swapped between two
    // rows of equal lengths cancel out (pt-table-checksum's checksum misses them too); the carries of an integer
    // product do not.
    static constexpr uint64_t kRowHashMix = 2654435761U;

    explicit ChunkSql(const ComparedTable& table) : table_(table) {}

    // The key of the row `offset` rows after `lower` in key order (upstream only): where a chunk read
    // by checksum ends.
    BoundQuery boundary(const std::optional<RowValues>& lower, size_t offset) const;
    // The upstream's lowest and highest key (one integer column; nullopt twice when empty): where
    // KeyValueChunks cuts the table by key value. Two index dives, no scan.
    BoundQuery keyExtremes() const;
    // COUNT(*) and an order-independent checksum of the range's rows (as pt-table-checksum's default:
    // a row that differs goes unseen with a chance of 1 in 2^32).
    BoundQuery checksum(const schema::TableName& side, const KeyRange& range) const;
    // The checksum of each of `parts` (consecutive key ranges that cover a chunk) in one statement, one
    // row each (part number, COUNT(*), checksum): one pass that says where in a chunk rows differ.
    BoundQuery partChecksums(const schema::TableName& side, const std::vector<KeyRange>& parts) const;
    // Every row's key and hash in the range, in key order: where a chunk differs, which rows do is
    // found in this one pass (a row that differs goes unseen with a chance of 1 in 2^32).
    BoundQuery rowHashes(const schema::TableName& side, const KeyRange& range) const;
    // The same for several ranges in one statement (rows in key order): the differing parts of a chunk.
    BoundQuery rowHashes(const schema::TableName& side, std::span<const KeyRange> ranges) const;
    // The same for the next `rows` rows of the upstream after `lower`: the last row's key is the
    // chunk's upper bound, so that one pass both walks and hashes the chunk.
    BoundQuery nextRowHashes(const std::optional<RowValues>& lower, size_t rows) const;
    // One row by key; with `lockUpstream` a shared locking read, which also locks the gap of an
    // absent key, so that no upstream transaction can change or insert it until ours ends.
    BoundQuery rowByKey(const schema::TableName& side, const RowValues& key, bool lockUpstream) const;
    // The rows of many keys in one statement: a UNION ALL of rowByKey's lookup per key (so each key finds
    // exactly the row it finds alone, by the server's own comparison, locking as it does), each row led by
    // its key's position in `keys`. The lookups are padded to a power of two by repeating the last key
    // (rows at positions >= keys.size() are those repeats), so that few statement texts get prepared.
    BoundQuery rowsByKeys(const schema::TableName& side, std::span<const RowValues> keys, bool lockUpstream) const;
    // Keyless tables: each distinct row with how often it occurs (all columns, grouped).
    std::string rowCounts(const schema::TableName& side) const;
    // Keyless tables: COUNT(*) and a checksum that counts duplicates (a sum, not an exclusive or).
    std::string wholeTableChecksum(const schema::TableName& side) const;

private:
    // COUNT(*) and the BIT_XOR of the rows' mixed hashes, then " FROM side".
    std::string figuresFrom(const schema::TableName& side) const;
    std::string selectList() const;
    std::string keyList() const;
    std::string keyReadList() const;
    std::string rowText() const;
    // (k1, k2) > (v1, v2) spelt out as k1 > v1 OR (k1 = v1 AND k2 > v2), which every version's range
    // optimizer uses; `op` is ">" or "<=".
    void appendKeyComparison(std::string& sql, std::vector<apply::SqlValue>& params, const RowValues& key,
                             bool greater) const;
    void appendRange(std::string& sql, std::vector<apply::SqlValue>& params, const KeyRange& range) const;
    // " WHERE (range) OR (range) ..."; nothing when a range is open at both ends.
    void appendRanges(std::string& sql, std::vector<apply::SqlValue>& params, std::span<const KeyRange> ranges) const;
    std::string placeholder(size_t column) const;
    void appendKeyEquals(std::string& sql, std::vector<apply::SqlValue>& params, const RowValues& key) const;

    const ComparedTable& table_;
};

}  // namespace syncscope::verify
