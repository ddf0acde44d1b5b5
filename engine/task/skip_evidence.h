// What the DBA was shown before a skip, kept in the skip's own audit entry: the replayable SQL of the rows
// it leaves out and the preview's counts, so that the entry alone says how to undo the skip.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace syncscope::task {

struct SkipEvidence {
    std::string replaySqlFile;                          // absolute path; empty: none was saved
    nlohmann::json preview = nlohmann::json::object();  // the window and its rows counted by downstream state
};

}  // namespace syncscope::task
