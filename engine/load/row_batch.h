// The values of a batch of rows, copied as they were read (the upstream's row buffer is reused for the
// next row), kept until BulkInsert sends them to the target in one bulk execution.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace syncscope::load {

class RowBatch {
public:
    explicit RowBatch(size_t columns) : columns_(columns) {}

    // Copies one row (a null pointer is a NULL) into the batch.
    void add(const char* const* values, const unsigned long* lengths);
    // Empties the batch; its memory is kept for the next one.
    void clear();

    size_t columns() const { return columns_; }
    size_t rows() const { return rows_; }
    // What the batch takes on the wire, about.
    size_t wireBytes() const { return wireBytes_; }
    // The bytes of its values as read (the load's progress counts these).
    uint64_t valueBytes() const { return valueBytes_; }
    // Null for NULL.
    const char* value(size_t row, size_t column) const {
        return nulls_[row * columns_ + column] != 0 ? nullptr : arena_.data() + offsets_[row * columns_ + column];
    }
    unsigned long length(size_t row, size_t column) const { return lengths_[row * columns_ + column]; }

private:
    size_t columns_ = 0;
    std::string arena_;                   // every value of the batch, one after another
    std::vector<size_t> offsets_;         // row-major: rows_ x columns_, into arena_
    std::vector<unsigned long> lengths_;  // row-major
    std::vector<char> nulls_;             // row-major
    size_t rows_ = 0;
    size_t wireBytes_ = 0;
    uint64_t valueBytes_ = 0;
};

}  // namespace syncscope::load
