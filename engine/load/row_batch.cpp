#include "engine/load/row_batch.h"

namespace syncscope::load {

namespace {

// Per value on the wire besides its bytes: the indicator and the length prefix, at most.
constexpr size_t kWireBytesPerValue = 10;

}  // namespace

void RowBatch::add(const char* const* values, const unsigned long* lengths) {
    for (size_t c = 0; c < columns_; ++c) {
        offsets_.push_back(arena_.size());
        if (values[c] == nullptr) {
            lengths_.push_back(0);
            nulls_.push_back(1);
            wireBytes_ += kWireBytesPerValue;
        } else {
            arena_.append(values[c], lengths[c]);
            lengths_.push_back(lengths[c]);
            nulls_.push_back(0);
            wireBytes_ += lengths[c] + kWireBytesPerValue;
            valueBytes_ += lengths[c];
        }
    }
    ++rows_;
}

void RowBatch::clear() {
    arena_.clear();
    offsets_.clear();
    lengths_.clear();
    nulls_.clear();
    rows_ = 0;
    wireBytes_ = 0;
    valueBytes_ = 0;
}

}  // namespace syncscope::load
