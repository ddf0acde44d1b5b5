// The values of a batch of rows, copied as they were read (the upstream's row buffer is reused for the
// next row), kept column by column as MariaDB's array binding takes them, so that BulkInsert sends the
// batch without another copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace syncscope::load {

class RowBatch {
public:
    explicit RowBatch(size_t columns);

    // Copies one row (a null pointer is a NULL) into the batch.
    void add(const char* const* values, const unsigned long* lengths);
    // Empties the batch; its memory is kept for the next one.
    void clear();

    size_t columns() const { return columns_.size(); }
    size_t rows() const { return rows_; }
    // What the batch takes on the wire, about.
    size_t wireBytes() const { return wireBytes_; }
    // The bytes of its values as read (the load's progress counts these).
    uint64_t valueBytes() const { return used_; }

    // Column `c` of every row: a pointer to each value (anything for a NULL), its length, and 1 for a
    // NULL, 0 otherwise (MariaDB's STMT_INDICATOR_NULL and STMT_INDICATOR_NONE).
    const char* const* values(size_t c) const { return columns_[c].values.data(); }
    const unsigned long* lengths(size_t c) const { return columns_[c].lengths.data(); }
    const char* nulls(size_t c) const { return columns_[c].nulls.data(); }

private:
    struct Column {
        std::vector<const char*> values;  // into bytes_
        std::vector<unsigned long> lengths;
        std::vector<char> nulls;
    };
    // Makes room for `more` bytes of values; moving them re-points every value.
    void reserve(size_t more);

    std::vector<Column> columns_;
    std::unique_ptr<char[]> bytes_;  // every value of the batch, one after another
    size_t capacity_ = 0;
    size_t used_ = 0;
    size_t rows_ = 0;
    size_t wireBytes_ = 0;
};

}  // namespace syncscope::load
