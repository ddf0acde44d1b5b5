// The row history's key search (`events --key`) without rendering every row's key as text: the key text is
// split and parsed once, and each row's key columns are compared as decoded values (integers as integers,
// text, decimals and plain bytes as their bytes); other types are rendered as before. A row matches exactly
// when keyText() of its image equals the key text.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/binlog/rows_event.h"

namespace syncscope::browse {

class KeyMatcher {
public:
    explicit KeyMatcher(std::string keyText);

    // `keyColumns`: keyColumns(*rows.table), looked up once per event.
    bool matches(const binlog::RowsEvent& rows, std::span<const binlog::ColumnValue> image,
                 const std::vector<uint32_t>& keyColumns) const;

private:
    // One column's part of the key text, with its integer readings when it is an integer's canonical text.
    struct Part {
        std::string text;
        std::optional<int64_t> signedValue;
        std::optional<uint64_t> unsignedValue;
    };
    static Part partOf(std::string text);
    static bool partMatches(const Part& part, const binlog::ColumnValue& value, const binlog::ColumnDef& column);

    std::string text_;
    Part whole_;               // a one-column key: the whole text, commas and all
    std::vector<Part> parts_;  // a key of several columns: the text split at its commas
};

}  // namespace syncscope::browse
