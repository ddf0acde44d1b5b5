// What comparing one chunk found: its upstream rows, whether its checksums differed, and the keys to
// confirm (RowConfirmer).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/verify/verify_result.h"

namespace syncscope::verify {

struct ChunkComparison {
    uint64_t rows = 0;
    bool differs = false;
    std::vector<RowDifference> suspects{};
};

}  // namespace syncscope::verify
