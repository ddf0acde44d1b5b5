// What the GUI benchmarks' synthetic snapshots share: points on an axis of equal binlog files
// ("mysql-bin.000001", ...), so that every benchmark places its points the same way.
#pragma once

#include <cstdint>
#include <string>

#include "engine/task/status_snapshot.h"

namespace syncscope::bench {

inline constexpr uint64_t kBenchFileSize = 256ULL * 1024 * 1024;

// The point `axis` bytes from the start of the first file.
inline task::PointView benchPoint(uint64_t axis) {
    task::PointView point;
    point.file = "mysql-bin.00000" + std::to_string(axis / kBenchFileSize + 1);
    point.pos = axis % kBenchFileSize;
    point.axis = axis;
    return point;
}

}  // namespace syncscope::bench
