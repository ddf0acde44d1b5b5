#include "engine/verify/key_value_chunks.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "engine/verify/verify_error.h"

namespace syncscope::verify {

namespace {

constexpr uint64_t kSignBit = uint64_t{1} << 63;
// Each observed chunk moves the density only half way, so that one gap or cluster does not swing it.
constexpr double kSmoothing = 0.5;
constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

}  // namespace

bool KeyValueChunks::applies(const ComparedTable& table) {
    if (table.keyColumns().size() != 1) {
        return false;
    }
    ValueForm form = table.columns()[table.keyColumns().front()].form;
    return form == ValueForm::Signed || form == ValueForm::Unsigned;
}

KeyValueChunks::KeyValueChunks(const ComparedTable& table, const std::optional<std::string>& lowest,
                               const std::optional<std::string>& highest, uint64_t estimatedRows)
    : signed_(table.columns()[table.keyColumns().front()].form == ValueForm::Signed) {
    if (!lowest || !highest) {
        return;
    }
    empty_ = false;
    lowest_ = toOffset(*lowest);
    highest_ = std::max(lowest_, toOffset(*highest));
    const double values = static_cast<double>(highest_ - lowest_) + 1;
    rowsPerValue_ = std::clamp(static_cast<double>(estimatedRows) / values, 0.0, 1.0);
}

uint64_t KeyValueChunks::toOffset(const std::string& text) const {
    try {
        size_t used = 0;
        uint64_t offset =
            signed_ ? static_cast<uint64_t>(std::stoll(text, &used)) ^ kSignBit : std::stoull(text, &used);
        if (used != text.size() || (!signed_ && text.starts_with('-'))) {
            throw std::invalid_argument(text);
        }
        return offset;
    } catch (const std::logic_error&) {
        throw VerifyError("an integer key's value is not an integer: '" + text + "'");
    }
}

std::string KeyValueChunks::toText(uint64_t offset) const {
    return signed_ ? std::to_string(static_cast<int64_t>(offset ^ kSignBit)) : std::to_string(offset);
}

bool KeyValueChunks::dense() const {
    return empty_ || rowsPerValue_ * static_cast<double>(kMaxValuesPerRow) >= 1.0;
}

uint64_t KeyValueChunks::widthFor(size_t rows) const {
    const double aimed = static_cast<double>(std::max<size_t>(rows, 1));
    const double density = std::clamp(rowsPerValue_, 1.0 / static_cast<double>(kMaxValuesPerRow), 1.0);
    const double width = aimed / density;                       // at most kMaxValuesPerRow * aimed
    constexpr double kValuesOfUint64 = 18446744073709551616.0;  // 2^64
    return width >= kValuesOfUint64 ? kMax : std::max<uint64_t>(1, static_cast<uint64_t>(width));
}

std::optional<KeyRange> KeyValueChunks::next(size_t rows) {
    if (done_) {
        return std::nullopt;
    }
    KeyRange range;
    if (empty_) {
        done_ = openBelow_ = openAbove_ = true;
        return range;
    }
    openBelow_ = first_;
    start_ = first_ ? lowest_ : end_ + 1;
    first_ = false;
    width_ = widthFor(rows);
    end_ = start_ + std::min(width_ - 1, kMax - start_);
    openAbove_ = end_ >= highest_;
    done_ = openAbove_;
    if (!openBelow_) {
        range.lower = RowValues{toText(start_ - 1)};
    }
    if (!openAbove_) {
        range.upper = RowValues{toText(end_)};
    }
    return range;
}

void KeyValueChunks::observed(uint64_t rows, uint64_t width) {
    if (width == 0) {
        return;
    }
    const double measured = static_cast<double>(rows) / static_cast<double>(width);
    rowsPerValue_ = std::clamp(kSmoothing * measured + (1 - kSmoothing) * rowsPerValue_, 0.0, 1.0);
}

std::vector<KeyRange> KeyValueChunks::parts(size_t count) const {
    if (empty_) {
        return {KeyRange{}};
    }
    // (start_ - 1, end_] in `used` parts; the first `extra` parts one value wider.
    const uint64_t values = end_ - start_ + 1;  // end_ - start_ < width_, so no overflow
    const uint64_t used = std::clamp<uint64_t>(count, 1, values);
    const uint64_t partWidth = values / used;
    const uint64_t extra = values % used;
    std::vector<KeyRange> ranges(used);
    uint64_t partStart = start_;
    for (uint64_t part = 0; part < used; ++part) {
        const uint64_t partEnd = partStart + partWidth - 1 + (part < extra ? 1 : 0);
        if (part > 0) {
            ranges[part].lower = ranges[part - 1].upper;
        } else if (!openBelow_) {
            ranges[part].lower = RowValues{toText(start_ - 1)};
        }
        if (part + 1 < used || !openAbove_) {
            ranges[part].upper = RowValues{toText(partEnd)};
        }
        partStart = partEnd + 1;
    }
    return ranges;
}

uint64_t KeyValueChunks::chunksLeft(size_t rows) const {
    if (done_) {
        return 0;
    }
    return (highest_ - std::min(highest_, end_)) / widthFor(rows) + 1;
}

}  // namespace syncscope::verify
