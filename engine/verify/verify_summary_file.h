// The verify summary file read back (<log-dir>/<task>-verify.json, written by `syncscope-cli verify`), so that
// the GUI shows a CLI verify as its own: per table the outcome, where it was verified, chunks, rows, and the
// differing rows themselves (up to kDifferencesKept a table, values kept byte for byte).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "engine/verify/task_verifier.h"

namespace syncscope::verify {

struct SavedVerify {
    VerifyReport report;
    int64_t finishedAt = 0;         // unix seconds
    uint64_t differencesTotal = 0;  // every difference found; report.tables list at most kDifferencesKept a table
};

inline constexpr size_t kDifferencesKept = 1000;

// What the summary keeps of one table beyond its counts: the compared columns, the key, the notes and the
// differing rows (a value is a string when it is UTF-8, {"hex": ...} when not, null for NULL).
nlohmann::json tableDetailsJson(const TableVerifyResult& table);

// Throws VerifyError naming the file and what is wrong with it (unreadable, not JSON, a key missing or of
// the wrong type).
SavedVerify loadVerifySummary(const std::string& path);

}  // namespace syncscope::verify
