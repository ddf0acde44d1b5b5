#include "engine/load/row_batch.h"

#include <algorithm>
#include <cstring>

namespace syncscope::load {

namespace {

// Per value on the wire besides its bytes: the indicator and the length prefix, at most.
constexpr size_t kWireBytesPerValue = 10;
// The values' first allocation; it doubles from there as a batch needs.
constexpr size_t kInitialBytes = 64 * 1024;
// Where an empty value points: never null, so that nothing takes it for a NULL.
constexpr char kEmptyValue[1] = {0};

}  // namespace

RowBatch::RowBatch(size_t columns) : columns_(columns) {}

void RowBatch::reserve(size_t more) {
    if (used_ + more <= capacity_) {
        return;
    }
    size_t capacity = std::max({kInitialBytes, capacity_ * 2, used_ + more});
    auto bytes = std::make_unique_for_overwrite<char[]>(capacity);  // untouched pages stay out of RSS
    if (used_ != 0) {
        std::memcpy(bytes.get(), bytes_.get(), used_);
    }
    for (Column& column : columns_) {
        for (size_t r = 0; r < rows_; ++r) {
            if (column.nulls[r] == 0 && column.lengths[r] != 0) {
                column.values[r] = bytes.get() + (column.values[r] - bytes_.get());
            }
        }
    }
    bytes_ = std::move(bytes);
    capacity_ = capacity;
}

void RowBatch::add(const char* const* values, const unsigned long* lengths) {
    size_t rowBytes = 0;
    for (size_t c = 0; c < columns_.size(); ++c) {
        rowBytes += values[c] != nullptr ? lengths[c] : 0;
    }
    reserve(rowBytes);
    for (size_t c = 0; c < columns_.size(); ++c) {
        Column& column = columns_[c];
        if (values[c] == nullptr) {
            column.values.push_back(nullptr);
            column.lengths.push_back(0);
            column.nulls.push_back(1);
            wireBytes_ += kWireBytesPerValue;
        } else if (lengths[c] == 0) {
            column.values.push_back(kEmptyValue);
            column.lengths.push_back(0);
            column.nulls.push_back(0);
            wireBytes_ += kWireBytesPerValue;
        } else {
            char* at = bytes_.get() + used_;
            std::memcpy(at, values[c], lengths[c]);
            used_ += lengths[c];
            column.values.push_back(at);
            column.lengths.push_back(lengths[c]);
            column.nulls.push_back(0);
            wireBytes_ += lengths[c] + kWireBytesPerValue;
        }
    }
    ++rows_;
}

void RowBatch::clear() {
    for (Column& column : columns_) {
        column.values.clear();
        column.lengths.clear();
        column.nulls.clear();
    }
    used_ = 0;
    rows_ = 0;
    wireBytes_ = 0;
}

}  // namespace syncscope::load
